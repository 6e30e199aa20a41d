// The JavaScript catalogue Django serves at /jsi18n/ (loaded by templates/base.html before any
// module): the globals the table's `// @ts-check` modules use. Types only; never served as code.
declare function gettext(msgid: string): string;
declare function ngettext(singular: string, plural: string, count: number): string;
declare function pgettext(context: string, msgid: string): string;
declare function interpolate(format: string, values: Record<string, unknown>, named: true): string;

"""Text contrast passes WCAG 2.x AA on every page, measured in the browser (issue 7).

A small function evaluated in the page (``CONTRAST_JS``) looks at every visible piece of text and
computes the contrast ratio of the colour it is painted in against the colour behind it, with the
WCAG relative-luminance formula. Text needs 4.5:1, large text 3:1 (at least 24px, or at least
18.66px and bold). How it decides:

- What is text: every non-blank text node (measured with its parent's style), plus what form
  fields show: the chosen option of a ``<select>``, the label of an ``<input type=submit>``, the
  value of a text input, or its placeholder (painted in ``::placeholder``'s colour). Text drawn
  by ``::before``/``::after`` is not seen (the pages draw none). A text shadow earns no credit.
- Skipped as invisible: ``display: none``, ``visibility: hidden``, ``opacity: 0`` on the element
  or an ancestor (``checkVisibility``), text with no box, text off the page (the skip link parked
  at ``left: -999px``), and visually hidden text (an ancestor clipped to a box of 1px or less, as
  ``.visually-hidden`` does). ``aria-hidden`` does *not* skip anything: a suit symbol hidden from
  screen readers is still read by the eye, so it is measured.
- Skipped as colour pictures: text made only of emoji-presentation characters (🃏, 🔒, 👥),
  whose glyphs are drawn in the font's own colours, not the CSS colour. Suit symbols (♠♥♦♣) and
  ◎ are text glyphs and are measured.
- Skipped as inactive: disabled controls (``:disabled`` and ``aria-disabled="true"``), which WCAG
  1.4.3 exempts, except cards: the page marks the viewer's cards ``aria-disabled`` whenever they
  cannot be played, but they are the hand the viewer must read, so cards are always measured.
- When a modal ``<dialog>`` is open, only its contents are measured: the page behind is inert
  under the backdrop. A modal's background stands on the ``::backdrop`` over white.
- The background: the text's colour is composited over its element's background, and that over
  each ancestor's, up to the root over a white canvas. Semi-transparent colours composite with
  the usual "over" operator; ``opacity`` and ``filter`` (brightness, saturate, grayscale,
  contrast, invert, opacity) act on the element's whole group, text included, as the browser
  paints them, so a dimmed card is measured dimmed (``mix-blend-mode`` and ``backdrop-filter``
  are not modelled; the pages use neither). Ancestors stand for what is behind: an element
  painted over a sibling or poking out of its parent's box is measured against its ancestors,
  which holds for the texts on these pages (what is positioned carries its own opaque
  background, like the lead tag and the call badge, or lies on the felt it belongs to).
- Gradients are measured conservatively: every colour stop of every gradient layer is a possible
  background (over the element's background colour, which also counts when a stop is
  translucent or the gradient is sized), and the text must pass against the worst of them (and
  of every combination, when several ancestors have gradients). A background that is an image
  (``url()``), text clipped to its background, another filter, or a colour this function cannot
  read is reported as unmeasurable, and that fails the test too: nobody can say it passes.

Pages, at 1280px with reduced motion (so nothing is caught mid-transition): the lobby for a
visitor and for a guest with an open table listed, the waiting room, the create-table form, the
ladder, friends, the help index and two rules pages, the sign-up form and, signed up, the wallet
and the profile; then each game's table while playing (Japanese Joker and Japanese Whist with two
guests, classic Joker with four), in the normal and the four-colour card modes: the trump choice
(or the bids), cards led and followed (with the dimmed cards the viewer may not play), the
dialogs (leave, last trick, scores, the score sheet, the end-of-deal summary, the result), and a
dropped connection (the page that says "reconnecting…" and the other seat's, showing the player
away). Every failure is listed with where it is, the text, the two colours, the ratio and the
ratio it needs. The first test checks the function itself on colours worked out by hand.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from .people import DESKTOP, Person
from .test_table_page import move, seated, sync_all

pytestmark = pytest.mark.e2e
with_the_site = pytest.mark.django_db(transaction=True)  # the server's database, as in the others

CONTRAST_JS = r"""
async () => {
  await document.fonts.ready;
  const settle = Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
  await Promise.race([settle, new Promise((done) => setTimeout(done, 1500))]);

  const WHITE = [1, 1, 1, 1];
  const out = { checked: 0, cards: 0, worst: null, failures: [], unknown: [] };
  const skipped = { disabled: 0, pictures: 0 };
  out.skipped = skipped;

  // --- colours: [r, g, b, a] in 0..1, straight (not premultiplied) ---
  function parse(text) {
    if (text === "transparent") return [0, 0, 0, 0];
    const n = "([\\d.]+)";
    const alpha = `(?:\\s*[,/]\\s*${n}(%?))?`;
    const rgb = new RegExp(`^rgba?\\(\\s*${n}[,\\s]+${n}[,\\s]+${n}${alpha}\\s*\\)$`);
    let m = text.match(rgb);
    if (m) {
      const a = m[4] === undefined ? 1 : m[5] ? Number(m[4]) / 100 : Number(m[4]);
      return [Number(m[1]) / 255, Number(m[2]) / 255, Number(m[3]) / 255, a];
    }
    m = text.match(/^color\(srgb\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)(?:\s*\/\s*([\d.]+))?\s*\)$/);
    if (m) return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
    return null;
  }
  const pm = (c) => [c[0] * c[3], c[1] * c[3], c[2] * c[3], c[3]];
  const unpm = (c) => (c[3] ? [c[0] / c[3], c[1] / c[3], c[2] / c[3], c[3]] : [0, 0, 0, 0]);
  const over = (top, below) => top.map((v, i) => v + below[i] * (1 - top[3])); // premultiplied
  const clamp = (v) => Math.min(1, Math.max(0, v));
  const byte = (v) => Math.round(clamp(v) * 255).toString(16).padStart(2, "0");
  const hex = (c) => "#" + c.slice(0, 3).map(byte).join("");
  function luminance(c) {
    const lin = (v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  }
  function ratio(a, b) {
    const [x, y] = [luminance(a), luminance(b)];
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  }

  // --- filters, on a premultiplied colour ---
  function parseFilter(text) {
    if (!text || text === "none") return { steps: [] };
    const steps = [];
    for (const [, name, arg] of text.matchAll(/([a-z-]+)\(([^)]*)\)/g)) {
      const amount = arg.trim().endsWith("%") ? parseFloat(arg) / 100 : parseFloat(arg);
      if (["brightness", "saturate", "grayscale", "contrast", "invert", "opacity"].includes(name)) {
        steps.push([name, Number.isNaN(amount) ? 1 : amount]);
      } else if (name !== "drop-shadow") {
        return { steps, unknown: `filter ${text}` };
      }
    }
    return { steps };
  }
  function applyFilter(colour, steps) {
    if (!steps.length) return colour;
    let [r, g, b, a] = unpm(colour);
    for (const [name, s] of steps) {
      if (name === "brightness") [r, g, b] = [r * s, g * s, b * s];
      else if (name === "contrast") [r, g, b] = [r, g, b].map((v) => (v - 0.5) * s + 0.5);
      else if (name === "invert") [r, g, b] = [r, g, b].map((v) => v * (1 - s) + (1 - v) * s);
      else if (name === "opacity") a *= s;
      else {
        const t = name === "grayscale" ? 1 - Math.min(1, s) : s; // grayscale(g) = saturate(1-g)
        [r, g, b] = [
          (0.213 + 0.787 * t) * r + (0.715 - 0.715 * t) * g + (0.072 - 0.072 * t) * b,
          (0.213 - 0.213 * t) * r + (0.715 + 0.285 * t) * g + (0.072 - 0.072 * t) * b,
          (0.213 - 0.213 * t) * r + (0.715 - 0.715 * t) * g + (0.072 + 0.928 * t) * b,
        ];
      }
      [r, g, b] = [r, g, b].map(clamp);
    }
    return pm([r, g, b, a]);
  }

  // --- one element's paint: its possible backgrounds, opacity and filter ---
  const paints = new Map();
  function paintOf(elem) {
    if (paints.has(elem)) return paints.get(elem);
    const cs = getComputedStyle(elem);
    const paint = { opacity: Number(cs.opacity), unknown: null };
    const base = parse(cs.backgroundColor);
    const filter = parseFilter(cs.filter);
    paint.filter = filter.steps;
    if (filter.unknown) paint.unknown = filter.unknown;
    if (!base) {
      paint.unknown = `background-color ${cs.backgroundColor}`;
      paint.cands = [[0, 0, 0, 0]];
    } else {
      paint.cands = [pm(base)];
    }
    const image = cs.backgroundImage;
    if (cs.backgroundClip === "text") paint.unknown = "background-clip: text";
    if (base && image && image !== "none") {
      if (/url\(|image-set|cross-fade|element\(|paint\(/.test(image)) {
        paint.unknown = `background-image ${image.slice(0, 80)}`;
      } else {
        const stops = (image.match(/rgba?\([^)]*\)|color\([^)]*\)|transparent/g) || []).map(parse);
        if (!stops.length || stops.some((s) => !s)) {
          paint.unknown = `background-image ${image.slice(0, 80)}`;
        } else {
          const sized = cs.backgroundSize.split(",").some((s) => !/^auto( auto)?$/.test(s.trim()));
          const translucent = stops.some((s) => s[3] < 1);
          const cands = stops.map((s) => over(pm(s), pm(base)));
          if (sized || translucent) cands.push(pm(base));
          paint.cands = cands;
        }
      }
    }
    paints.set(elem, paint);
    return paint;
  }

  // --- which text counts ---
  const modal = document.querySelector(":modal");
  function hiddenByClip(elem) {
    for (let node = elem; node && node !== document.documentElement; node = node.parentElement) {
      const cs = getComputedStyle(node);
      const clips =
        cs.overflow !== "visible" || cs.clip !== "auto" || cs.clipPath !== "none";
      if (clips) {
        const box = node.getBoundingClientRect();
        if (box.width <= 1 || box.height <= 1) return true;
      }
    }
    return false;
  }
  function visibleBox(rects) {
    const sx = window.scrollX, sy = window.scrollY;
    return [...rects].some(
      (r) => r.width > 0 && r.height > 0 && r.right + sx > 0 && r.bottom + sy > 0,
    );
  }
  function path(elem) {
    const parts = [];
    for (let node = elem; node && parts.length < 5; node = node.parentElement) {
      let part = node.localName;
      if (node.id) part += `#${node.id}`;
      const classes = [...node.classList].filter((c) => c.length < 30).slice(0, 3);
      if (classes.length) part += "." + classes.join(".");
      parts.unshift(part);
      if (node.id || node === modal) break;
    }
    return parts.join(" > ");
  }
  const PICTURE = /^[\p{Emoji_Presentation}\p{Emoji_Modifier}\u200d\ufe0f\s]+$/u;

  function measure(elem, text, colourText) {
    if (modal && !modal.contains(elem)) return;
    if (!elem.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return;
    if (hiddenByClip(elem)) return;
    if (PICTURE.test(text)) {
      skipped.pictures += 1;
      return;
    }
    const inactive = elem.closest(":disabled, [aria-disabled='true']");
    const card = elem.closest(".card");
    if (inactive && !(card && inactive.contains(card))) {
      skipped.disabled += 1;
      return;
    }
    const cs = getComputedStyle(elem);
    const size = parseFloat(cs.fontSize);
    const bold = Number(cs.fontWeight) >= 700;
    const large = size >= 24 || (size >= 18.66 && bold);
    const needed = large ? 3 : 4.5;
    const fill = parse(colourText || cs.webkitTextFillColor || cs.color);
    const snippet = text.replace(/\s+/g, " ").trim().slice(0, 40);
    const where = path(elem);
    // Root first: the modal (its own layer) or <html>.
    const chain = [];
    let node = elem;
    for (; node; node = node.parentElement) {
      chain.unshift(node);
      if (node === modal) break;
    }
    let canvas = WHITE;
    if (modal && chain[0] === modal) {
      const backdrop = parse(getComputedStyle(modal, "::backdrop").backgroundColor);
      if (backdrop) canvas = over(pm(backdrop), WHITE);
    }
    const layers = chain.map(paintOf);
    const unknown =
      layers.map((l) => l.unknown).find(Boolean) || (fill ? null : `color ${cs.color}`);
    if (unknown) {
      out.unknown.push({ where, text: snippet, why: unknown });
      return;
    }
    // Every combination of the gradient stops along the chain; the worst one counts.
    let combos = [[]];
    for (const layer of layers) {
      combos = combos.flatMap((c) => layer.cands.map((_, i) => [...c, i]));
      if (combos.length > 256) {
        out.unknown.push({ where, text: snippet, why: "too many gradient combinations" });
        return;
      }
    }
    let worst = null;
    for (const combo of combos) {
      const paint = (withText) => {
        let group = null;
        for (let i = layers.length - 1; i >= 0; i -= 1) {
          let buffer = layers[i].cands[combo[i]];
          if (group) buffer = over(group, buffer);
          else if (withText) buffer = over(pm(fill), buffer);
          buffer = applyFilter(buffer, layers[i].filter).map((v) => v * layers[i].opacity);
          group = buffer;
        }
        return over(group, canvas);
      };
      const [fg, bg] = [paint(true), paint(false)];
      const r = ratio(fg, bg);
      if (!worst || r < worst.ratio) worst = { ratio: r, fg: hex(fg), bg: hex(bg) };
    }
    out.checked += 1;
    if (card) out.cards += 1;
    const margin = worst.ratio / needed;
    if (!out.worst || margin < out.worst.margin) {
      out.worst = { margin, ratio: Math.floor(worst.ratio * 100) / 100, text: snippet };
    }
    if (worst.ratio < needed) {
      out.failures.push({
        where,
        text: snippet,
        fg: worst.fg,
        bg: worst.bg,
        ratio: Math.floor(worst.ratio * 100) / 100,
        needed,
        size: `${size}px${bold ? " bold" : ""}`,
      });
    }
  }

  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.data;
    if (!text.trim()) continue;
    const elem = node.parentElement;
    if (!elem || elem.closest("script, style, noscript, template, select, textarea, svg")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    if (!visibleBox(range.getClientRects())) continue;
    if (seen.has(elem)) continue; // one measure per element: its text nodes share a style
    seen.add(elem);
    measure(elem, text);
  }
  for (const field of document.querySelectorAll("select, input, textarea")) {
    if (!visibleBox(field.getClientRects())) continue;
    if (field.localName === "select") {
      const option = field.selectedOptions[0];
      if (option && option.text.trim()) measure(field, option.text);
    } else if (/^(submit|button|reset)$/.test(field.type)) {
      if (field.value.trim()) measure(field, field.value);
    } else if (/^(text|email|password|search|number|tel|url|textarea)$/.test(field.type)) {
      if (field.value) measure(field, field.type === "password" ? "•••" : field.value);
      else if (field.placeholder) {
        measure(field, field.placeholder, getComputedStyle(field, "::placeholder").color);
      }
    }
  }
  return out;
}
"""


class Contrast:
    """Measures pages and keeps every failure, so one run lists all of them."""

    def __init__(self) -> None:
        self.failures: list[str] = []
        self.unknown: list[str] = []
        self.pages: list[str] = []

    def measure(self, person: Person, label: str) -> dict[str, Any]:
        person.page.wait_for_load_state()
        result = person.page.evaluate(CONTRAST_JS)
        assert result["checked"] > 0, f"{label}: no text measured"
        worst = result["worst"]
        skipped = ", ".join(f"{n} {why}" for why, n in result["skipped"].items() if n)
        self.pages.append(
            f"{label}: {result['checked']} texts, lowest {worst['ratio']:.2f}:1 {worst['text']!r}"
            + (f" (skipped {skipped})" if skipped else "")
        )
        for f in result["failures"]:
            self.failures.append(
                f"{label}: {f['where']} {f['text']!r} ({f['size']}) {f['fg']} on {f['bg']}"
                f" = {f['ratio']:.2f}:1, needs {f['needed']}:1"
            )
        for u in result["unknown"]:
            self.unknown.append(f"{label}: {u['where']} {u['text']!r}: {u['why']}")
        return result

    def page(self, person: Person, url: str, label: str | None = None) -> dict[str, Any]:
        person.page.goto(url)
        return self.measure(person, label or url)

    def both_colour_modes(self, person: Person, label: str) -> None:
        """The table as it is, then in four colours (the toolbar button), then back."""
        for four in (False, True):
            set_four_colours(person, four)
            result = self.measure(person, f"{label} ({'four' if four else 'two'} colours)")
            assert result["cards"] > 0, f"{label}: no card text measured"
        set_four_colours(person, False)

    def check(self) -> None:
        problems = []
        if self.failures:
            problems.append(
                f"{len(self.failures)} texts below WCAG AA contrast:\n  "
                + "\n  ".join(self.failures)
            )
        if self.unknown:
            problems.append(
                f"{len(self.unknown)} texts whose background cannot be measured:\n  "
                + "\n  ".join(self.unknown)
            )
        measured = "\n  ".join(self.pages)
        assert not problems, "\n".join(problems) + f"\nmeasured:\n  {measured}"


def set_four_colours(person: Person, on: bool) -> None:
    tool = person.page.locator("#tool-colours")
    if tool.get_attribute("aria-pressed") != str(on).lower():
        tool.click()
    assert ("four-colour" in (person.page.locator("html").get_attribute("class") or "")) == on


def quiet(person: Person) -> Person:
    """No motion: nothing is measured halfway through a transition."""
    person.page.emulate_media(reduced_motion="reduce")
    return person


def open_dialog(person: Person, tool: str, dialog: str) -> None:
    person.page.locator(f"#tool-{tool}").click()
    person.page.locator(f"#dialog-{dialog}").wait_for()


def close_dialog(person: Person, dialog: str) -> None:
    person.page.keyboard.press("Escape")
    person.page.locator(f"#dialog-{dialog}").wait_for(state="detached")


CALIBRATION = """<!DOCTYPE html><html><head><style>
  body { margin: 0; background: #fff; color: #000; font: 16px/1.2 sans-serif; }
  .felt { background: #0f5132; color: #fff; padding: 4px; }
  .veil { background: rgba(0, 0, 0, .5); }
  .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .grad { background: linear-gradient(#0f5132, #949494); }
</style></head><body>
  <p id="pure-red" style="color: #ff0000">pure red on white</p>
  <p id="deep-red" style="color: #cc0000">deep red on white</p>
  <p id="grey-large" style="color: #949494; font-size: 24px">large grey</p>
  <p id="grey-bold" style="color: #949494; font-size: 18.7px; font-weight: 700">bold grey</p>
  <p id="grey-normal" style="color: #949494; font-size: 18.7px">normal grey</p>
  <div class="felt"><div class="veil"><span id="veiled" style="color: rgba(255, 255, 255, .3)">
    faint white on a veiled felt</span></div></div>
  <div style="opacity: .5"><span id="faded">black at half opacity</span></div>
  <div style="filter: brightness(.5); background: #fff">
    <span id="dimmed" style="color: #595959">grey dimmed</span></div>
  <div class="grad"><span id="gradient" style="color: #fff">white on green to grey</span></div>
  <div style="background: url(data:image/gif;base64,R0lGODlhAQABAAAAACw=)">
    <span id="image">text on an image</span></div>
  <span class="sr" style="color: #fff">invisible: visually hidden</span>
  <span style="visibility: hidden; color: #fff">invisible: visibility hidden</span>
  <span style="opacity: 0; color: #fff">invisible: opacity 0</span>
  <button disabled style="color: #ddd">inactive: disabled</button>
  <span aria-hidden="true" id="glyph" style="color: #ddd">♥</span>
  <span style="color: #fff">🃏</span>
</body></html>"""


def test_the_measure_itself_on_known_colours(browser):
    """The function agrees with hand-computed WCAG ratios, and skips and refuses what it says."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content(CALIBRATION)
        result = page.evaluate(CONTRAST_JS)
    finally:
        context.close()
    failures = {f["where"].rsplit("#", 1)[-1]: f for f in result["failures"]}
    failing = ["pure-red", "grey-normal", "veiled", "faded", "dimmed", "gradient", "glyph"]
    assert sorted(failures) == sorted(failing), failures  # the aria-hidden ♥ counts
    assert failures["pure-red"]["ratio"] == 3.99  # #ff0000 on white: 3.998:1
    assert (failures["pure-red"]["fg"], failures["pure-red"]["bg"]) == ("#ff0000", "#ffffff")
    assert failures["grey-normal"]["needed"] == 4.5  # 18.7px and not bold is normal text
    assert failures["veiled"]["bg"] == "#082919"  # the felt under a half-black veil
    assert failures["faded"]["fg"] == "#808080"  # half-opaque black over white
    assert failures["dimmed"]["bg"] == "#808080"  # 7:1 grey on white, both at half brightness
    assert failures["gradient"]["bg"] == "#949494"  # passes on the green stop, not on the grey
    assert [u["why"][:20] for u in result["unknown"]] == ["background-image url"]
    assert result["skipped"] == {"disabled": 1, "pictures": 1}
    # Measured and passing: deep red 5.89:1, and #949494 (3.0:1) as large or bold text.
    assert result["checked"] == 10, result


@with_the_site
def test_site_pages_pass_wcag_aa_contrast(people, browser, e2e_server):
    contrast = Contrast()
    host, guest = (quiet(p) for p in people(2))
    url = host.open_table("japanese_joker")
    contrast.measure(host, "the waiting room")
    table_path = re.sub(r"^https?://[^/]+", "", url)

    guest.page.goto("/")
    guest.page.wait_for_selector(f'#tables [data-table-id] a[href="{table_path}"]')
    guest.page.locator('#tables[data-live="yes"]').wait_for(state="attached")  # the snapshot
    contrast.measure(guest, "the lobby (a guest, one open table)")
    contrast.page(guest, "/tables/new/classic_joker/", "the create-table form")
    contrast.page(guest, "/ladder/")
    contrast.page(guest, "/friends/")
    contrast.page(guest, "/help/")
    contrast.page(guest, "/help/japanese_joker/")
    contrast.page(guest, "/help/classic_joker/")

    visitor = quiet(Person(browser, e2e_server, "visitor"))
    try:
        contrast.page(visitor, "/", "the lobby (a visitor)")
        contrast.page(visitor, "/accounts/signup/", "the sign-up form")
        page = visitor.page
        page.fill("#id_username", "contrast")
        page.fill("#id_email", "contrast@example.com")
        page.fill("#id_password1", "correct-horse-9")
        page.fill("#id_password2", "correct-horse-9")
        contrast.measure(visitor, "the sign-up form, filled in")
        page.locator("main").get_by_role("button", name="Sign up").click()
        page.wait_for_url(lambda u: "/signup/" not in u)
        result = contrast.page(visitor, "/wallet/", "the wallet (signed up)")
        assert page.locator(".ledger .plus").count() == 1  # the sign-up grant
        assert result["checked"] > 10
        contrast.page(visitor, "/players/contrast/", "the profile (signed up)")
        assert not visitor.errors
    finally:
        visitor.context.close()
    contrast.check()


@with_the_site
def test_japanese_joker_table_passes_wcag_aa_contrast(people, artifacts):
    contrast = Contrast()
    rng = random.Random(7)
    alice, bob = (quiet(p) for p in people(2))
    url = alice.open_table("japanese_joker")
    by_seat = seated([alice, bob], url)
    view = alice.state["view"]
    assert view["phase"] == "trump"

    # The declarer's trump choice, the first decision of a hand, and the other seat waiting.
    declarer = by_seat[view["to_act"]]
    other = by_seat[1 - view["to_act"]]
    declarer.page.locator("#action-panel").get_by_role("button", name="Hearts").wait_for()
    contrast.both_colour_modes(declarer, "JJ trump choice")
    contrast.both_colour_modes(other, "JJ waiting for the trump")
    open_dialog(declarer, "leave", "leave")
    contrast.measure(declarer, "JJ leave dialog")
    close_dialog(declarer, "leave")
    declarer.page.locator("#action-panel").get_by_role("button", name="Hearts").click()

    # A card led: the follower sees it, and their cards split into playable and dimmed ones.
    state = sync_all(by_seat, 1)
    move(by_seat[state["view"]["to_act"]], rng)
    state = sync_all(by_seat, 2)
    follower = by_seat[state["view"]["to_act"]]
    follower.page.locator("#match-area .mine button.card.legal").first.wait_for()
    contrast.both_colour_modes(follower, "JJ following a lead")
    move(follower, rng)
    state = sync_all(by_seat, 3)

    # Trick 1 is over: the last-trick and score dialogs.
    person = by_seat[state["view"]["to_act"]]
    contrast.both_colour_modes(person, "JJ leading trick 2")
    set_four_colours(person, True)
    open_dialog(person, "last-trick", "last-trick")
    contrast.measure(person, "JJ last-trick dialog (four colours)")
    close_dialog(person, "last-trick")
    set_four_colours(person, False)
    open_dialog(person, "last-trick", "last-trick")
    contrast.measure(person, "JJ last-trick dialog (two colours)")
    close_dialog(person, "last-trick")
    open_dialog(person, "scores", "scores")
    contrast.measure(person, "JJ scores dialog")
    close_dialog(person, "scores")

    # The connection drops on the player to act: their page says "reconnecting…" over a dimmed
    # table, and the other page shows them absent with the forfeit countdown.
    watcher = by_seat[1 - state["view"]["to_act"]]
    person.context.set_offline(True)
    person.page.evaluate("window.jokerTable.client.socket.reconnect()")
    person.page.locator("#conn-status").wait_for()
    watcher.page.locator(".seat-absence:not(:empty)").wait_for()
    contrast.both_colour_modes(person, "JJ reconnecting")
    contrast.both_colour_modes(watcher, "JJ the opponent away")
    person.snap(artifacts, "japanese_joker-reconnecting", DESKTOP)
    person.context.set_offline(False)
    person.page.locator("#conn-status").wait_for(state="hidden", timeout=30_000)

    # Leaving forfeits: the result on both pages.
    person.page.locator("#tool-leave").click()
    person.page.locator("#dialog-leave").get_by_role("button", name="Leave and forfeit").click()
    for someone in (person, watcher):
        someone.page.locator("#dialog-result").wait_for()
        contrast.measure(someone, "JJ result dialog")
    contrast.check()


@with_the_site
def test_japanese_whist_table_passes_wcag_aa_contrast(people):
    contrast = Contrast()
    rng = random.Random(5)
    alice, bob = (quiet(p) for p in people(2))
    url = alice.open_table("japanese_whist")
    by_seat = seated([alice, bob], url)
    view = alice.state["view"]
    assert view["phase"] == "trump"

    # The forehand names the trump over the layouts; the hands are locked (backs and a note).
    forehand = by_seat[view["forehand"]]
    other = by_seat[1 - view["forehand"]]
    forehand.page.locator("#action-panel").get_by_role("button", name="Spades").wait_for()
    contrast.both_colour_modes(forehand, "JW trump choice")
    contrast.both_colour_modes(other, "JW waiting for the trump")
    forehand.page.locator("#action-panel").get_by_role("button", name="Spades").click()

    # Trick 1 comes from the layouts: led, then followed.
    state = sync_all(by_seat, 1)
    move(by_seat[state["view"]["to_act"]], rng)
    state = sync_all(by_seat, 2)
    follower = by_seat[state["view"]["to_act"]]
    follower.page.locator("#match-area .mine button.card.legal").first.wait_for()
    contrast.both_colour_modes(follower, "JW following from the layout")
    move(follower, rng)
    state = sync_all(by_seat, 3)
    person = by_seat[state["view"]["to_act"]]
    person.page.locator("#my-hand [data-card]").nth(5).wait_for()
    contrast.both_colour_modes(person, "JW hands unlocked")
    open_dialog(person, "scores", "scores")
    contrast.measure(person, "JW scores dialog")
    close_dialog(person, "scores")
    contrast.check()


@with_the_site
def test_classic_joker_table_passes_wcag_aa_contrast(people):
    contrast = Contrast()
    rng = random.Random(11)
    group = [quiet(p) for p in people(4)]
    url = group[0].open_table("classic_joker")
    by_seat = seated(group, url)
    view = group[0].state["view"]
    assert view["phase"] == "bid"
    dealer = view["dealer"]

    # Deal 1: everybody bids 0; the dealer's forbidden bid is a disabled button (exempt).
    version = 0
    for _ in range(4):
        state = sync_all(by_seat, version)
        seat = state["view"]["to_act"]
        page = by_seat[seat].page
        page.locator("#action-panel .choices button").first.wait_for()
        if version == 0:
            contrast.both_colour_modes(by_seat[seat], "CJ the first bid")
        if seat == dealer:
            contrast.both_colour_modes(by_seat[seat], "CJ the dealer's bid")
        page.locator('#action-panel button[data-bid="0"]').click()
        version += 1

    # The one trick of deal 1: two cards in, then the deal's summary with its score sheet.
    for _ in range(2):
        state = sync_all(by_seat, version)
        move(by_seat[state["view"]["to_act"]], rng)
        version += 1
    state = sync_all(by_seat, version)
    contrast.both_colour_modes(by_seat[state["view"]["to_act"]], "CJ a trick half played")
    for _ in range(2):
        state = sync_all(by_seat, version)
        move(by_seat[state["view"]["to_act"]], rng)
        version += 1
    sync_all(by_seat, version)
    person = by_seat[0]
    person.page.locator("#dialog-summary").wait_for()
    contrast.measure(person, "CJ deal summary dialog")
    for p in by_seat.values():
        p.page.locator("#dialog-summary").get_by_role("button", name="Continue").click()
    open_dialog(person, "scores", "sheet")
    contrast.measure(person, "CJ score sheet dialog")
    close_dialog(person, "sheet")
    contrast.both_colour_modes(person, "CJ deal 2 bidding")
    contrast.check()

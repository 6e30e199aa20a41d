"""Model instances from the rows of a hand-written statement, as the ORM itself would make them.

For the one read on the hottest path (a move reads its match, table and seats under the match's
lock): the ORM compiles a query with ``select_related`` anew on every call, and that compiling
was the largest single cost of a move in the web process (``make bench``, py-spy). A statement
written once from the models' metadata skips it; the rows still pass through each field's own
converters (JSON, and on SQLite dates and booleans), so the instances are the ORM's.

On PostgreSQL these statements also run prepared (``prepared_cursor``): parsed and planned once
per connection instead of on every move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from django.db.models.signals import post_save, pre_save

M = TypeVar("M", bound=models.Model)

Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]


class Columns(Generic[M]):
    """A model's concrete columns under a table alias: their SQL, and the instance a row's
    slice of them makes."""

    def __init__(self, model: type[M], alias: str, connection: BaseDatabaseWrapper) -> None:
        self.model = model
        self.connection = connection
        self.fields = list(model._meta.concrete_fields)
        self.names = [field.attname for field in self.fields]
        quote = connection.ops.quote_name
        self.sql = ", ".join(f"{alias}.{quote(field.column)}" for field in self.fields)
        self.converters: list[tuple[int, Any, list[Converter]]] = []
        for index, field in enumerate(self.fields):
            column = field.get_col(alias)
            found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            if found:
                self.converters.append((index, column, found))

    def __len__(self) -> int:
        return len(self.fields)

    def build(self, values: Sequence[Any]) -> M:
        row = list(values)
        for index, column, converters in self.converters:
            for convert in converters:
                row[index] = convert(row[index], column, self.connection)
        return self.model.from_db(self.connection.alias, self.names, row)


def split(row: Sequence[Any], parts: Sequence[Columns[Any]]) -> list[Any]:
    """Each part's instance from its slice of the row (in the statement's column order), then
    whatever columns follow them."""
    built: list[Any] = []
    start = 0
    for part in parts:
        built.append(part.build(row[start : start + len(part)]))
        start += len(part)
    return [*built, *row[start:]]


def prepared_cursor(connection: BaseDatabaseWrapper) -> CursorWrapper:
    """A cursor whose statements PostgreSQL keeps prepared on the connection; elsewhere the
    usual cursor.

    Django's cursors bind parameters in the client and never prepare, so PostgreSQL parsed and
    planned a move's three statements on every move. This cursor binds on the server, and the
    connection prepares from the first use (``prepare_threshold`` 0, config/settings/base.py;
    only these cursors bind on the server, so nothing else is prepared). It is Django's wrapper
    around it all the same: errors are Django's.

    While queries are logged (DEBUG, or a test counting them) it is the usual cursor: psycopg
    keeps no text of a prepared execution for the log to show."""
    if connection.vendor != "postgresql" or connection.queries_logged:
        return connection.cursor()
    import psycopg  # the PostgreSQL backend's driver: there only

    connection.ensure_connection()
    connection.validate_thread_sharing()
    with connection.wrap_database_errors:
        return CursorWrapper(psycopg.Cursor(connection.connection), connection)


Fields = list["models.Field[Any, Any]"]
Statement = tuple[str, Fields]
_inserts: dict[tuple[str, type[models.Model]], Statement] = {}
_updates: dict[tuple[str, type[models.Model], tuple[str, ...]], Statement] = {}
_pairs: dict[tuple[str, type[models.Model], type[models.Model], tuple[str, ...]], str] = {}
_families: dict[tuple[str, type[models.Model], type[models.Model], int], str] = {}


def _plain(model: type[models.Model]) -> None:
    """These statements save as ``Model.save`` would but send no signal and call no ``save``
    of the model's own: refuse a model that has either, rather than skip them in silence."""
    if model.save is not models.Model.save:
        raise TypeError(f"{model.__name__} has its own save(); core.rows would skip it.")
    if pre_save.has_listeners(model) or post_save.has_listeners(model):
        raise TypeError(f"{model.__name__} has save signal receivers; core.rows sends none.")


def _insert_statement(model: type[models.Model], connection: BaseDatabaseWrapper) -> Statement:
    """The insert, returning the new row's key."""
    key = (connection.alias, model)
    if key not in _inserts:
        meta = model._meta
        fields: Fields = [
            field
            for field in meta.concrete_fields
            if isinstance(field, models.Field) and not field.primary_key
        ]
        quote = connection.ops.quote_name
        sql = (
            f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
            f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(meta.pk.column)}"
        )
        _inserts[key] = (sql, fields)
    return _inserts[key]


def _update_statement(
    model: type[models.Model], names: Sequence[str], connection: BaseDatabaseWrapper
) -> Statement:
    key = (connection.alias, model, tuple(names))
    if key not in _updates:
        meta = model._meta
        found = [meta.get_field(name) for name in names]
        concrete: Fields = [field for field in found if isinstance(field, models.Field)]
        assert len(concrete) == len(found), names
        quote = connection.ops.quote_name
        assignments = ", ".join(f"{quote(field.column)} = %s" for field in concrete)
        sql = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"
        _updates[key] = (sql, concrete)
    return _updates[key]


def _values(
    instance: models.Model, fields: Fields, connection: BaseDatabaseWrapper, *, adding: bool
) -> list[Any]:
    return [
        field.get_db_prep_save(field.pre_save(instance, adding), connection) for field in fields
    ]


def insert(instance: models.Model, connection: BaseDatabaseWrapper) -> None:
    """``instance.save()`` of a new row, with a statement written once per model; the instance
    gets its new key. Refused for a model with save signals or a ``save`` of its own."""
    _plain(type(instance))
    sql, fields = _insert_statement(type(instance), connection)
    with prepared_cursor(connection) as cursor:
        cursor.execute(sql, _values(instance, fields, connection, adding=True))
        instance.pk = cursor.fetchone()[0]
    instance._state.adding = False


def update(instance: models.Model, names: Sequence[str], connection: BaseDatabaseWrapper) -> None:
    """``instance.save(update_fields=names)``, with a statement written once per model and
    field list. Refused for a model with save signals or a ``save`` of its own."""
    _plain(type(instance))
    sql, fields = _update_statement(type(instance), names, connection)
    with prepared_cursor(connection) as cursor:
        cursor.execute(sql, [*_values(instance, fields, connection, adding=False), instance.pk])


def insert_and_update(
    new: models.Model,
    changed: models.Model,
    names: Sequence[str],
    connection: BaseDatabaseWrapper,
) -> None:
    """:func:`insert` of ``new`` and :func:`update` of ``changed``: on PostgreSQL one statement
    (the insert as a data-modifying ``WITH``), so one round trip instead of two; elsewhere the
    two statements. The rows are unrelated within the statement (neither reads the other); the
    update returns the inserted row's key, which ``new`` gets."""
    if connection.vendor != "postgresql":
        insert(new, connection)
        update(changed, names, connection)
        return
    _plain(type(new))
    _plain(type(changed))
    insert_sql, insert_fields = _insert_statement(type(new), connection)
    update_sql, update_fields = _update_statement(type(changed), names, connection)
    key = (connection.alias, type(new), type(changed), tuple(names))
    if key not in _pairs:
        new_key = connection.ops.quote_name(type(new)._meta.pk.column)
        _pairs[key] = (
            f"WITH inserted AS ({insert_sql}) {update_sql}"
            f" RETURNING (SELECT {new_key} FROM inserted)"
        )
    values = [
        *_values(new, insert_fields, connection, adding=True),
        *_values(changed, update_fields, connection, adding=False),
        changed.pk,
    ]
    with prepared_cursor(connection) as cursor:
        cursor.execute(_pairs[key], values)
        new.pk = cursor.fetchone()[0]
    new._state.adding = False


def insert_with_children(
    parent: models.Model, children: Sequence[models.Model], connection: BaseDatabaseWrapper
) -> None:
    """:func:`insert` of ``parent`` and of the new rows that point to it (their one foreign key
    to its model, set here): on PostgreSQL one statement, the parent's insert a data-modifying
    ``WITH`` that the children's rows read their key from; elsewhere the parent's insert and
    one ``bulk_create``. Every instance gets its key."""
    child_model = type(children[0])
    (link,) = [
        field
        for field in child_model._meta.concrete_fields
        if field.is_relation and field.related_model is type(parent)
    ]
    if connection.vendor != "postgresql":
        insert(parent, connection)
        for child in children:
            setattr(child, link.name, parent)
        child_model._default_manager.bulk_create(children)
        return
    _plain(type(parent))
    _plain(child_model)
    parent_sql, parent_fields = _insert_statement(type(parent), connection)
    child_sql, child_fields = _insert_statement(child_model, connection)
    key = (connection.alias, type(parent), child_model, len(children))
    if key not in _families:
        quote = connection.ops.quote_name
        parent_key = quote(type(parent)._meta.pk.column)
        one_row = ", ".join(
            f"(SELECT {parent_key} FROM parent)" if field is link else "%s"
            for field in child_fields
        )
        insert_children = child_sql.split(" VALUES ")[0]
        _families[key] = (
            f"WITH parent AS ({parent_sql}) {insert_children} VALUES "
            + ", ".join(f"({one_row})" for _ in children)
            + f" RETURNING {quote(child_model._meta.pk.column)}, (SELECT {parent_key} FROM parent)"
        )
    values = _values(parent, parent_fields, connection, adding=True)
    other_fields = [field for field in child_fields if field is not link]
    for child in children:
        values += _values(child, other_fields, connection, adding=True)
    with prepared_cursor(connection) as cursor:
        cursor.execute(_families[key], values)
        keys = cursor.fetchall()
    parent.pk = keys[0][1]
    parent._state.adding = False
    for child, (child_key, _parent_key) in zip(children, keys, strict=True):
        setattr(child, link.name, parent)
        child.pk = child_key
        child._state.adding = False

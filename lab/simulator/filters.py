"""Data-source query filters and sorts: validated like Notion validates them, then applied.

A property is named by its name or its id, as Notion allows. Supported (the read side the
lessons need): checkbox ``equals``/``does_not_equal``; select ``equals``/``does_not_equal``; title
``contains``/``does_not_contain``/``equals``; timestamp filters on ``last_edited_time`` or
``created_time`` with ``equals``, ``before``, ``after``, ``on_or_before``, ``on_or_after``;
``and``/``or`` nested at most two levels. Anything else is a 400 ``validation_error`` that says
what was wrong.
"""

from __future__ import annotations

from datetime import date, datetime, timezone
from collections.abc import Iterable
from typing import Any, Callable

from lab.simulator.errors import validation_error
from lab.simulator.json_wire import shown
from lab.simulator.workspace import DataSource, Page

__all__ = ["compile_filter", "compile_sorts", "parse_instant"]

Predicate = Callable[[Page], bool]

_PROPERTY_OPS: dict[str, dict[str, type]] = {
    "checkbox": {"equals": bool, "does_not_equal": bool},
    "select": {"equals": str, "does_not_equal": str},
    "title": {"contains": str, "does_not_contain": str, "equals": str},
}
_TIMESTAMP_OPS = ("equals", "before", "after", "on_or_before", "on_or_after")
_TIMESTAMPS = ("last_edited_time", "created_time")


def parse_instant(value: object, where: str) -> datetime | date:
    """An ISO 8601 date or date-time from a filter, or a 400 naming the field."""
    if not isinstance(value, str):
        raise validation_error(f"body failed validation: {where} should be an ISO 8601 date string, "
                               f"instead was `{shown(value)}`.")
    text = value.replace("Z", "+00:00")
    try:
        if len(text) == 10:
            return date.fromisoformat(text)
        instant = datetime.fromisoformat(text)
    except ValueError:
        raise validation_error(f"body failed validation: {where} should be an ISO 8601 date string, "
                               f"instead was `{shown(value)}`.") from None
    return instant if instant.tzinfo else instant.replace(tzinfo=timezone.utc)


def _compare(op: str, actual: datetime, target: datetime | date) -> bool:
    if not isinstance(target, datetime):  # a bare date compares calendar days
        a: Any = actual.date()
    else:
        a = actual
    return {"equals": a == target, "before": a < target, "after": a > target,
            "on_or_before": a <= target, "on_or_after": a >= target}[op]


def _page_value(page: Page, prop_type: str) -> Any:
    return {"checkbox": page.publishable, "select": page.type, "title": page.title}[prop_type]


def _single_key(obj: dict[str, Any], allowed: tuple[str, ...] | dict[str, Any], where: str) -> str:
    keys = [k for k in obj if k in allowed]
    if len(keys) != 1:
        raise validation_error(f"body failed validation: {where} should define exactly one of "
                               f"{', '.join(f'`{k}`' for k in allowed)}.")
    return keys[0]


def _operator(condition: Any, operators: Iterable[str], where: str, kind: str) -> tuple[str, Any]:
    """The one ``(operator, value)`` pair of a condition object, or a 400 naming what is allowed."""
    if not isinstance(condition, dict) or len(condition) != 1:
        raise validation_error(f"body failed validation: {where} should have exactly one of "
                               f"{', '.join(f'`{k}`' for k in operators)}.")
    (op, value), = condition.items()
    if op not in operators:
        raise validation_error(f"body failed validation: {where}.{op[:40]} is not a {kind} condition; "
                               f"expected one of {', '.join(operators)}.")
    return op, value


def _property_name(ds: DataSource, name_or_id: object) -> str | None:
    """The schema name of the property a filter or sort names: Notion takes its name or its id (a
    name wins when one property's name is another's id); None when neither matches."""
    if not isinstance(name_or_id, str):
        return None
    if name_or_id in ds.properties:
        return name_or_id
    return next((name for name, prop in ds.properties.items() if prop.get("id") == name_or_id), None)


def _property_filter(spec: dict[str, Any], ds: DataSource, where: str) -> Predicate:
    name = _property_name(ds, spec["property"])
    if name is None:
        raise validation_error(f"Could not find property with name or id: {shown(spec['property'])}")
    prop_type = ds.properties[name]["type"]
    ops = _PROPERTY_OPS.get(prop_type)
    if ops is None:
        raise validation_error(f"Filtering on a {prop_type} property is not supported by this simulator.")
    extra = [k for k in spec if k not in ("property", prop_type)]
    if prop_type not in spec or extra:
        raise validation_error(f"body failed validation: {where} for property `{name}` of type {prop_type} "
                               f"should be {{\"property\": ..., \"{prop_type}\": {{...}}}}.")
    op, target = _operator(spec[prop_type], ops, f"{where}.{prop_type}", prop_type)
    if not isinstance(target, ops[op]):
        raise validation_error(f"body failed validation: {where}.{prop_type}.{op} should be a "
                               f"{ops[op].__name__}, instead was `{shown(target)}`.")

    def predicate(page: Page) -> bool:
        value = _page_value(page, prop_type)
        if op == "equals":
            return value == target
        if op == "does_not_equal":
            return value != target
        if op == "contains":
            return str(target).lower() in str(value).lower()
        return str(target).lower() not in str(value).lower()

    return predicate


def _timestamp_filter(spec: dict[str, Any], where: str) -> Predicate:
    field = spec["timestamp"]
    if field not in _TIMESTAMPS:
        raise validation_error(f"body failed validation: {where}.timestamp should be one of "
                               f"{', '.join(_TIMESTAMPS)}, instead was `{shown(field)}`.")
    if field not in spec or set(spec) - {"timestamp", field}:
        raise validation_error(f"body failed validation: {where} should be {{\"timestamp\": \"{field}\", "
                               f"\"{field}\": {{<one of {', '.join(_TIMESTAMP_OPS)}>: <date>}}}}.")
    op, raw = _operator(spec[field], _TIMESTAMP_OPS, f"{where}.{field}", "date")
    target = parse_instant(raw, f"{where}.{field}.{op}")

    def predicate(page: Page) -> bool:
        stamp = page.edited if field == "last_edited_time" else page.created
        actual = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
        return _compare(op, actual, target)

    return predicate


def compile_filter(spec: Any, ds: DataSource, where: str = "body.filter", level: int = 0) -> Predicate:
    """A predicate over pages for a Notion filter object, or a 400 that names the problem."""
    if not isinstance(spec, dict):
        raise validation_error(f"body failed validation: {where} should be an object, instead was `{shown(spec)}`.")
    if "and" in spec or "or" in spec:
        if level >= 2:
            raise validation_error(f"body failed validation: {where} nests compound filters deeper than "
                                   "two levels.")
        kind = _single_key(spec, ("and", "or"), where)
        if set(spec) != {kind} or not isinstance(spec[kind], list):
            raise validation_error(f"body failed validation: {where}.{kind} should be a list of filters.")
        parts = [compile_filter(s, ds, f"{where}.{kind}[{i}]", level + 1) for i, s in enumerate(spec[kind])]
        if kind == "and":
            return lambda page: all(p(page) for p in parts)
        return lambda page: any(p(page) for p in parts)
    if "property" in spec:
        return _property_filter(spec, ds, where)
    if "timestamp" in spec:
        return _timestamp_filter(spec, where)
    raise validation_error(f"body failed validation: {where} should be a property filter, a timestamp "
                           "filter, or an `and`/`or` compound filter.")


def compile_sorts(spec: Any, ds: DataSource) -> list[tuple[Callable[[Page], Any], bool]]:
    """Sort keys (key function, descending?) for a ``sorts`` list."""
    if not isinstance(spec, list):
        raise validation_error(f"body failed validation: body.sorts should be an array, instead was `{shown(spec)}`.")
    keys = []
    for i, item in enumerate(spec):
        where = f"body.sorts[{i}]"
        if not isinstance(item, dict):
            raise validation_error(f"body failed validation: {where} should be an object.")
        if "property" in item and "timestamp" in item:
            raise validation_error(f"body failed validation: {where} should have either `property` or `timestamp`, "
                                   "not both; sort by one, and add another item to `sorts` for the other.")
        unknown = sorted(set(item) - {"property", "timestamp", "direction"})
        if unknown:
            raise validation_error(f"body failed validation: {where} has unknown key(s) "
                                   f"{', '.join(f'`{shown(k)}`' for k in unknown[:5])}; expected `property` or "
                                   "`timestamp`, and `direction`.")
        direction = item.get("direction", "ascending")
        if direction not in ("ascending", "descending"):
            raise validation_error(f"body failed validation: {where}.direction should be `ascending` or "
                                   f"`descending`, instead was `{shown(direction)}`.")
        if "timestamp" in item:
            field = item["timestamp"]
            if field not in _TIMESTAMPS:
                raise validation_error(f"body failed validation: {where}.timestamp should be one of "
                                       f"{', '.join(_TIMESTAMPS)}.")
            keys.append(((lambda p, f=field: p.edited if f == "last_edited_time" else p.created),
                         direction == "descending"))
        elif "property" in item:
            name = item["property"]
            if not isinstance(name, str):
                raise validation_error(f"body failed validation: {where}.property should be a string, instead was "
                                       f"`{shown(name)}`.")
            resolved = _property_name(ds, name)
            if resolved is None:
                raise validation_error(f"Could not find sort property with name or id: {shown(name)}")
            prop_type = ds.properties[resolved]["type"]
            keys.append(((lambda p, t=prop_type: _page_value(p, t)), direction == "descending"))
        else:
            raise validation_error(f"body failed validation: {where} should have `property` or `timestamp`.")
    return keys

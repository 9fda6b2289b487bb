"""Player settings as typed on the command line (``fogsearch:depth=3,mode=exact``), checked and
converted against a player's config dataclass by introspection, so that a setting added to (or
moved within) the config is accepted without a change here.

Every field of the config is a setting, and so is every field of a config nested in it (a field
whose type is itself a dataclass, e.g. ``search: SearchConfig``), under its own flat name where
that name is not taken by an outer field, and always as ``outer.inner``. A field that holds extra
keyword arguments for another dataclass (``search_options: dict`` for ``SearchConfig``) can be
named to :func:`config_from_settings`; the other dataclass's fields are then settings too.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Any

from fogsearch.arguments import UsageError


@dataclass(frozen=True)
class Setting:
    """One setting: the flat name it is typed as, and where it goes in the config."""

    name: str
    path: tuple[str, ...]
    """Field names from the outer config down: ``("depth",)``, ``("search", "mode")``."""
    type: Any
    into_dict: bool = False
    """The last step of ``path`` is a key of an options dict, not a dataclass field."""


def settings_of(cls: type, option_dicts: dict[str, type] | None = None) -> dict[str, Setting]:
    """The settings of config dataclass ``cls``, by the name a user types, outer fields first."""
    option_dicts = option_dicts or {}
    flat: dict[str, Setting] = {}
    nested: list[Setting] = []

    def walk(owner: type, prefix: tuple[str, ...]) -> None:
        hints = typing.get_type_hints(owner)
        for f in dataclasses.fields(owner):
            if not f.init:
                continue
            kind = hints.get(f.name, Any)
            path = (*prefix, f.name)
            if f.name in option_dicts and not prefix:
                target = option_dicts[f.name]
                target_hints = typing.get_type_hints(target)
                for g in dataclasses.fields(target):
                    if g.init:
                        nested.append(Setting(g.name, (*path, g.name), target_hints[g.name], True))
            elif dataclasses.is_dataclass(kind):
                walk(kind, path)
            elif prefix:
                nested.append(Setting(f.name, path, kind))
            else:
                flat[f.name] = Setting(f.name, path, kind)

    walk(cls, ())
    for setting in nested:
        dotted = ".".join(setting.path)
        flat[dotted] = dataclasses.replace(setting, name=dotted)
        # An outer field keeps its name; the nested one of the same name stays reachable dotted.
        flat.setdefault(setting.name, setting)
    return flat


def describe_settings(cls: type, option_dicts: dict[str, type] | None = None) -> str:
    """``name (type), ...``: every setting once, by its shortest name."""
    shortest: dict[tuple[str, ...], str] = {}
    kinds: dict[tuple[str, ...], Any] = {}
    for name, setting in settings_of(cls, option_dicts).items():
        if setting.path not in shortest or len(name) < len(shortest[setting.path]):
            shortest[setting.path] = name
        kinds[setting.path] = setting.type
    return ", ".join(f"{name} ({type_name(kinds[path])})" for path, name in shortest.items())


def config_from_settings(
    cls: type,
    settings: dict[str, Any],
    who: str,
    option_dicts: dict[str, type] | None = None,
) -> Any:
    """An instance of config dataclass ``cls`` from ``settings`` (name -> value, values as typed
    or as read from JSON), each converted to its field's type; nested configs start from the
    outer field's default. Raises :class:`UsageError` naming ``who`` (the player kind) for an
    unknown setting, a value of the wrong type, or a value the config itself refuses (the
    message of its ``__post_init__``)."""
    known = settings_of(cls, option_dicts)
    values: dict[tuple[str, ...], Any] = {}
    for name, raw in settings.items():
        setting = known.get(name)
        if setting is None:
            raise UsageError(
                f"{who} has no setting {name!r}; its settings are "
                f"{describe_settings(cls, option_dicts)}"
            )
        try:
            value = convert(raw, setting.type)
        except ValueError as exc:
            raise UsageError(
                f"{who} setting {name}={_shown(raw)}: {exc} ({name} is {type_name(setting.type)})"
            ) from None
        if setting.path in values:
            raise UsageError(f"{who} setting {'.'.join(setting.path)} is given twice")
        values[setting.path] = value
    by_path = {s.path: s for s in known.values()}
    try:
        return _build(cls, (), values, by_path)
    except (ValueError, TypeError) as exc:
        raise UsageError(f"{who} settings {_listed(settings)} refused: {exc}") from None


def _build(
    cls: type,
    prefix: tuple[str, ...],
    values: dict[tuple[str, ...], Any],
    by_path: dict[tuple[str, ...], Setting],
    start: Any = None,
) -> Any:
    """``cls`` with the values under ``prefix``; from ``start`` (a default instance) if given."""
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        path = (*prefix, f.name)
        if path in values:
            kwargs[f.name] = values[path]
            continue
        below = {p: v for p, v in values.items() if p[: len(path)] == path and len(p) > len(path)}
        if not below:
            continue
        default = _default_of(f)
        if any(by_path[p].into_dict for p in below):
            options = dict(default or {})
            options.update({p[-1]: v for p, v in below.items()})
            kwargs[f.name] = options
        else:
            kwargs[f.name] = _build(hints[f.name], path, values, by_path, default)
    if start is not None:
        return dataclasses.replace(start, **kwargs)
    return cls(**kwargs)


def _default_of(f: dataclasses.Field) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_NONE = {"none", "null"}


def convert(value: Any, kind: Any) -> Any:
    """``value`` (as typed, or as JSON read it) as type ``kind``; ``ValueError`` if it is not one."""
    origin = typing.get_origin(kind)
    if kind is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        members = typing.get_args(kind)
        if type(None) in members and (value is None or str(value).lower() in _NONE):
            return None
        for member in members:
            if member is type(None):
                continue
            try:
                return convert(value, member)
            except ValueError:
                continue
        raise ValueError(f"{_shown(value)} is not {type_name(kind)}")
    if origin is typing.Literal:
        allowed = typing.get_args(kind)
        if value in allowed:
            return value
        raise ValueError(f"{_shown(value)} is not one of {', '.join(map(str, allowed))}")
    if kind is bool:
        if isinstance(value, bool):
            return value
        text = str(value).lower()
        if text in _TRUE | _FALSE:
            return text in _TRUE
        raise ValueError(f"{_shown(value)} is not a bool (true or false)")
    if kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str):
            try:
                return int(value.replace("_", ""))
            except ValueError:
                pass
        raise ValueError(f"{_shown(value)} is not an int")
    if kind is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                pass
        raise ValueError(f"{_shown(value)} is not a number")
    if kind is str:
        if isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (int, float)):
            return str(value)
        raise ValueError(f"{_shown(value)} is not a string")
    raise ValueError(f"a {type_name(kind)} cannot be given on the command line")


def type_name(kind: Any) -> str:
    """How a setting's type reads in a message: ``int``, ``float or none``."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        names = [type_name(m) for m in typing.get_args(kind) if m is not type(None)]
        if type(None) in typing.get_args(kind):
            names.append("none")
        return " or ".join(names)
    if origin is typing.Literal:
        return " | ".join(map(str, typing.get_args(kind)))
    if kind is Any:
        return "any"
    return getattr(kind, "__name__", str(kind))


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else repr(value)


def _listed(settings: dict[str, Any]) -> str:
    return ",".join(f"{k}={_shown(v)}" for k, v in settings.items())

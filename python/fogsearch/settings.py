"""Player settings as typed on the command line (``fogsearch:depth=3,mode=exact``), checked and
converted against a player's config dataclass by introspection, so that a setting added to (or
moved within) the config is accepted without a change here.

Every field of the config is a setting, and so is every field of a config nested in it (a field
whose type, or whose default's type, is itself a dataclass, e.g. ``search: SearchConfig``), under
its own flat name where that name is not taken by an outer field, and always as ``outer.inner``.
Used for every configurable player: the fogsearch bot (``fogsearch.bot.config.from_settings``)
and the players the tournament configures itself (``trout-set``). A config may hide fields that
are not settings (the bot's search ``time_limit``, set by its clock every turn).
"""

from __future__ import annotations

import builtins
import dataclasses
import sys
import types
import typing
from collections.abc import Mapping
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


Path = tuple[str, ...]


def settings_of(cls: type, hidden: frozenset[Path] = frozenset()) -> dict[str, Setting]:
    """The settings of config dataclass ``cls``, by the name a user types, outer fields first;
    fields at the paths in ``hidden`` are not settings."""
    flat: dict[str, Setting] = {}
    nested: list[Setting] = []

    def walk(owner: type, prefix: tuple[str, ...]) -> None:
        hints = _type_hints(owner)
        for f in dataclasses.fields(owner):
            if not f.init:
                continue
            kind = _nested_type(f, hints.get(f.name, Any))
            path = (*prefix, f.name)
            if path in hidden:
                continue
            if dataclasses.is_dataclass(kind):
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


def _type_hints(owner: type) -> dict[str, Any]:
    """The resolved annotations of ``owner``'s fields; one that cannot be resolved (a name
    imported only for type checkers) counts as ``Any``, left to the config's own checks."""
    try:
        return typing.get_type_hints(owner)
    except (NameError, TypeError):
        pass
    namespace = vars(sys.modules.get(owner.__module__, builtins))
    hints = {}
    for f in dataclasses.fields(owner):
        try:
            hints[f.name] = eval(f.type, dict(namespace)) if isinstance(f.type, str) else f.type
        except Exception:  # noqa: BLE001 - any unresolvable annotation
            hints[f.name] = Any
    return hints


def _nested_type(f: dataclasses.Field, kind: Any) -> Any:
    """``kind``, or the type of the field's default when that is a config (a dataclass)."""
    if dataclasses.is_dataclass(kind):
        return kind
    default = _default_of(f)
    if dataclasses.is_dataclass(default) and not isinstance(default, type):
        return type(default)
    return kind


def describe_settings(cls: type, hidden: frozenset[Path] = frozenset()) -> str:
    """``name (type), ...``: every setting once, by its shortest name."""
    shortest: dict[tuple[str, ...], str] = {}
    kinds: dict[tuple[str, ...], Any] = {}
    for name, setting in settings_of(cls, hidden).items():
        if setting.path not in shortest or len(name) < len(shortest[setting.path]):
            shortest[setting.path] = name
        kinds[setting.path] = setting.type
    return ", ".join(f"{name} ({type_name(kinds[path])})" for path, name in shortest.items())


def config_from_settings(
    cls: type,
    settings: Mapping[str, Any],
    who: str,
    hidden: frozenset[Path] = frozenset(),
) -> Any:
    """An instance of config dataclass ``cls`` from ``settings`` (name -> value, values as typed
    or as read from JSON), each converted to its field's type; nested configs start from the
    outer field's default. Raises :class:`UsageError` naming ``who`` (the player kind) for an
    unknown setting, a value of the wrong type, or a value the config itself refuses (the
    message of its ``__post_init__``)."""
    known = settings_of(cls, hidden)
    values: dict[tuple[str, ...], Any] = {}
    for name, raw in settings.items():
        setting = known.get(name)
        if setting is None:
            raise UsageError(
                f"{who} has no setting {name!r}; its settings are {describe_settings(cls, hidden)}"
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
    try:
        return _build(cls, (), values)
    except (ValueError, TypeError) as exc:
        raise UsageError(f"{who} settings {_listed(settings)} refused: {exc}") from None


def _build(
    cls: type, prefix: tuple[str, ...], values: dict[tuple[str, ...], Any], start: Any = None
) -> Any:
    """``cls`` with the values under ``prefix``; from ``start`` (a default instance) if given."""
    hints = _type_hints(cls)
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        path = (*prefix, f.name)
        if path in values:
            kwargs[f.name] = values[path]
        elif any(p[: len(path)] == path for p in values):
            kind = _nested_type(f, hints.get(f.name, Any))
            kwargs[f.name] = _build(kind, path, values, _default_of(f))
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

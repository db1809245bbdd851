"""`Shape` and `record`: the policy's typed records, built without `dataclasses`.

`Shape` is the base of what a policy file holds (rules, clauses, command tables) and of `Decision`;
`record` makes the engine's own slotted working records (a compiled clause, what a wrapper runs).

A shape behaves like a frozen, keyword-only dataclass: fields are its annotations, defaults its class
attributes (`many()` for a fresh list each time), it compares by value and cannot be changed. It is built
by hand rather than by `dataclasses` because every `policy check` defines these classes: generating a
dataclass's methods costs about a millisecond per class (measured by bench/startup_bench.py's breakdown),
a shape's or a record's class costs next to nothing, and importing `dataclasses` (it imports `inspect`)
costs a check as much again. A policy loaded from the cache is made of shapes and records, so checking a
command imports neither pydantic nor `dataclasses`.

Pydantic still validates a policy file into shapes: `Shape.__get_pydantic_core_schema__` describes each
one as a table with exactly its fields (unknown keys are errors), and `Check` / `Tagged` inside
`Annotated[...]` carry the constraints. Pydantic is imported only when a policy file is compiled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T")


class Fresh:
    """A field default made anew for each shape (a list, a dict, another shape)."""

    __slots__ = ("make",)

    def __init__(self, make: Any) -> None:
        self.make = make


def many(*values: Any) -> Any:
    """A list field's default: a fresh list holding `values`."""
    return Fresh(lambda: list(values))


def table() -> Any:
    """A table field's default: a fresh empty dict."""
    return Fresh(dict)


class Shape:
    """A frozen record with keyword construction, defaults, value equality and a JSON form."""

    _fields: tuple[str, ...] = ()
    _defaults: dict[str, Any] = {}  # noqa: RUF012 - replaced per subclass, never mutated

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = list(cls._fields)
        defaults = dict(cls._defaults)
        for name in vars(cls).get("__annotations__", {}):  # the class's own fields, in order
            if name not in fields:
                fields.append(name)
            if name in cls.__dict__:
                defaults[name] = cls.__dict__[name]
            else:
                defaults.pop(name, None)
        cls._fields = tuple(fields)
        cls._defaults = defaults

    def __init__(self, **values: Any) -> None:
        state: dict[str, Any] = {}
        for name in self._fields:
            if name in values:
                state[name] = values.pop(name)
            elif name in self._defaults:
                default = self._defaults[name]
                state[name] = default.make() if isinstance(default, Fresh) else default
            else:
                raise TypeError(f"{type(self).__name__}() needs the field {name!r}")
        if values:
            raise TypeError(f"{type(self).__name__}() has no field {', '.join(map(repr, values))}")
        object.__setattr__(self, "__dict__", state)
        self.__post_init__()

    def __post_init__(self) -> None:
        """Checks and completions of the fields; a `ValueError` here is a validation error."""

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]  # fields hold lists, like a frozen pydantic model's

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in self.__dict__.items())
        return f"{type(self).__name__}({fields})"

    def replace(self, **changes: Any) -> Any:
        """A copy with `changes` (checked again, as on construction)."""
        return type(self)(**{**self.__dict__, **changes})

    def model_dump(self, *, mode: str = "python") -> dict[str, Any]:
        """The fields as a dict of plain values (nested shapes as dicts), in field order; every value is
        JSON already, so `mode="json"` gives the same."""
        return {name: _plain(value) for name, value in self.__dict__.items()}

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        """How pydantic validates this shape: a table with exactly its fields, then the constructor."""
        import typing

        from pydantic_core import core_schema

        hints = typing.get_type_hints(cls, include_extras=True)
        fields = {
            name: core_schema.typed_dict_field(
                handler.generate_schema(hints[name]), required=name not in cls._defaults
            )
            for name in cls._fields
        }
        return core_schema.no_info_before_validator_function(
            _fields_of,
            core_schema.no_info_after_validator_function(
                lambda values: cls(**values),
                core_schema.typed_dict_schema(fields, extra_behavior="forbid"),
            ),
            serialization=core_schema.plain_serializer_function_ser_schema(lambda shape: shape.model_dump()),
        )


def _fields_of(value: Any) -> Any:
    """A shape given where one is expected is validated from its fields."""
    return dict(value.__dict__) if isinstance(value, Shape) else value


def _plain(value: Any) -> Any:
    if isinstance(value, Shape):
        return value.model_dump()
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


class Check:
    """Constraints on a field, applied when pydantic validates a policy file: `Check(min_length=1)`.

    The keywords are those of pydantic's core schema for the field's type (`min_length`, `pattern`, `ge`,
    `le`); pydantic asks for them through `__get_pydantic_core_schema__`, so defining one imports nothing.
    """

    __slots__ = ("constraints",)

    def __init__(self, **constraints: Any) -> None:
        self.constraints = constraints

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        schema = handler(source)
        schema.update(self.constraints)
        return schema


class Tagged:
    """A union of shapes told apart by one field (`on`): an error names the member it meant."""

    __slots__ = ("tag",)

    def __init__(self, tag: str) -> None:
        self.tag = tag

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        from typing import Annotated

        from pydantic import Discriminator

        return handler.generate_schema(Annotated[source, Discriminator(self.tag)])


def record(*, frozen: bool = False) -> Callable[[type[_T]], type[_T]]:
    """`@dataclass(slots=True, frozen=...)` for the engine's working records: fields are the class's
    annotations, in order, and its class attributes of those names their defaults (`many()`, `table()`
    for a fresh list or dict). The class gets `__slots__`, an `__init__` taking the fields by position or
    keyword, `__repr__` and `__eq__`; a frozen one cannot be changed and hashes by its fields."""

    def make(cls: type[_T]) -> type[_T]:
        fields = tuple(vars(cls).get("__annotations__", {}))
        namespace = {k: v for k, v in vars(cls).items() if k not in fields and k not in _NOT_COPIED}
        defaults = {name: vars(cls)[name] for name in fields if name in vars(cls)}
        namespace.update(
            __slots__=fields,
            _fields=fields,
            _defaults=defaults,
            _blank=(
                tuple((name, defaults[name], isinstance(defaults[name], Fresh)) for name in fields)
                if len(defaults) == len(fields)
                else None
            ),
            __init__=_record_init,
            __repr__=_record_repr,
            __eq__=_record_eq,
        )
        if frozen:
            namespace.update(
                __setattr__=_frozen_set,
                __delattr__=_frozen_delete,
                __hash__=_record_hash,
                __getstate__=_record_state,
                __setstate__=_record_set_state,
            )
        else:
            namespace["__hash__"] = None
        return type(cls)(cls.__name__, cls.__bases__, namespace)

    return make


_NOT_COPIED = ("__dict__", "__weakref__")


def _record_init(self: Any, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    if not args and not kwargs and cls._blank is not None:
        # Every default (`ExecutorRun()`, `Wrapped()`: made per command): no field to look for by name.
        set_field = object.__setattr__
        for name, default, fresh in cls._blank:
            set_field(self, name, default.make() if fresh else default)
        return
    fields = cls._fields
    if len(args) > len(fields):
        raise TypeError(f"{cls.__name__}() takes {len(fields)} fields, {len(args)} given")
    set_field = object.__setattr__
    for name, value in zip(fields, args, strict=False):
        set_field(self, name, value)
    for name in fields[len(args) :]:
        if name in kwargs:
            value = kwargs.pop(name)
        elif name in cls._defaults:
            default = cls._defaults[name]
            value = default.make() if isinstance(default, Fresh) else default
        else:
            raise TypeError(f"{cls.__name__}() needs the field {name!r}")
        set_field(self, name, value)
    if kwargs:
        raise TypeError(f"{cls.__name__}() got an unknown or repeated field {', '.join(map(repr, kwargs))}")


def _record_values(self: Any) -> tuple[Any, ...]:
    return tuple(getattr(self, name) for name in self._fields)


def _record_repr(self: Any) -> str:
    fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
    return f"{type(self).__name__}({fields})"


def _record_eq(self: Any, other: object) -> bool:
    if type(other) is not type(self):
        return NotImplemented
    return _record_values(self) == _record_values(other)


def _record_hash(self: Any) -> int:
    return hash(_record_values(self))


def _frozen_set(self: Any, name: str, value: Any) -> None:
    raise AttributeError(f"{type(self).__name__} is frozen: cannot set {name!r}")


def _frozen_delete(self: Any, name: str) -> None:
    raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name!r}")


def _record_state(self: Any) -> tuple[Any, ...]:
    return _record_values(self)


def _record_set_state(self: Any, state: tuple[Any, ...]) -> None:
    for name, value in zip(self._fields, state, strict=True):
        object.__setattr__(self, name, value)

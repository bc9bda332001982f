"""Immutable row schemas (01 ROW-1, ROW-2).

``class UserRow(clauz3.Row): email: str`` declares a schema. On the class, ``UserRow.email`` is
a :class:`ColumnRef` (used in contracts for provenance, PRED-3); on an instance, the value.
"""

from __future__ import annotations

from typing import Any, ClassVar

_FIELD_TYPES: dict[str, type] = {"str": str, "int": int, "bool": bool}


class ColumnRef:
    """``Schema.field`` at class level: names one column of one row schema."""

    __slots__ = ("field", "schema")
    schema: type
    field: str

    def __init__(self, schema: type, field: str) -> None:
        object.__setattr__(self, "schema", schema)
        object.__setattr__(self, "field", field)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("ColumnRef is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ColumnRef) and other.schema is self.schema and other.field == self.field

    def __hash__(self) -> int:
        return hash((id(self.schema), self.field))

    def __repr__(self) -> str:
        return f"ColumnRef({self.schema.__name__}.{self.field})"


class _Column:
    """Descriptor installed per field: ColumnRef on the class, the value on an instance."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type) -> Any:
        if obj is None:
            return ColumnRef(owner, self.name)
        return obj._clauz3_values[self.name]

    def __set__(self, obj: Any, value: Any) -> None:
        raise AttributeError(f"{type(obj).__name__} rows are immutable")


def _resolve(annotation: Any) -> type | None:
    if isinstance(annotation, str):
        return _FIELD_TYPES.get(annotation.strip())
    return annotation if annotation in (str, int, bool) else None


class Row:
    """Base of row schemas: ``str``/``int``/``bool`` fields, keyword construction, immutable."""

    __slots__ = ("_clauz3_values",)
    _clauz3_values: dict[str, Any]
    __row_fields__: ClassVar[dict[str, type]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields: dict[str, type] = {}
        for base in reversed(cls.__mro__[1:]):
            if isinstance(base, type) and issubclass(base, Row) and base is not Row:
                fields.update(base.__row_fields__)
        own = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 - own annotations only
        for name, annotation in own.items():
            if annotation in ("ClassVar", ClassVar) or str(annotation).startswith(("ClassVar", "typing.ClassVar")):
                raise TypeError(f"Row {cls.__name__}: field {name!r} must be annotated str, int or bool")
            tp = _resolve(annotation)
            if tp is None:
                raise TypeError(f"Row {cls.__name__}: field {name!r} must be annotated str, int or bool, got {annotation!r}")
            if name.startswith("_"):
                raise TypeError(f"Row {cls.__name__}: field names must not start with '_' ({name!r})")
            if name in cls.__dict__:
                raise TypeError(f"Row {cls.__name__}: field {name!r} must not have a class-level default")
            fields[name] = tp
        for name in fields:
            for klass in cls.__mro__:
                if name in klass.__dict__ and not isinstance(klass.__dict__[name], _Column):
                    raise TypeError(f"Row {cls.__name__}: field {name!r} must not have a class-level default")
        cls.__row_fields__ = fields
        for name in own:
            setattr(cls, name, _Column(name))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        if cls is Row:
            raise TypeError("Row is a base class; declare a subclass with annotated fields")
        if args:
            raise TypeError(f"{cls.__name__} takes every field as a keyword")
        fields = cls.__row_fields__
        unknown = sorted(set(kwargs) - set(fields))
        if unknown:
            raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
        missing = [n for n in fields if n not in kwargs]
        if missing:
            raise TypeError(f"{cls.__name__} is missing field {missing[0]!r}")
        values: dict[str, Any] = {}
        for name, tp in fields.items():
            value = kwargs[name]
            ok = isinstance(value, str) if tp is str else type(value) is tp
            if not ok:
                raise TypeError(f"{cls.__name__}.{name} must be {tp.__name__}, got {type(value).__name__}")
            values[name] = value
        object.__setattr__(self, "_clauz3_values", values)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} rows are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} rows are immutable")

    def _key(self) -> tuple[Any, ...]:
        return tuple(self._clauz3_values[n] for n in type(self).__row_fields__)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((type(self).__qualname__, self._key()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={v!r}" for n, v in self._clauz3_values.items())
        return f"{type(self).__name__}({inner})"

    def __reduce__(self) -> Any:
        # deep copies across the trusted boundary (EFF-6) must rebuild through __init__.
        return (_rebuild, (type(self), dict(self._clauz3_values)))


def _rebuild(cls: type[Row], values: dict[str, Any]) -> Row:
    return cls(**values)

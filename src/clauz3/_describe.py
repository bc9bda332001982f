"""Contract descriptions and bound calls (01 CON-4, CON-5, CON-6).

Template parsing runs at decoration time (a bad template is a ``ValueError`` there); rendering
and binding run when a guarantee is presented. Heavy modules are imported lazily.
"""

from __future__ import annotations

from collections.abc import Mapping

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from clauz3._meta import ContractMeta

CUT = 500


def parse_template(template: str) -> list[tuple[str, str | None]]:
    """Split a template into ``(literal text, placeholder or None)`` pieces; ValueError if malformed.

    Only bare ``{name}`` placeholders are allowed; ``{{``/``}}`` escape braces. Format specs,
    conversions, indexes, attributes and positional fields are refused.
    """
    pieces: list[tuple[str, str | None]] = []
    buf: list[str] = []
    i = 0
    n = len(template)
    while i < n:
        c = template[i]
        if c == "{":
            if template.startswith("{", i + 1):
                buf.append("{")
                i += 2
                continue
            j = template.find("}", i + 1)
            if j < 0:
                raise ValueError("description template has an unmatched '{' (write '{{' for a brace)")
            name = template[i + 1 : j]
            if not name.isidentifier():
                raise ValueError(
                    f"description placeholder {{{name}}} must be a bare parameter name "
                    "(no format spec, conversion, index or attribute)"
                )
            pieces.append(("".join(buf), name))
            buf = []
            i = j + 1
        elif c == "}":
            if template.startswith("}", i + 1):
                buf.append("}")
                i += 2
                continue
            raise ValueError("description template has a single '}' (write '}}' for a brace)")
        else:
            buf.append(c)
            i += 1
    pieces.append(("".join(buf), None))
    return pieces


def validate_template(template: str, fn: Callable[..., Any], params: list[str]) -> None:
    """CON-4: every parameter appears, no other placeholder, templated parameters are renderable."""
    qualname = getattr(fn, "__qualname__", "?")
    used = [name for _text, name in parse_template(template) if name is not None]
    for name in used:
        if name not in params:
            raise ValueError(f"description placeholder {{{name}}} is not a parameter of {qualname}")
    for name in params:
        if name not in used:
            raise ValueError(f"description template of {qualname} does not mention parameter {name!r}")
    annotations = getattr(fn, "__annotations__", {}) or {}
    for name in dict.fromkeys(used):
        if name in annotations and not _templatable(annotations[name], fn):
            raise ValueError(
                f"parameter {name!r} of {qualname} cannot appear in a description: a templated parameter "
                "must be a scalar, a typed path, or a list/tuple/set of those"
            )


_SCALARS = (str, int, float, bool, type(None))


def _templatable(annotation: Any, fn: Callable[..., Any]) -> bool:
    """False only when the annotation resolves to a type that is clearly not renderable.

    Unresolvable annotations are left to the checker (CON-2), which refuses them with context.
    """
    if isinstance(annotation, str):
        try:
            annotation = eval(annotation, dict(getattr(fn, "__globals__", {})))  # trusted code's own names
        except Exception:
            return True
    return _templatable_type(annotation, allow_seq=True)


def _templatable_type(tp: Any, *, allow_seq: bool) -> bool:
    import typing

    if tp is None or (isinstance(tp, type) and issubclass(tp, _SCALARS)):
        return True
    origin = typing.get_origin(tp)
    args = [a for a in typing.get_args(tp) if a is not Ellipsis]
    if origin is typing.Union or type(tp).__name__ == "UnionType":
        return all(_templatable_type(a, allow_seq=allow_seq) for a in args)
    if allow_seq and origin in (list, tuple, set, frozenset):
        return all(_templatable_type(a, allow_seq=False) for a in args)
    if allow_seq and tp in (list, tuple, set, frozenset):
        return True
    return False


def render_value(value: Any, *, cut: bool = True) -> str:
    """CON-5 rendering of one value; cut at 500 characters with ``… (+N chars)`` when ``cut``."""
    text = _render(value)
    if cut and len(text) > CUT:
        return f"{text[:CUT]}… (+{len(text) - CUT} chars)"
    return text


def _render(value: Any) -> str:
    import json

    if value is None or value is True or value is False:
        return repr(value)
    if isinstance(value, str):
        return json.dumps(str(value), ensure_ascii=False)
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (set, frozenset)):
        items = [_render(v) for v in _sorted(value)]
        return "[" + ", ".join(items) + "]"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_render(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_render(k)}: {_render(v)}" for k, v in value.items()) + "}"
    if isinstance(value, type):
        return value.__name__
    return repr(value)


def _sorted(values: Any) -> list[Any]:
    try:
        return sorted(values)
    except TypeError:
        return sorted(values, key=_render)


def docstring_summary(fn: Callable[..., Any]) -> str | None:
    """First paragraph of the docstring, whitespace collapsed, at most 500 characters."""
    doc = getattr(fn, "__doc__", None)
    if not isinstance(doc, str) or not doc.strip():
        return None
    paragraph: list[str] = []
    for line in doc.strip().splitlines():
        if not line.strip():
            if paragraph:
                break
            continue
        paragraph.append(line.strip())
    text = " ".join(" ".join(paragraph).split())
    if len(text) > CUT:
        text = text[: CUT - 1] + "…"
    return text or None


def render_description(meta: ContractMeta, bound_args: Mapping[str, Any]) -> str | None:
    """CON-5: the template with each placeholder rendered, else the docstring summary, else None."""
    template = meta.description_template
    if template is None:
        return docstring_summary(meta.fn)
    out: list[str] = []
    for text, name in parse_template(template):
        out.append(text)
        if name is not None:
            out.append(render_value(bound_args[name]))
    return "".join(out)


def bind_call(meta: ContractMeta, args: tuple[Any, ...] | list[Any], kwargs: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """CON-6: bind literal arguments to the helper's signature (defaults filled) and render the call.

    Returns ``(bound, text)`` where ``bound`` maps every parameter to its value in signature
    order and ``text`` is e.g. ``email.at_most(count=1)``. Raises ``TypeError`` on arity errors
    or unknown keywords, like a call would.
    """
    import inspect

    signature = inspect.signature(meta.fn)
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    values = dict(bound.arguments)
    library = meta.library or meta.module
    text = ", ".join(f"{k}={render_value(v, cut=False)}" for k, v in values.items())
    return values, f"{library}.{meta.qualname}({text})"

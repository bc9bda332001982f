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

    from clauz3.vocabulary.meta import ContractMeta

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


# ------------------------------------------------------------------------------------------------
# Card text (issue 12, issue 11 §6): prose for a person, and characters that cannot hide.

_BIDI = frozenset([*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C])
# Letters of other scripts that render like Latin ones (the common Cyrillic and Greek look-alikes).
_LOOKALIKE = frozenset("аеорсухіјѕԁԛԝһӏАВЕКМНОРСТХІЈЅԌαοрϲνικτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ")
# Latin letters drawn like other Latin letters (dotless i, dental click as l, script a/g), and the full
# stops that mail domains (IDNA) read as ".": each makes one address look like another.
_LOOKALIKE_ALWAYS = frozenset("ıǀȷɑɡɩɪʟ\u3002\uff0e\uff61")
LONG_LIST = 5  # lists longer than this are shown as a count in the sentence and in full beside it

WARN_BIDI = "contains characters that change the direction of the text"
WARN_INVISIBLE = "contains invisible characters"
WARN_LOOKALIKE = "contains letters from another alphabet that look like Latin ones"


def _code(ch: str) -> str:
    return f"[U+{ord(ch):04X}]"


def _script(ch: str) -> str | None:
    import unicodedata

    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0] if name else None


def reveal(text: str) -> tuple[str, list[str]]:
    """``text`` with every hiding character shown as ``[U+XXXX]``, and the warnings it deserves.

    Hiding characters: bidi controls, zero-width and other format/control characters (except newline
    and tab), compatibility forms that fold to ASCII (full-width letters), and the letters of a word
    that mixes scripts or is spelled entirely in Latin look-alikes. A clean text comes back as is.
    """
    import re
    import unicodedata

    if text.isascii():
        return text, []
    warnings: set[str] = set()
    out: list[str] = []
    # A combining mark that NFC would fold into its letter ("e" + U+0301): it draws exactly like the
    # precomposed letter of another address. Marks that stay separate (most Indic vowel signs) are text.
    folding = {text[i] for i in range(1, len(text)) if unicodedata.category(text[i]).startswith("M")
               and len(unicodedata.normalize("NFC", text[i - 1:i + 1])) == 1}
    for word in re.split(r"(\w+)", text):
        letters = [c for c in word if c.isalpha()]
        scripts = {s for s in (_script(c) for c in letters) if s}
        mixed = len(scripts) > 1 or (bool(letters) and not word.isascii()
                                     and all(c in _LOOKALIKE or c.isascii() for c in letters))
        for ch in word:
            code = ord(ch)
            if code in _BIDI:
                warnings.add(WARN_BIDI)
                out.append(_code(ch))
            elif unicodedata.category(ch) in ("Cf", "Cc", "Zl", "Zp") and ch not in "\n\t":
                warnings.add(WARN_INVISIBLE)
                out.append(_code(ch))
            elif not ch.isascii() and (mixed or ch in _LOOKALIKE_ALWAYS or ch in folding
                                       or unicodedata.normalize("NFKC", ch).isascii()):
                warnings.add(WARN_LOOKALIKE)
                out.append(_code(ch))
            else:
                out.append(ch)
    return "".join(out), sorted(warnings)


def prose_join(items: list[str], last: str = "and") -> str:
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def prose_value(value: Any, warnings: set[str], last: str = "and") -> str:
    """One value as a person reads it: bare words and paths plain, text in quotes, lists as prose."""
    if value is None:
        return "nothing"
    if value is True or value is False:
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        shown, found = reveal(value)
        warnings.update(found)
        return shown if shown and not any(c.isspace() for c in shown) else f"“{shown}”"
    if isinstance(value, (set, frozenset)):
        return prose_join([prose_value(v, warnings) for v in _sorted(value)], last)
    if isinstance(value, (list, tuple)):
        return prose_join([prose_value(v, warnings) for v in value], last)
    if isinstance(value, Mapping):
        return ", ".join(f"{prose_value(k, warnings)} {prose_value(v, warnings)}" for k, v in value.items())
    shown, found = reveal(repr(value))
    warnings.update(found)
    return shown


def _singular(rest: str) -> str:
    """``" emails are sent"`` → ``" email is sent"``: the noun after a count of 1 (and its verb)."""
    import re

    match = re.match(r"(\s+)([A-Za-z]+)\b(\s+are\b)?", rest)
    if not match:
        return rest
    word = match.group(2)
    if not word.endswith("s") or word.endswith("ss") or len(word) < 3:
        return rest
    single = word[:-2] if word.endswith(("sses", "ches", "shes", "xes")) else word[:-1]
    verb = " is" if match.group(3) else ""
    return match.group(1) + single + verb + rest[match.end():]


def sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "”")) else text + "."


def render_prose(template: str, args: Mapping[str, Any]) -> tuple[str, list[str], list[dict[str, Any]]]:
    """A description template rendered for a person: ``(sentence, warnings, long lists)``.

    Lists read as prose ("a, b and c"; "one of a or b"; "one of [x]" becomes "x"); a count of 1 makes the
    next noun singular ("at most 1 email is sent"); a list longer than LONG_LIST reads as its count
    ("one of 412 addresses") and comes back whole in the third item, never cut.
    """
    warnings: set[str] = set()
    lists: list[dict[str, Any]] = []
    pieces = parse_template(template)
    out: list[str] = []
    carry_singular = False
    for text, name in pieces:
        if carry_singular:
            text = _singular(text)
            carry_singular = False
        if name is None:
            out.append(text)
            continue
        value = args.get(name)
        one_of = text.rstrip().endswith("one of")
        if isinstance(value, (list, tuple, set, frozenset)):
            items = list(_sorted(value)) if isinstance(value, (set, frozenset)) else list(value)
            if one_of and len(items) == 1:
                text = text.rstrip()[: -len("one of")]
            out.append(text)
            if len(items) > LONG_LIST:
                shown = [prose_value(v, warnings) for v in items]
                lists.append({"name": name, "count": len(items), "items": shown})
                out.append(f"{len(items)} {name.replace('_', ' ')}")
            else:
                out.append(prose_value(items, warnings, "or" if one_of else "and"))
            continue
        out.append(text)
        out.append(prose_value(value, warnings))
        carry_singular = isinstance(value, int) and not isinstance(value, bool) and value == 1
    return sentence("".join(out)), sorted(warnings), lists


# A read effect's argument the program computed, in words: "the web page whose address the program computed".
_NOUNS = {"url": "address", "uri": "address", "link": "address", "href": "address", "file_path": "path"}
_BEFORE_A_NOUN = frozenset("of for in on at to from by with matching about named called".split())


def _computed(before: str, name: str) -> str:
    noun = _NOUNS.get(name, name.replace("_", " "))
    words = before.split()
    if not words or words[-1].casefold() in _BEFORE_A_NOUN:
        return f"{'an' if noun[:1] in 'aeio' else 'a'} {noun} the program computed"
    return f"whose {'name' if words[-1].casefold() == noun else noun} the program computed"


def reads_label(template: str, args: Mapping[str, Any]) -> str:
    """A read effect's ``reads_data`` template with one call's literal arguments ("the web page www.x.com"); an
    argument the program computed is said in words ("the web page whose address the program computed")."""
    try:
        pieces = parse_template(template)
    except ValueError:
        return template
    out: list[str] = []
    for text, name in pieces:
        out.append(text)
        if name is not None:
            value = args.get(name)
            known = isinstance(value, str | int) and not isinstance(value, bool)
            out.append(str(value) if known else _computed("".join(out), name))
    return " ".join("".join(out).split())

"""Loading and validating ``clauz3.yaml`` manifests (05 §4, MAN-1, MAN-2).

YAML is parsed with PyYAML's safe machinery, but the document is rebuilt by hand from the
composed node tree so anchors, aliases, tags, duplicate and non-string keys are rejected with
their position, and every field keeps a line/column for the error.
"""

from __future__ import annotations

import copy
import json
import keyword
from collections import OrderedDict
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, cast

from clauz3.layers.errors import LayersError

MAX_MANIFEST_BYTES = 131_072
_STR_TAG = "tag:yaml.org,2002:str"


class ManifestError(LayersError):
    """An invalid manifest; ``str(exc)`` is the MAN-2 message (without the ``error:`` prefix)."""

    def __init__(self, display: str, field: str, problem: str, line: int = 1, col: int = 1) -> None:
        where = f"{field}: " if field else ""
        super().__init__(f"invalid manifest {display}: {where}{problem}")
        self.field = field
        self.problem = problem
        self.line = line
        self.col = col


@cache
def _schema(kind: str) -> dict[str, Any]:
    name = "manifest.schema.json" if kind == "domain" else "package-manifest.schema.json"
    return json.loads(resources.files("clauz3.layers").joinpath(name).read_text("utf-8"))


def field_path(parts: tuple[str | int, ...]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


def _build(loader: Any, node: Any, path: tuple[str | int, ...], marks: dict[tuple[str | int, ...], tuple[int, int]],
           display: str) -> Any:
    import yaml

    marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            kl, kc = key_node.start_mark.line + 1, key_node.start_mark.column + 1
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != _STR_TAG:
                raise ManifestError(display, field_path(path), "keys must be strings", kl, kc)
            key = key_node.value
            if key in out:
                raise ManifestError(display, field_path((*path, key)), "duplicate key", kl, kc)
            value = _build(loader, value_node, (*path, key), marks, display)
            if value is not None:  # null means absent (MAN-2)
                out[key] = value
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(loader, item, (*path, i), marks, display) for i, item in enumerate(node.value)]
    return loader.construct_object(node, deep=True)


def parse_manifest_text(text: str, display: str) -> tuple[Any, dict[tuple[str | int, ...], tuple[int, int]]]:
    """Safe YAML without anchors, aliases, tags, duplicate or non-string keys; returns data and positions."""
    import yaml

    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            start = cast("yaml.Mark", event.start_mark)  # the parser sets it on every event it yields
            line, col = start.line + 1, start.column + 1
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
                raise ManifestError(display, "", "anchors and aliases are not allowed", line, col)
            if getattr(event, "tag", None) is not None and not isinstance(event, yaml.DocumentStartEvent):
                raise ManifestError(display, "", "tags are not allowed", line, col)
        loader = yaml.SafeLoader(text)
        try:
            node = loader.get_single_node()
            marks: dict[tuple[str | int, ...], tuple[int, int]] = {}
            data = None if node is None else _build(loader, node, (), marks, display)
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        raise ManifestError(display, "", f"not valid YAML: {problem}", line, col) from None
    return data, marks


def _problem(error: Any) -> tuple[tuple[str | int, ...], str]:
    """A jsonschema error as (field path, plain problem)."""
    path = tuple(error.absolute_path)
    v, arg = error.validator, error.validator_value
    if v == "required":
        missing = [k for k in arg if isinstance(error.instance, dict) and k not in error.instance]
        return (*path, missing[0] if missing else "?"), "is required"
    if v == "additionalProperties":
        allowed = error.schema.get("properties", {})
        extra = sorted(k for k in error.instance if k not in allowed) if isinstance(error.instance, dict) else []
        return (*path, extra[0] if extra else "?"), "unknown field"
    if v == "enum":
        return path, "must be one of " + ", ".join(str(x) for x in arg)
    if v == "const":
        return path, f"must be {json.dumps(arg)}"
    if v == "type":
        noun = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer"}
        return path, f"must be {noun.get(arg, arg)}"
    if v == "maxLength":
        return path, f"must be at most {arg} characters"
    if v == "minLength":
        return path, "must not be blank"
    if v == "maxItems":
        return path, f"must have at most {arg} entries"
    if v == "pattern":
        if arg == "\\S":
            return path, "must not be blank"
        if arg.startswith("^https?"):
            return path, "must be an http(s):// URL"
        return path, f"must match {arg}"
    return path, error.message


def validate_manifest_data(data: Any, kind: str, domain: str | None = None) -> list[tuple[tuple[str | int, ...], str]]:
    """Problems of an already-parsed manifest, ``kind`` ``"domain"`` or ``"package"``; empty when valid."""
    from jsonschema import Draft202012Validator

    if not isinstance(data, dict):
        return [((), "top level must be a mapping")]
    validator = Draft202012Validator(_schema(kind))
    errors = sorted(validator.iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.validator))
    problems = [_problem(e) for e in errors]
    if problems:
        return problems
    name = data.get("name")
    if kind == "domain" and isinstance(name, str):
        if any(keyword.iskeyword(part) for part in name.split("/")):
            problems.append((("name",), "segments must not be Python keywords"))
        elif domain is not None and name != domain:
            problems.append((("name",), f"must equal the folder below tools/ ({domain})"))
    requirements = data.get("requirements") or {}
    for key, ident in (("tools", "name"), ("setup", "id")):
        seen: set[str] = set()
        for i, entry in enumerate(requirements.get(key, [])):
            if entry.get(ident) in seen:
                problems.append((("requirements", key, i, ident), f"duplicate {ident} {entry[ident]!r}"))
            seen.add(entry.get(ident))
    return problems


def manifest_kind_for(path: Path, data: Any) -> tuple[str, str | None]:
    """``("domain", "<d>")`` for ``tools/<d>[/<e>]/clauz3.yaml``, ``("package", None)`` beside ``tools/``."""
    parts = path.absolute().parts
    for depth in (1, 2):
        if len(parts) >= depth + 2 and parts[-(depth + 2)] == "tools":
            return "domain", "/".join(parts[-(depth + 1) : -1])
    if (path.parent / "tools").is_dir():
        return "package", None
    return ("package" if isinstance(data, dict) and "kind" in data else "domain"), None


def load_manifest(path: Path, *, kind: str | None = None, domain: str | None = None,
                  display: str | None = None) -> dict[str, Any]:
    """Read and validate one manifest; raises :class:`ManifestError` (MAN-2) on any problem.

    ``kind``/``domain`` default to what the file's location says (:func:`manifest_kind_for`).
    """
    display = display or str(path)
    if path.is_symlink():
        raise ManifestError(display, "", "must not be a symbolic link")
    try:
        size = path.stat().st_size
        if size > MAX_MANIFEST_BYTES:
            raise ManifestError(display, "", f"larger than {MAX_MANIFEST_BYTES} bytes ({size})")
        raw = path.read_bytes()
    except OSError as exc:
        raise ManifestError(display, "", f"cannot read: {exc.strerror or exc}") from None
    key = (str(path), kind, domain, display, raw)
    known = _VALIDATED.get(key)
    if known is not None:
        _VALIDATED.move_to_end(key)
        return copy.deepcopy(known)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ManifestError(display, "", "not UTF-8") from None
    data, marks = parse_manifest_text(text, display)
    if kind is None:
        kind, located = manifest_kind_for(path, data)
        domain = domain or located
    problems = validate_manifest_data(data, kind, domain)
    if problems:
        where, problem = problems[0]
        line, col = _nearest_mark(marks, where)
        raise ManifestError(display, field_path(where), problem, line, col)
    assert isinstance(data, dict)
    _VALIDATED[key] = copy.deepcopy(data)
    while len(_VALIDATED) > VALIDATED_KEPT:
        _VALIDATED.popitem(last=False)
    return data


# Manifests are re-read on every run record (the "libraries changed" check) and every Libraries call;
# parsing and validating the YAML was most of that. The key holds the file's exact bytes, so an edit
# of any kind (also one that keeps size and mtime) is parsed and validated afresh.
VALIDATED_KEPT = 256
_VALIDATED: OrderedDict[tuple[str, str | None, str | None, str, bytes], dict[str, Any]] = OrderedDict()


def _nearest_mark(marks: dict[tuple[str | int, ...], tuple[int, int]], where: tuple[str | int, ...]) -> tuple[int, int]:
    for i in range(len(where), -1, -1):
        if where[:i] in marks:
            return marks[where[:i]]
    return 1, 1

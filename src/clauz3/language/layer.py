"""Loading a trusted layer (01 §2.1 TL-1…TL-7, §2.3 EFF-1, §2.8 COV-1, §2.9 LEG-1).

:func:`load_layer` validates the roots, checks every trusted file statically (namespace
initializers, limits, syntax), imports each module under its real dotted name with a
confinement finder on ``sys.meta_path`` and the ``deal`` spellings shimmed, then collects and
validates the vocabulary. Every problem is a :class:`LayerError` carrying one
:class:`~clauz3.language.ir.Diagnostic` that points at the trusted file. A process loads at most
one layer (TL-6).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType, TracebackType
from typing import Any

from clauz3.language._layer_collect import (
    LayerPolicy,
    allowed_decorators,
    check_decorators,
    collect,
    collect_policies,
)
from clauz3.language._layer_confine import ConfinementFinder
from clauz3.language._layer_hash import TreeHashError, domain_tree_hash, library_fingerprint_raw
from clauz3.language._layer_roots import TrustedRootError, validate_trusted_root
from clauz3.language._layer_scan import ScanError, TrustedFile, check_namespace_init, module_files, read_files
from clauz3.language.errors import LanguageError
from clauz3.language.ir import Diagnostic
from clauz3.vocabulary.meta import ContractMeta, SolverMeta

__all__ = [
    "LAYER_SUFFIX",
    "Domain",
    "Layer",
    "LayerAlreadyLoaded",
    "LayerError",
    "LayerPolicy",
    "TrustedRootError",
    "domain_tree_hash",
    "library_fingerprint",
    "load_layer",
    "loaded_layer",
    "resolve_effect_target",
    "validate_trusted_root",
]

LAYER_SUFFIX = "problem in a trusted library, not in the program"


class LayerError(LanguageError):
    """A layer that cannot be used; ``diagnostic`` is the DIAG-1 line to print (exit 2)."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.render())
        self.diagnostic = diagnostic

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [self.diagnostic]

    @property
    def code(self) -> str:
        return self.diagnostic.code


class LayerAlreadyLoaded(LanguageError, RuntimeError):
    """TL-6: this process already loaded another layer."""


def layer_error(
    message: str, file: str | Path, line: int = 1, col: int = 1, *, code: str = "layer-error", hint: str | None = None
) -> LayerError:
    return LayerError(Diagnostic("error", str(file), max(line, 1), max(col, 1), code, f"{message}; {LAYER_SUFFIX}", hint))


@dataclass(frozen=True)
class Domain:
    name: str  # "email" or "org/d"
    package: str  # "tools.email.trusted"
    root: Path  # the trusted root
    import_root: Path

    @property
    def library(self) -> str:
        """CON-6 library name: ``org/d`` renders ``org.d``."""
        return self.name.replace("/", ".")

    @property
    def domain_dir(self) -> Path:
        return self.import_root / "tools" / self.name


@dataclass(frozen=True, eq=False)
class Layer:
    import_roots: tuple[Path, ...]
    trusted_roots: tuple[Path, ...]
    domains: tuple[Domain, ...]
    modules: dict[str, ModuleType]  # dotted name → module, in import order
    files: dict[str, Path]  # dotted name → file
    effects: dict[str, Callable[..., Any]]  # "<defining module>.<name>" → decorated function
    contracts: dict[str, ContractMeta]  # "<module>.<qualname>" → registration
    solvers: dict[str, SolverMeta]  # modelled function's dotted name → model
    fluents: dict[str, Any]  # fluent name → FluentDecl
    events: dict[str, type]  # "<module>.<qualname>" → Event subclass
    rows: dict[str, type]  # "<module>.<qualname>" → Row subclass
    policies: dict[str, tuple[LayerPolicy, ...]]  # domain name → validated policies
    fingerprint: str  # 05 SEL-7 library_fingerprint (layer_sha256, TL-7)
    helpers: dict[str, Callable[..., Any]] = field(default_factory=dict)  # ordinary trusted functions
    project_root: Path | None = None

    def domain_of(self, module: str) -> Domain | None:
        for d in self.domains:
            if module == d.package or module.startswith(d.package + "."):
                return d
        return None


# ------------------------------------------------------------------------------------ roots


def _domain_for(root: Path) -> Domain:
    try:
        import_root, name = validate_trusted_root(root)
    except TrustedRootError as exc:
        raise layer_error(str(exc), root) from None
    if not root.is_dir():
        raise layer_error(f"trusted root {root} is not a directory", root)
    current = import_root
    for part in root.relative_to(import_root).parts:
        current = current / part
        if current.is_symlink():
            raise layer_error(f"trusted root {root} is reached through a symbolic link ({current})", current)
    package = "tools." + name.replace("/", ".") + ".trusted"
    return Domain(name, package, root, import_root)


def _default_project_root(domains: Sequence[Domain]) -> Path:
    if not domains:
        return Path.cwd()
    first = domains[0].import_root
    return first.parent if first.name == ".clauz3" else first


def library_fingerprint(trusted_roots: Sequence[Path], project_root: Path) -> str:
    """05 SEL-7 fingerprint of the selected roots; LayerError for symlinked roots or initializers."""
    try:
        return library_fingerprint_raw([Path(os.path.abspath(r)) for r in trusted_roots], Path(project_root))
    except TrustedRootError as exc:
        raise layer_error(str(exc), exc.args[0].split(":")[0]) from None
    except TreeHashError as exc:
        raise layer_error(str(exc), exc.path) from None
    except OSError as exc:
        raise layer_error(f"cannot read library files: {exc}", getattr(exc, "filename", None) or project_root) from None


# ------------------------------------------------------------------------------------ TL-6


class _State:
    key: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    layer: Layer | None = None
    error: LayerError | None = None


def reset_for_fork() -> None:
    """In a forked child only: forget the layer this process loaded, so the child can load another (TL-6)."""
    _State.key = None
    _State.layer = None
    _State.error = None
    _forget_tools_modules()


def _forget_tools_modules() -> None:
    """Modules named tools.* imported before (by anything) would shadow the next layer's packages."""
    for name in [m for m in sys.modules if m == "tools" or m.startswith("tools.")]:
        del sys.modules[name]


def loaded_layer() -> Layer | None:
    """The layer this process loaded, if any."""
    return _State.layer


def load_layer(
    trusted_roots: Sequence[Path], import_roots: Sequence[Path], *, project_root: Path | None = None
) -> Layer:
    """Import and validate the layer; the same roots again return the same Layer (TL-6)."""
    roots = list(dict.fromkeys(Path(os.path.abspath(r)) for r in trusted_roots))
    given_imports = [Path(os.path.abspath(r)) for r in import_roots]
    key = (tuple(str(r) for r in roots), tuple(str(r) for r in given_imports))
    if _State.key is not None:
        if _State.key != key:
            raise LayerAlreadyLoaded(
                "this process already loaded a layer; another layer needs another process (01 TL-6)"
            )
        if _State.error is not None:
            raise _State.error
        assert _State.layer is not None
        return _State.layer
    _State.key = key
    try:
        _State.layer = _load(roots, given_imports, project_root)
    except LayerError as exc:
        _State.error = exc
        raise
    return _State.layer


def _load(roots: list[Path], given_imports: list[Path], project_root: Path | None) -> Layer:
    domains = [_domain_for(r) for r in roots]
    seen: dict[str, Domain] = {}
    for d in domains:
        if d.name in seen:
            raise layer_error(f"domain {d.name} is provided by both {seen[d.name].root} and {d.root}", d.root)
        seen[d.name] = d
    import_roots = list(dict.fromkeys([*given_imports, *(d.import_root for d in domains)]))
    # TL-3: namespace packages between each import root and its trusted roots.
    allowed_inits: list[Path] = []
    for ir in import_roots:
        if os.path.lexists(ir / "tools" / "__init__.py"):
            raise layer_error("tools/__init__.py must not exist (tools is a namespace package)", ir / "tools" / "__init__.py")
    try:
        for d in domains:
            pkg = d.import_root / "tools"
            for part in d.name.split("/"):
                pkg = pkg / part
                check_namespace_init(pkg / "__init__.py")
                allowed_inits.append(pkg / "__init__.py")
        entries: list[tuple[str, Path]] = []
        for d in domains:
            entries.extend(module_files(d.root, d.package))
        files = read_files(entries) if entries else []
    except ScanError as exc:
        raise layer_error(exc.message, exc.file, exc.line, exc.col, code=exc.code, hint=exc.hint) from None
    project = Path(os.path.abspath(project_root)) if project_root else _default_project_root(domains)
    fingerprint = library_fingerprint(roots, project)
    modules = _import_all(files, import_roots, roots, allowed_inits)
    try:
        allowed = allowed_decorators()
        for tf in files:
            check_decorators(tf, modules[tf.module], allowed)
        found = collect(files, modules)
        policies: dict[str, tuple[LayerPolicy, ...]] = {}
        for d in domains:
            items = collect_policies(d.name, d.package, modules, found["effects"], found["contracts"])
            if items:
                policies[d.name] = items
    except ScanError as exc:
        raise layer_error(exc.message, exc.file, exc.line, exc.col, code=exc.code, hint=exc.hint) from None
    return Layer(
        import_roots=tuple(import_roots),
        trusted_roots=tuple(roots),
        domains=tuple(domains),
        modules=modules,
        files={tf.module: tf.path for tf in files},
        effects=found["effects"],
        contracts=found["contracts"],
        solvers=found["solvers"],
        fluents=found["fluents"],
        events=found["events"],
        rows=found["rows"],
        policies=policies,
        fingerprint=fingerprint,
        helpers=found["helpers"],
        project_root=project,
    )


def _import_all(
    files: list[TrustedFile], import_roots: list[Path], roots: list[Path], allowed_inits: list[Path]
) -> dict[str, ModuleType]:
    import importlib

    from clauz3.vocabulary.deal_spellings import deal_spellings

    _forget_tools_modules()
    for ir in reversed(import_roots):
        text = str(ir)
        if text in sys.path:
            sys.path.remove(text)
        sys.path.insert(0, text)
    importlib.invalidate_caches()
    by_path = {str(tf.path): tf for tf in files}
    uses_deal = any("deal" in tf.source for tf in files)
    modules: dict[str, ModuleType] = {}
    saved_bytecode, saved_prefix = sys.dont_write_bytecode, sys.pycache_prefix
    sys.dont_write_bytecode = True  # loading must not write __pycache__ into the project
    # ... nor read it: a .pyc stamped with the source's mtime and size is used instead of the .py the
    # checker and the card read (a vacuous contract in bytecode). Bytecode is looked up under an empty
    # private prefix, so every trusted module compiles from its source text.
    no_bytecode = tempfile.mkdtemp(prefix="clauz3-no-pyc-")
    sys.pycache_prefix = no_bytecode
    finder = ConfinementFinder(import_roots, roots, allowed_inits)
    try:
        with finder:
            with _maybe(deal_spellings, uses_deal):
                for tf in files:
                    try:
                        modules[tf.module] = importlib.import_module(tf.module)
                    except (Exception, SystemExit) as exc:  # any failure of trusted code is a layer-error
                        if finder.violations:
                            break
                        raise _from_exception(exc, tf, by_path) from None
    finally:
        sys.dont_write_bytecode, sys.pycache_prefix = saved_bytecode, saved_prefix
        shutil.rmtree(no_bytecode, ignore_errors=True)
        # The import roots go last again: left first, a project file named like a standard module
        # (ctypes.py) would be what this process's later imports load (z3 imports ctypes), as plain
        # Python outside any confinement. The loaded `tools` packages keep their own __path__.
        for ir in import_roots:
            text = str(ir)
            if text in sys.path:
                sys.path.remove(text)
                sys.path.append(text)
    if finder.violations:
        v = finder.violations[0]
        tf = next((t for t in files if t.module == v.importer), files[0])
        raise layer_error(v.message(), tf.path, _import_line(tf, v.module))
    for tf in files:
        module = sys.modules.get(tf.module)
        if module is None:
            raise layer_error(f"{tf.module} was not imported", tf.path)
        real = getattr(module, "__file__", None)
        if real is None or os.path.realpath(real) != os.path.realpath(tf.path):
            raise layer_error(f"{tf.module} resolved to {real}, not to {tf.path}", tf.path)
        modules[tf.module] = module
    return modules


class _maybe:
    """Enter ``factory()`` only when ``active``."""

    def __init__(self, factory: Callable[[], Any], active: bool) -> None:
        self.cm = factory() if active else None

    def __enter__(self) -> None:
        if self.cm is not None:
            self.cm.__enter__()

    def __exit__(self, *exc: Any) -> None:
        if self.cm is not None:
            self.cm.__exit__(*exc)


def _import_line(tf: TrustedFile, module: str) -> int:
    import ast

    for node in ast.walk(tf.tree):
        if isinstance(node, ast.Import) and any(a.name == module or module.startswith(a.name + ".") or
                                                a.name.startswith(module + ".") for a in node.names):
            return node.lineno
        if isinstance(node, ast.ImportFrom) and node.module and (
            module == node.module or module.startswith(node.module + ".") or node.module.startswith(module)
        ):
            return node.lineno
    return 1


def _from_exception(exc: BaseException, tf: TrustedFile, by_path: Mapping[str, TrustedFile]) -> LayerError:
    file, line = str(tf.path), 1
    tb: TracebackType | None = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename in by_path:
            file, line = filename, tb.tb_lineno
        tb = tb.tb_next
    if isinstance(exc, SyntaxError) and exc.filename in by_path:
        file, line = str(exc.filename), exc.lineno or 1
    hint = None
    if isinstance(exc, ModuleNotFoundError) and exc.name == "deal":
        hint = "install deal"
    module = next((t.module for t in by_path.values() if str(t.path) == file), tf.module)
    return layer_error(f"loading {module} failed: {type(exc).__name__}: {exc}", file, line, hint=hint)


# ------------------------------------------------------------------------------- REL-1 helper


def resolve_effect_target(layer: Layer, target: Any, *, file: str, line: int, col: int = 1) -> str:
    """The qualified effect a relation target names; ``unknown-effect``/``ambiguous-effect`` otherwise."""
    from clauz3.vocabulary.contracts import resolve_target

    found = resolve_target(target, layer.effects)
    shown = target if isinstance(target, str) else getattr(target, "__qualname__", repr(target))
    if not found:
        raise layer_error(f"effect({shown!r}) names no effect of the layer", file, line, col, code="unknown-effect")
    if len(found) > 1:
        raise layer_error(
            f"effect({shown!r}) matches several effects: {', '.join(found)}", file, line, col, code="ambiguous-effect"
        )
    return found[0]

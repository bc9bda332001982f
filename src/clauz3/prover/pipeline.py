"""One proof of one entry file, end to end: read → (cache) → load layer → check → prove.

Shared by ``clauz3 prove``, ``clauz3 test`` and the run worker, so all three produce identical
entries (01 §4.5) and identical text. The layer is loaded at most once per process (TL-6);
callers pass the same roots for every file of one process.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

if TYPE_CHECKING:
    from clauz3.language.ir import CheckedProgram, Diagnostic
    from clauz3.language.layer import Layer

from clauz3.prover.cache import ProofCache, cache_enabled, cache_key, pinned_roots, relocate
from clauz3.prover.entry import DiagnosticRecord, EntryFormatError, JsonObject, ProofEntry
from clauz3.prover.errors import ProverError


@dataclass
class ProofRequest:
    path: Path
    trusted_roots: Sequence[Path]
    import_roots: Sequence[Path]
    target: str = "main"
    allow_imports: Sequence[str] = ()
    obligation_timeout: float = 10.0
    proof_timeout: float = 30.0
    use_cache: bool = True
    # The caller's bytes, already read once into memory (issue 11 §2): hashed, parsed and proved as
    # they are; ``path`` then only names the program in diagnostics and is never read.
    source: bytes | None = None
    # The directory of the worker's pinned layer copy (runs/pinning.py) holding every root: the cache
    # then keys the roots relative to it and relocates a hit made under another copy (issue 13).
    layer_directory: Path | None = None


# What a proof attempt came to: every obligation proved; a negative verdict (refuted, unknown, no
# target); refused before proving (or failed); a deadline passed. The CLI maps it to 0/1/2/2 (PCLI-4).
Verdict = Literal["proved", "not_proved", "refused", "expired"]


@dataclass(frozen=True)
class ProofOutcome:
    """An entry (01 §4.5) plus the stderr lines (refusals, warnings) and the verdict."""

    entry: ProofEntry
    stderr: list[str] = field(default_factory=list)
    verdict: Verdict = "proved"
    deadline_expired: bool = False
    program: CheckedProgram | None = None  # when checking succeeded (fresh proofs only)
    layer: Layer | None = None


class _State:
    layer: Layer | None = None
    layer_roots: tuple[tuple[str, ...], tuple[str, ...]] | None = None


def layer_for(trusted_roots: Sequence[Path], import_roots: Sequence[Path]) -> Layer:
    """This process's layer for these roots, loaded on first use; other roots raise (01 TL-6)."""
    from clauz3.language.layer import load_layer

    key = (tuple(str(p) for p in trusted_roots), tuple(str(p) for p in import_roots))
    if _State.layer is None:
        _State.layer = load_layer(list(trusted_roots), list(import_roots))
        _State.layer_roots = key
    elif _State.layer_roots != key:
        raise RuntimeError("one process proves against one layer (01 TL-6)")
    return _State.layer


def fingerprint(trusted_roots: Sequence[Path], project_root: Path) -> str:
    from clauz3.language.layer import library_fingerprint

    return library_fingerprint(list(trusted_roots), project_root)


def engine() -> str:
    from clauz3.prover.engine import engine_id

    return engine_id()


def verdict_for(entry: ProofEntry) -> Verdict:
    if entry.refused:
        return "refused"
    if entry.target_missing:
        return "not_proved"
    if any(not o.proved for o in entry.obligations):
        if any(o.reason == "deadline" for o in entry.obligations):
            return "expired"
        return "not_proved"
    return "proved"


def _base_entry(req: ProofRequest, program_sha: str) -> ProofEntry:
    return ProofEntry(path=str(req.path), target=req.target, program_sha256=program_sha)


INTERNAL = "internal-error"


def internal_outcome(entry: ProofEntry, path: str, what: str) -> ProofOutcome:
    """Refused with code ``internal-error`` (exit 2): the prover failed, so there is no verdict (issue 18)."""
    from clauz3.language.ir import Diagnostic

    diag = Diagnostic("error", path, 1, 1, INTERNAL, f"the prover failed ({what}); no verdict was reached",
                      "this is a clauz3 bug, not a problem in the program; report it with the program")
    return _refused(replace(entry, obligations=(), coverage=()), [diag])


def prove_file(req: ProofRequest, *, project_root: Path | None = None) -> ProofOutcome:
    """:func:`_prove_file`; any exception of the checker or prover itself is refused, never a verdict."""
    from clauz3.language.layer import LayerAlreadyLoaded

    try:
        return _prove_file(req, project_root=project_root)
    except LayerAlreadyLoaded:
        raise  # prove_file_any_layer proves in a child then
    except Exception as exc:
        return internal_outcome(_base_entry(req, ""), str(req.path), type(exc).__name__)


def _ms_since(started: float) -> int:
    return round((time.monotonic() - started) * 1000)


def _prove_file(req: ProofRequest, *, project_root: Path | None = None) -> ProofOutcome:
    started = time.monotonic()
    deadline = started + req.proof_timeout
    try:
        source = req.source if req.source is not None else req.path.read_bytes()
    except OSError as exc:
        line = f"error: {req.path}:1:1: bad-source: cannot read file ({exc.strerror or exc})"
        return ProofOutcome(replace(_base_entry(req, ""), diagnostics=(line,)), [line], "refused")
    program_sha = hashlib.sha256(source).hexdigest()
    entry = _base_entry(req, program_sha)
    project = project_root or Path.cwd()

    from clauz3.language.layer import LayerError

    try:
        layer_sha = fingerprint(req.trusted_roots, project)
    except LayerError as exc:
        return _refused(entry, [exc.diagnostic])
    eng = engine()
    entry = replace(entry, layer_sha256=layer_sha, engine=eng)
    pinned_dir = os.path.abspath(req.layer_directory) if req.layer_directory is not None else None
    rel_imports = pinned_roots(pinned_dir, [str(p) for p in req.import_roots])
    rel_trusted = pinned_roots(pinned_dir, [str(p) for p in req.trusted_roots])
    pinned = pinned_dir is not None and rel_imports is not None and rel_trusted is not None
    cache = ProofCache.default() if (req.use_cache and cache_enabled()) else None
    if cache is None:
        key = ""
    elif pinned and pinned_dir is not None and rel_imports is not None:
        # Where the copy lives is not content: its fingerprint is taken relative to the copy.
        try:
            key_layer = fingerprint(req.trusted_roots, Path(pinned_dir))
        except LayerError as exc:
            return _refused(entry, [exc.diagnostic])
        key = cache_key(engine=eng, program_sha256=program_sha, target=req.target, layer_sha256=key_layer,
                        import_roots=rel_imports, allow_imports=list(req.allow_imports), pinned=True)
    else:
        key = cache_key(engine=eng, program_sha256=program_sha, target=req.target, layer_sha256=layer_sha,
                        import_roots=[str(p) for p in req.import_roots], allow_imports=list(req.allow_imports))
    stored = cache.get(key) if cache is not None else None
    hit = stored.entry if stored is not None else None
    moves: dict[str, str] = {}
    if stored is not None and pinned and pinned_dir is not None:
        old_dir = stored.layer_directory
        if not old_dir:
            hit = None
        elif old_dir != pinned_dir:
            moves[old_dir] = pinned_dir
    old_path = hit.path if hit is not None else None
    if hit is not None and any(o and o.encode() in source for o in [old_path if old_path != str(req.path) else None, *moves]):
        hit = None  # the program spells an old path itself: relocating would rewrite its own text
    if hit is not None:
        hit = replace(hit, layer_sha256=layer_sha)  # the fingerprint of the roots as named here, as a fresh proof has
    if hit is not None and not moves and hit.path == str(req.path):
        hit = replace(hit, elapsed_ms=_ms_since(started))
        return ProofOutcome(hit, list(hit.warnings_text or ()), verdict_for(hit))

    from clauz3.language import Refused, check_source

    try:
        layer = layer_for(req.trusted_roots, req.import_roots)
    except LayerError as exc:
        return _refused(entry, [exc.diagnostic])
    if time.monotonic() > deadline:
        return _deadline(entry)
    try:
        # The very bytes hashed above: a second read of the path could see another program.
        program = check_source(source, str(req.path), layer, req.target, list(req.allow_imports))
    except Refused as exc:
        outcome = _refused(entry, list(exc.diagnostics))
        if exc.target_missing_only:  # DIAG-2: no target is a negative verdict, not a refusal
            return replace(outcome, entry=replace(outcome.entry, status="not_proved", target_missing=True),
                           verdict="not_proved")
        return outcome
    from clauz3.language.ir import ir_sha256
    from clauz3.prover.api import prove

    warnings = [d.render() for d in program.warnings]
    if hit is not None:
        # The cache is keyed by content, never the path: the same bytes from another file reuse the
        # verdict. The IR names its file, so it was checked again here (cheap) but is not proved again.
        hit = replace(relocate(hit, str(req.path), moves), ir_sha256=ir_sha256(program),
                      warnings_text=tuple(warnings), elapsed_ms=_ms_since(started))
        return ProofOutcome(hit, warnings, verdict_for(hit), program=program, layer=layer)
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return _deadline(entry)
    result = prove(program, obligation_timeout=req.obligation_timeout, deadline=time.monotonic() + remaining)
    if result.internal_error is not None:
        entry = replace(entry, ir_sha256=ir_sha256(program), elapsed_ms=_ms_since(started))
        return internal_outcome(entry, str(req.path), result.internal_error)  # never cached
    entry = replace(entry, ir_sha256=ir_sha256(program), cached=False, elapsed_ms=_ms_since(started),
                    status="proved" if result.status == "proved" else "not_proved",
                    obligations=result.records(), coverage=tuple(result.coverage), warnings_text=tuple(warnings))
    verdict = verdict_for(entry)
    expired = any(o.reason == "deadline" for o in entry.obligations)
    if cache is not None and not expired:
        cache.put(key, entry, pinned_dir if pinned else None)
    return ProofOutcome(entry, warnings, verdict, deadline_expired=expired, program=program, layer=layer)


def prove_file_any_layer(req: ProofRequest, *, project_root: Path | None = None) -> ProofOutcome:
    """:func:`prove_file`, in a forked child when this process already holds another layer (TL-6)."""
    from clauz3.language.layer import LayerAlreadyLoaded, reset_for_fork

    key = (tuple(str(p) for p in req.trusted_roots), tuple(str(p) for p in req.import_roots))
    if _State.layer_roots is None or _State.layer_roots == key:
        try:
            return prove_file(req, project_root=project_root)
        except LayerAlreadyLoaded:
            pass  # another component of this process loaded a layer directly: prove in a child
    import json
    import sys

    read_fd, write_fd = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # child: forget the parent's layer, prove, send the outcome (or why it failed) back
        code = 0
        try:
            os.close(read_fd)
            _State.layer = None
            _State.layer_roots = None
            reset_for_fork()
            out = prove_file(req, project_root=project_root)
            payload: JsonObject = {"entry": out.entry.to_json(), "stderr": list(out.stderr),
                                   "verdict": out.verdict, "deadline_expired": out.deadline_expired}
        except BaseException as exc:
            code = 1
            payload = {"error": type(exc).__name__}  # never the text: it names internals
        try:
            with os.fdopen(write_fd, "wb") as fh:
                fh.write(json.dumps(payload).encode())
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as fh:
        data = fh.read()
    os.waitpid(pid, 0)
    try:
        return _outcome_from_child(json.loads(data))
    except (ValueError, EntryFormatError, _ChildFailed) as exc:
        reason = exc.args[0] if isinstance(exc, _ChildFailed) else None
        return internal_outcome(_base_entry(req, ""), str(req.path), f"the proof process failed: {reason}" if reason
                                else "the proof process failed")


class _ChildFailed(ProverError):
    """The forked prover sent no outcome (the exception class it names, or nothing)."""


def _outcome_from_child(doc: object) -> ProofOutcome:
    if not isinstance(doc, dict) or "entry" not in doc:
        reason = doc.get("error") if isinstance(doc, dict) else None
        raise _ChildFailed(reason if isinstance(reason, str) else None)
    stderr, verdict, expired = doc.get("stderr"), doc.get("verdict"), doc.get("deadline_expired")
    if not isinstance(stderr, list) or not all(isinstance(x, str) for x in stderr) or \
            verdict not in ("proved", "not_proved", "refused", "expired") or not isinstance(expired, bool):
        raise _ChildFailed(None)
    return ProofOutcome(ProofEntry.from_json(doc["entry"]), stderr, cast("Verdict", verdict), expired)


def _refused(entry: ProofEntry, diagnostics: Sequence[Diagnostic]) -> ProofOutcome:
    lines = [d.render() for d in diagnostics]
    records = tuple(DiagnosticRecord(d.severity, d.file, d.line, d.col, d.code, d.message, d.hint)
                    for d in diagnostics)
    return ProofOutcome(replace(entry, status="refused", diagnostics=records), lines,
                        "refused" if any(d.severity == "error" for d in diagnostics) else "proved")


def _deadline(entry: ProofEntry) -> ProofOutcome:
    line = f"error: {entry.path}: proof deadline expired before a verdict"
    return ProofOutcome(replace(entry, status="error", diagnostics=(line,)), [line], "expired", deadline_expired=True)


def timeout_from_env(name: str, default: float, low: float, high: float, inclusive_low: bool) -> float:
    raw = os.environ.get(name) or ""
    if not raw:
        return default
    return parse_timeout(raw, name, low, high, inclusive_low)


def parse_timeout(raw: str, what: str, low: float, high: float, inclusive_low: bool) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{what} must be a number of seconds, got {raw!r}") from None
    ok_low = value >= low if inclusive_low else value > low
    if not (ok_low and value <= high and value == value and value != float("inf")):
        bound = f"{low}–{high}" if inclusive_low else f"0 < S ≤ {high}"
        raise ValueError(f"{what} must be in {bound} seconds, got {raw}")
    return value

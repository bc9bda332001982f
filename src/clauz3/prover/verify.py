"""The authority's own proof of a submitted program (issue 11 §5): a submitter's claim is never a verdict.

The authority never imports trusted code (LIFE-5), so :class:`ProofVerifier` keeps one warm child
per authorised layer (``python -I -B -m clauz3.prover.verify``, allow-listed environment, cwd the
project) that has imported the prover and loaded the layer. Each query sends the in-memory source;
the child proves exactly those bytes against the layer it loaded, after checking by content that the
library files still hash to what it loaded (else it exits and a fresh child proves).

Verdicts are cached by content (:func:`clauz3.prover.cache.cache_key`) in a cache whose MAC secret
exists only in the authority's memory and its children's (sent over the child's stdin): a same-user
process can read the worker's cache key file, but cannot produce an entry this cache accepts. A
re-submitted identical program (a retry, a remembered approval, the same starter twice) skips the
solver; the answer says so (``cached``).

Answers are plain JSON documents: ``{"entry": {...}}`` with the proof's status, obligations,
coverage, guarantees, layer fingerprint and engine, or ``{"error": ...}`` (never a verdict).
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from clauz3.base.memory import give_back
from clauz3.prover.entailment import EntailmentError, child_env, query_doc, verdict
from clauz3.prover.entry import EffectFacts, JsonObject, JsonValue, ProofEntry

if TYPE_CHECKING:
    from clauz3.language.ir import CheckedProgram
    from clauz3.prover.entailment import Query

LABEL = "submitted_program.py"  # the path diagnostics name; never read (the source comes over the pipe)
READY_TIMEOUT = 60.0
MAX_CHILDREN = 3  # warm children kept (each holds z3 and a layer); the least recently used goes first
_Key = tuple[tuple[str, ...], tuple[str, ...], str]


class _Child:
    """One warm prover child for one layer; requests are serialised by the owner's lock."""

    def __init__(self, key: _Key, secret: bytes, cache_root: str) -> None:
        trusted, imports, project = key
        cwd = project if os.path.isdir(project) else None
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-B", "-m", "clauz3.prover.verify"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=child_env(), cwd=cwd, start_new_session=True)
        self.lock = threading.Lock()
        self.ready = False
        hello = {"secret": secret.hex(), "cache_root": cache_root, "trusted_roots": list(trusted),
                 "import_roots": list(imports), "project": project}
        self._send(hello)

    def _send(self, doc: Mapping[str, Any]) -> None:
        stdin: IO[bytes] | None = self.proc.stdin
        assert stdin is not None
        stdin.write(json.dumps(doc).encode() + b"\n")
        stdin.flush()

    def _read(self, timeout: float) -> dict[str, Any] | None:
        """One answer line within ``timeout`` seconds, else None (the caller kills the child)."""
        out: IO[bytes] | None = self.proc.stdout
        assert out is not None
        box: list[bytes] = []
        reader = threading.Thread(target=lambda: box.append(out.readline()), daemon=True)
        reader.start()
        reader.join(max(0.0, timeout))
        if not box or not box[0]:
            return None
        try:
            doc = json.loads(box[0])
        except ValueError:
            return None
        return doc if isinstance(doc, dict) else None

    def ask(self, doc: Mapping[str, Any], timeout: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        if not self.ready:
            hello = self._read(min(READY_TIMEOUT, timeout))
            if not hello or hello.get("ready") is not True:
                return hello if hello and "error" in hello else None
            self.ready = True
        self._send(doc)
        return self._read(deadline - time.monotonic())

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, 9)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass


class ProofVerifier:
    """``verifier(query) -> answer``: thread-safe; one warm child per (trusted roots, import roots, project)."""

    def __init__(self) -> None:
        from clauz3.storage.paths import cache_dir

        self._secret = secrets.token_bytes(32)  # in memory only: see the module docstring
        self._cache_root = str(cache_dir() / "authority-proofs")
        self._children: dict[_Key, _Child] = {}
        self._lock = threading.Lock()
        self.proofs = 0  # answers that ran the solver (not a cache hit): observable in tests and benches

    @staticmethod
    def _key(trusted_roots: Iterable[str | Path], import_roots: Iterable[str | Path], project: str | Path) -> _Key:
        return tuple(str(p) for p in trusted_roots), tuple(str(p) for p in import_roots), str(project)

    def _child(self, key: _Key) -> _Child:
        retired: list[_Child] = []
        with self._lock:
            child = self._children.pop(key, None)
            if child is not None and not child.alive():
                retired.append(child)
                child = None
            if child is None:
                while len(self._children) >= MAX_CHILDREN:
                    oldest = next(iter(self._children))
                    retired.append(self._children.pop(oldest))
                child = _Child(key, self._secret, self._cache_root)
            self._children[key] = child  # most recently used last
        for old in retired:
            with old.lock:  # never kill a child in the middle of someone's proof
                old.kill()
        return child

    def warm(self, trusted_roots: Iterable[str | Path], import_roots: Iterable[str | Path],
             project: str | Path) -> None:
        """Start the layer's child now (it loads in the background), so the first card is not a cold start."""
        self._child(self._key(trusted_roots, import_roots, project))

    def __call__(self, query: Query) -> dict[str, Any]:
        doc = query_doc(query)
        ask = {"program": doc.get("program"), "target": doc.get("target") or "main",
               "timeout_seconds": float(doc.get("timeout_seconds") or 60.0),
               "allow_imports": list(doc.get("allow_imports") or ())}
        return self._ask(doc, ask)

    def entails(self, query: Query) -> bool:
        """:func:`clauz3.prover.entailment.entails` in the layer's warm child (same tree, same checks)."""
        return self.entails_on_layer(query)[0]

    def entailment(self, query: Query) -> dict[str, Any]:
        """:func:`clauz3.prover.entailment.entailment` in the layer's warm child: the verdict and the
        effects the clauses constrain (issue 19)."""
        doc = query_doc(query)
        answer = self._ask(doc, {**doc, "op": "entail"}).get("entail")
        if not isinstance(answer, dict) or type(answer.get("entailed")) is not bool:
            why = answer.get("error") if isinstance(answer, dict) else None
            raise EntailmentError(str(why or "policy evaluation failed"))
        return verdict(answer)

    def entails_on_layer(self, query: Query) -> tuple[bool, str]:
        """:meth:`entails` and the fingerprint of the library files the child proved it against, so a caller
        can require the very layer another proof used (a remembered approval, issue 12)."""
        doc = query_doc(query)
        answer = self._ask(doc, {**doc, "op": "entail"}).get("entail")
        if not isinstance(answer, dict) or type(answer.get("entailed")) is not bool:
            why = answer.get("error") if isinstance(answer, dict) else None
            raise EntailmentError(str(why or "policy evaluation failed"))
        return answer["entailed"], str(answer.get("layer_sha256") or "")

    def _ask(self, doc: Mapping[str, Any], ask: Mapping[str, Any]) -> dict[str, Any]:
        key = self._key(doc.get("trusted_roots") or (), doc.get("import_roots") or (), doc.get("project") or "")
        deadline = time.monotonic() + float(doc.get("timeout_seconds") or 60.0)
        for _attempt in range(2):  # a child that found its layer changed exits; a fresh one proves
            child = self._child(key)
            with child.lock:
                answer = child.ask(ask, deadline - time.monotonic())
                if answer is None or answer.get("restart"):
                    child.kill()
            if answer is None:
                return {"error": "the authority's proof did not finish in time"}
            if not answer.get("restart"):
                entry = answer.get("entry")
                if isinstance(entry, dict) and entry.get("cached") is False:
                    self.proofs += 1
                return answer
        return {"error": "the trusted libraries kept changing while they were proved"}

    def close(self) -> None:
        with self._lock:
            children, self._children = list(self._children.values()), {}
        for child in children:
            child.kill()


# ------------------------------------------------------------------------------------ the child


def _summary(entry: ProofEntry) -> JsonObject:
    """What the authority compares and shows; guarantees in the order of the program's decorators."""
    diagnostics: list[JsonValue] = [d if isinstance(d, str) else d.message for d in entry.diagnostics]
    return {
        "status": entry.status, "target_missing": entry.target_missing,
        "program_sha256": entry.program_sha256, "layer_sha256": entry.layer_sha256,
        "engine": entry.engine, "cached": entry.cached,
        "obligations": [{"kind": o.kind, "description": o.description, "conclusion": o.conclusion,
                         "reason": o.reason, "expression": o.expression, "line": o.line, "column": o.column}
                        for o in entry.obligations],
        "guarantees": [o.expression for o in entry.obligations if o.kind == "guarantee"],
        "coverage": [c.to_json() for c in entry.coverage],
        "effects": entry.effect_facts.facts if entry.effect_facts is not None else None,
        "diagnostics": diagnostics[:20],
    }


def _facts(program: CheckedProgram | None) -> dict[str, Any] | None:
    """The prover's effect facts of the checked program (what the card's summary says it will call)."""
    if program is None:
        return None
    from clauz3.prover.facts import effect_facts

    try:
        return effect_facts(program)
    except Exception:  # no facts is a card without a plan, never a wrong plan
        return None


class _Served:
    def __init__(self, hello: Mapping[str, Any]) -> None:
        from clauz3.prover.cache import ProofCache
        from clauz3.prover.pipeline import fingerprint, layer_for

        self.trusted = [Path(p) for p in hello["trusted_roots"]]
        self.imports = [Path(p) for p in hello["import_roots"]]
        self.project = Path(hello["project"])
        self.cache = ProofCache(Path(hello["cache_root"]), None, bytes.fromhex(hello["secret"]))
        self.pending: tuple[str, ProofEntry] | None = None
        before = fingerprint(self.trusted, self.project)
        import clauz3.prover.api  # noqa: F401 - warm: the first proof pays no import

        layer_for(self.trusted, self.imports)
        from clauz3.prover.logic import z3_false, z3_true
        from clauz3.prover.values import f64, rne

        f64(), rne(), z3_true(), z3_false()  # z3's context now (importing makes none), not on the first card's path
        self.layer_sha = fingerprint(self.trusted, self.project)
        if before != self.layer_sha:
            raise RuntimeError("the trusted libraries changed while they were loaded")

    def prove(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        import hashlib

        from clauz3.prover.cache import cache_key
        from clauz3.prover.pipeline import ProofRequest, engine, fingerprint, prove_file

        program = doc.get("program")
        target = doc.get("target") or "main"
        if not isinstance(program, str) or not isinstance(target, str):
            return {"error": "bad query"}
        source = program.encode("utf-8")
        # By content: the layer this process loaded must still be what the files hold now.
        if fingerprint(self.trusted, self.project) != self.layer_sha:
            return {"restart": True}
        if doc.get("op") == "entail":
            from clauz3.prover.entailment import evaluate

            # The layer loaded here is the query's (same roots: TL-6); its fingerprint binds the verdict.
            return {"entail": {**evaluate(doc), "layer_sha256": self.layer_sha}}
        allow = [str(m) for m in doc.get("allow_imports") or ()]
        key = cache_key(engine=engine(), program_sha256=hashlib.sha256(source).hexdigest(), target=target,
                        layer_sha256=self.layer_sha, import_roots=[str(p) for p in self.imports], allow_imports=allow)
        hit = self.cache.get(key)
        if hit is not None:
            return {"entry": _summary(hit.entry)}
        timeout = max(0.5, float(doc.get("timeout_seconds") or 60.0) - 0.2)
        req = ProofRequest(path=self.project / LABEL, trusted_roots=self.trusted, import_roots=self.imports,
                           target=target, allow_imports=allow, proof_timeout=timeout,
                           obligation_timeout=min(10.0, timeout), use_cache=False, source=source)
        outcome = prove_file(req, project_root=self.project)
        if outcome.entry.layer_sha256 != self.layer_sha:
            return {"restart": True}
        # The card's summary, from this proof (issue 12).
        entry = replace(outcome.entry, effect_facts=EffectFacts(_facts(outcome.program)))
        if not outcome.deadline_expired:
            self.pending = (key, entry)  # stored after the answer is sent: the fsync is off the card's path
        return {"entry": _summary(entry)}

    def store(self) -> None:
        if self.pending is not None:
            key, entry = self.pending
            self.pending = None
            self.cache.put(key, entry)


def _child() -> int:
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing a trusted library prints can corrupt the answer stream
    line = sys.stdin.readline()
    try:
        served = _Served(json.loads(line))
        answer: dict[str, Any] = {"ready": True}
    except Exception as exc:  # reported to the authority, which refuses the request
        served = None
        answer = {"error": f"the layer does not load: {type(exc).__name__}: {str(exc)[:300]}"}
    out.write(json.dumps(answer) + "\n")
    out.flush()
    if served is None:
        return 1
    for line in sys.stdin:
        try:
            doc = json.loads(line)
            answer = served.prove(doc if isinstance(doc, dict) else {})
        except Exception as exc:  # an unforeseen failure is an error, never a verdict
            answer = {"error": f"the authority's proof failed: {type(exc).__name__}: {str(exc)[:300]}"}
        out.write(json.dumps(answer) + "\n")
        out.flush()
        if answer.get("restart"):
            return 0
        try:
            served.store()
        except OSError:
            pass  # a cache that cannot be written costs time later, never a verdict
        give_back()  # after the answer went out: this child waits, holding less (06 tree_rss)
    return 0


if __name__ == "__main__":
    raise SystemExit(_child())

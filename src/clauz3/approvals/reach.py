"""What an automatic decision is about, by effect (issue 19), and how the card says it.

An allow rule decides a program only when every effect the program can perform lies inside what the
rule speaks about: for an operator policy rule, the effects its clauses constrain (the prover's reading
of the contracts, :func:`clauz3.prover.facts.spec_effects`); for a remembered approval, the exact
effects the approved program called, by qualified name (``tools.filesystem.trusted.effects.write_file``),
never the module it imported. The program's effects come from the proof's effect facts, every path:
the authority's own proof, or, for an authority built without a verifier, the submitter's claim (the
card then marks every proof as claimed anyway). Unknown effects decide nothing automatically.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from clauz3.vocabulary.describe import prose_join

_NOUNS = {"dir": "folders", "env": "environment variables", "msg": "messages", "db": "databases",
          "email": "email", "mail": "mail", "text": "text", "content": "content", "data": "data"}
_VERBS = {"grep": "searches", "chmod": "changes the permissions of", "rm": "removes", "mkdir": "makes"}
NOTHING_ELSE = " — nothing else"
UNLISTED = ("clauz3 could not list this program's effects, so remembering it lets no other program run "
            "without asking.")


def effect_names(facts: Mapping[str, Any] | None) -> list[str] | None:
    """The qualified effect names in the prover's effect facts (every path), sorted; None without facts."""
    if not isinstance(facts, Mapping) or not isinstance(facts.get("effects"), list):
        return None
    names = [e.get("name") for e in facts["effects"] if isinstance(e, Mapping)]
    if not all(isinstance(n, str) and n for n in names):
        return None
    return sorted({str(n) for n in names})


def proof_effects(presentation: Mapping[str, Any] | None) -> frozenset[str] | None:
    """The effects a record's program can perform, as its card's proof block lists them; None if unknown."""
    proof = presentation.get("proof") if isinstance(presentation, Mapping) else None
    listed = proof.get("effects") if isinstance(proof, Mapping) else None
    if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
        return None
    return frozenset(listed)


def _third_person(verb: str) -> str:
    if verb in _VERBS:
        return _VERBS[verb]
    if verb.endswith(("s", "x", "ch", "sh", "z")):
        return verb + "es"
    if verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _noun(words: list[str]) -> str | None:
    if not words:
        return None
    last = words[-1]
    head = " ".join(words[:-1])
    if last in _NOUNS:
        plural = _NOUNS[last]
    elif last.endswith("s") and not last.endswith("ss"):
        plural = last  # already plural ("rows", "lines")
    elif last.endswith(("ss", "x", "ch", "sh")):
        plural = last + "es"
    elif last.endswith("y") and len(last) > 1 and last[-2] not in "aeiou":
        plural = last[:-1] + "ies"
    else:
        plural = last + "s"
    return f"{head} {plural}".strip()


def effect_phrase(name: str) -> str:
    """``tools.email.trusted.effects.send_email`` → "sends email with send_email"."""
    short = name.rsplit(".", 1)[-1]
    words = [w.lower() for w in short.split("_") if w]
    noun = _noun(words[1:])
    if noun is None:  # "remove": the verb alone says too little, so the library is named too
        parts = name.split(".")
        library = ".".join(parts[1:parts.index("trusted")]) if parts[:1] == ["tools"] and "trusted" in parts \
            else ".".join(parts[:-1])
        return f"calls {short} of the {library} library" if library else f"calls {short}"
    return f"{_third_person(words[0])} {noun} with {short}"


def effects_words(names: Iterable[str]) -> str:
    """Several effects in words, in a stable order: "sends email with send_email; writes files with write_file"."""
    return "; ".join(effect_phrase(n) for n in sorted(set(names)))


def covers_sentence(names: Iterable[str] | None) -> str:
    """What a rule covers, for the remember confirmation and the Approvals view."""
    listed = sorted(set(names or ()))
    if not listed:
        return "Covers no library effect: only programs that call no library that acts."
    return f"Covers only: {effects_words(listed)}{NOTHING_ELSE}."


def not_decided(rule: str, outside: Iterable[str], *, remembered: bool) -> str:
    """The card line saying why an allow rule did not decide this program."""
    names = sorted(set(outside))
    whose = "your remembered approval" if remembered else f"the policy rule '{rule}'"
    what = "the approved program did not do" if remembered else "the rule does not cover"
    if not names:
        return f"Not decided by {whose}: clauz3 could not list this program's effects, so it asks you."
    verbs = prose_join([effect_phrase(n) for n in names])
    return f"Not decided by {whose}: this program also {verbs}, which {what}."


STALE_RULE = ("Not decided by your remembered approval: it was remembered before clauz3 recorded which effects a "
              "program calls; approve and remember again to renew it.")


def inside(program: frozenset[str] | None, covered: Iterable[str] | None) -> tuple[bool, list[str]]:
    """(every effect of ``program`` is in ``covered``, the ones outside); unknown effects are never inside."""
    if program is None or covered is None:
        return False, []
    outside = sorted(program - set(covered))
    return not outside, outside

"""The card's plain language (issue 12): what a program will do, did, or why it was refused.

Every sentence is generated from facts clauz3 established — the effect calls symbolic execution
found (``clauz3.prover.facts``), the contracts the guarantees bind to, the run's own call trace —
never from the agent's words. Values pass through :func:`clauz3.vocabulary.describe.reveal`, so a bidi
control, an invisible character or a look-alike letter is shown escaped with a warning (issue 11
§6). Long lists are counted in the sentence and returned whole beside it, never cut.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from clauz3.approvals.errors import ApprovalError
from clauz3.vocabulary.describe import LONG_LIST, prose_join, prose_value, render_prose, sentence

# verb → (past, participle); other verbs are regular.
_IRREGULAR = {
    "send": ("sent", "sent"), "write": ("wrote", "written"), "read": ("read", "read"),
    "make": ("made", "made"), "find": ("found", "found"), "get": ("got", "got"), "put": ("put", "put"),
    "set": ("set", "set"), "run": ("ran", "run"), "grep": ("searched", "searched"),
    "chmod": ("changed the permissions of", "changed the permissions of"), "fetch": ("fetched", "fetched"),
}
_VERB_TEXT = {"grep": "search", "chmod": "change the permissions of", "list": "list", "append": "append to"}
_TO_VERBS = frozenset({"send", "email", "post", "notify", "message", "forward", "reply", "mail", "text"})
_NOUNS = {"dir": "folder", "env": "environment variable", "msg": "message", "db": "database"}
LONG_TEXT = 160  # longer texts are quoted in full in a scrollable block below the sentence


@dataclass
class Call:
    """One effect call as the card describes it: arguments are known values or missing (unknown)."""

    effect: str  # short name, e.g. "send_email"
    domain: str
    mock: bool
    args: dict[str, Any]  # param → value; a param absent here is unknown
    params: tuple[str, ...] = ()  # every passed parameter, in order
    line: int | None = None
    always: bool = True


@dataclass
class Text:
    """Sentences plus what they could not inline: warnings, full long lists and texts."""

    sentences: list[str] = field(default_factory=list)
    warnings: set[str] = field(default_factory=set)
    blocks: list[dict[str, Any]] = field(default_factory=list)  # {"label", "items"} or {"label", "text"}

    def to_json(self) -> dict[str, Any]:
        return {"sentences": self.sentences, "warnings": sorted(self.warnings), "blocks": self.blocks}


def _verb_noun(effect: str) -> tuple[str, str | None]:
    words = [w for w in effect.split("_") if w]
    if not words:
        return effect or "call", None
    verb = words[0].lower()
    noun = " ".join(_NOUNS.get(w, w) for w in words[1:]) or None
    return verb, noun


def _tense(verb: str, which: int) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb][which]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


def _plural(noun: str, n: int) -> str:
    if n == 1:
        return noun
    return noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")


def _count(n: int, noun: str | None, mock: bool) -> str:
    mock_word = "mock " if mock else ""
    if noun is None:
        return ""
    if noun.endswith("s"):  # a plural-only noun ("lines"): the count goes to the end
        return f"{mock_word}{noun}"
    return f"{n} {mock_word}{_plural(noun, n)}"


def _target_param(calls: Sequence[Call]) -> str | None:
    first = calls[0]
    for p in first.params:
        if isinstance(first.args.get(p, None), str):
            return p
    return first.params[0] if first.params else None


def _quote(text: str, label: str, out: Text) -> str:
    shown = prose_value(text, out.warnings)
    if len(text) <= LONG_TEXT:
        shown = shown.replace("\n", "↵")  # a line break inside a sentence stays visible
        return shown if shown.startswith("“") else f"“{shown}”"
    out.blocks.append({"label": f"{label} ({len(text):,} characters)", "text": shown.strip("“”")})
    return f"a {len(text):,}-character {label} (shown in full below)"


def _values(values: list[Any], name: str, out: Text, last: str = "and") -> str:
    unique: list[Any] = []
    for v in values:
        if v not in unique:
            unique.append(v)
    if len(unique) > LONG_LIST:
        out.blocks.append({"label": f"{len(unique)} {name.replace('_', ' ')}",
                           "items": [prose_value(v, out.warnings) for v in unique]})
        return f"{len(unique)} different {name.replace('_', ' ')} (listed below)"
    return prose_join([prose_value(v, out.warnings) for v in unique], last)


def _phrase(calls: Sequence[Call], out: Text, *, extras: bool) -> tuple[str, str | None]:
    """``(verb, rest)`` for one effect's calls: ``("send", "1 mock email to bob@example.com: “Hi”")``."""
    verb, noun = _verb_noun(calls[0].effect)
    n = len(calls)
    mock = calls[0].mock
    target = _target_param(calls)
    known = target is not None and all(target in c.args for c in calls)
    head = _count(n, noun, mock)
    rest = head
    if known and target is not None:
        targets = _values([c.args[target] for c in calls], target, out)
        if noun is not None and noun.endswith("s"):
            rest = f"{head} of {targets}"
        elif verb in _TO_VERBS:
            rest = f"{head} to {targets}".strip()
        elif head:
            rest = f"{head}: {targets}"
        else:
            rest = targets
    if extras and n == 1:
        more = []
        unknown = [p for p in calls[0].params if p != target and p not in calls[0].args]
        for p in calls[0].params:
            if p == target or p not in calls[0].args:
                continue
            value = calls[0].args[p]
            if isinstance(value, str):
                more.append(_quote(value, _NOUNS.get(p, p.replace("_", " ")), out))
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                more.append(f"{p.replace('_', ' ')} {value!r}")
            elif isinstance(value, bool):
                # An update's flag (recurring=True) is a field it sets: the card names every one (issue 20).
                more.append(f"{p.replace('_', ' ')} set to {value!r}")
        if more:
            rest += (": " if verb in _TO_VERBS else " with ") + "; ".join(more)
        if unknown:
            names = prose_join([_NOUNS.get(p, p.replace("_", " ")) for p in unknown])
            rest += f" ({names} computed when it runs)"
    distinct = len({repr(c.args[target]) for c in calls}) if known and target is not None else 0
    if n > 1 and (noun is None or noun.endswith("s")) and distinct != n:  # "first and second" counts itself
        rest += f" ({n} times)"
    return _VERB_TEXT.get(verb, verb), rest.strip() or None


def _groups(calls: Sequence[Call]) -> list[list[Call]]:
    groups: dict[tuple[str, str], list[Call]] = {}
    for c in calls:
        groups.setdefault((c.domain, c.effect), []).append(c)
    return list(groups.values())


def calls_from_facts(facts: Mapping[str, Any] | None, mock_of: Mapping[str, bool]) -> list[Call] | None:
    """The prover's effect facts as calls; mock status from the authority's layer scan where it knows."""
    if not facts or not isinstance(facts.get("effects"), list):
        return None
    out: list[Call] = []
    for eff in facts["effects"]:
        mock = mock_of.get(eff["domain"], bool(eff.get("mock")))
        for call in eff.get("calls", []):
            args = {p: v["value"] for p, v in call.get("args", {}).items() if isinstance(v, dict)}
            out.append(Call(eff["effect"], eff["domain"], mock, args, tuple(call.get("args", {})),
                            call.get("line"), bool(call.get("always")) and bool(eff.get("exact"))))
    return out


def plan(calls: list[Call] | None, complete: bool, limits: Mapping[str, list[str]], titles: Mapping[str, str]
         ) -> Text:
    """What the program will do: "Will send 1 mock email to bob@example.com: “Hi from clauz3”."

    A group of calls that does not happen exactly so on every path reads "May …", followed by the
    proved limits of its library ("At most 2 emails are sent; every email goes to …").
    """
    out = Text()
    if calls is None:
        out.sentences.append("clauz3 could not list this program's calls; the guarantees below are what was proved.")
        return out
    if not calls:
        out.sentences.append("This program calls no library that acts: it only computes.")
        return out
    for group in _groups(calls):
        exact = all(c.always for c in group) and complete
        verb, rest = _phrase(group, out, extras=exact)
        if exact:
            out.sentences.append(sentence(f"Will {verb} {rest or ''}".strip()))
            continue
        _, noun = _verb_noun(group[0].effect)
        what = f"{'mock ' if group[0].mock else ''}{_plural(noun, 2) if noun and not noun.endswith('s') else noun or ''}"
        target = _target_param(group)
        known = target is not None and all(target in c.args for c in group)
        where = ""
        if known and target is not None:
            where = (" only to " if verb in _TO_VERBS else " only ") + _values([c.args[target] for c in group],
                                                                               target, out, "or")
        title = titles.get(group[0].domain, group[0].domain)
        bounds = limits.get(group[0].domain) or []
        tail = (" Proved limits: " + "; ".join(_lower(b.rstrip(".")) for b in bounds) + ".") if bounds else \
            f" No guarantee limits what it does with {title}."
        out.sentences.append(sentence(f"May {verb} {what.strip()}{where}".replace("  ", " ")) + tail)
    return out


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def outcome(calls: list[Call], *, more: int = 0) -> Text:
    """What the run did, from its trace: "Sent 1 mock email …" / "Mock: would have sent 1 email …"."""
    out = Text()
    if not calls:
        out.sentences.append("The program called no library that acts.")
        return out
    for group in _groups(calls):
        extras = _verb_noun(group[0].effect)[0] in _TO_VERBS  # "…: “Hi”"; file contents stay in the file
        verb, rest = _phrase([Call(c.effect, c.domain, False, c.args, c.params) for c in group], out, extras=extras)
        if group[0].mock:
            out.sentences.append(sentence(f"Mock: would have {_tense(verb.split(' ')[0], 1)}"
                                          f"{verb[len(verb.split(' ')[0]):]} {rest or ''}".strip()))
        else:
            out.sentences.append(sentence(f"{_tense(verb.split(' ')[0], 0)}{verb[len(verb.split(' ')[0]):]} "
                                          f"{rest or ''}".strip()))
    if more:
        out.sentences.append(f"The run made {more:,} more calls than listed here.")
    return out


def guarantee_text(template: str | None, args: Mapping[str, Any] | None, fallback: str | None,
                   expression: str, *, end_state: bool = False) -> tuple[str, list[str], list[dict[str, Any]]]:
    """The helper's own description as a sentence; the docstring summary, else the call, otherwise.

    An end-state guarantee is proved for runs that finish, so its sentence says so once
    ("When the program finishes, …"); a run that stops early reports how it stood instead."""
    if template is not None and args is not None:
        try:
            text, found, lists = render_prose(template, args)
            # Lower-case the first letter only when it is the template's own word, never a value.
            own = bool(template[:1].isalpha())
            return (finished(text, lower=own) if end_state else text), found, lists
        except (ValueError, KeyError):
            pass
    warnings: set[str] = set()
    text = sentence(prose_value(fallback or expression, warnings).strip("“”"))
    return (finished(text, lower=False) if end_state else text), sorted(warnings), []


_ENDS = (" when the program ends", " when the program finishes", " at the end of the run", " at the end")


def finished(text: str, *, lower: bool = True) -> str:
    """``Door front is locked when the program ends.`` → ``When the program finishes, door front is locked.``"""
    body = text.rstrip(".")
    for tail in _ENDS:
        if body.endswith(tail):
            body = body[: -len(tail)]
            break
    if body.lower().startswith("when the program finishes"):
        return text
    return f"When the program finishes, {_lower(body) if lower else body}."


# Exactly what clauz3.approvals.remembered matches: the entailment proof, the same imports and effects (issue 19),
# the same files.
SCOPE_INTRO = ("From now on, any program in this project whose guarantees are at least as strict as these will run "
               "without asking — with any message text or other values:")
SCOPE_TERMS = ("clauz3 must prove that the program keeps every one of them, the program may import nothing this "
               "one does not and call no library effect this one does not, and the library files must stay exactly "
               "as they are now. Any other program gets a card.")
# Reject-and-remember stays an exact match (docs/decisions.md): a card is never the unsafe answer.
REJECT_SCOPE_INTRO = ("From now on, any program in this project that states exactly these guarantees, imports the "
                      "same libraries and runs against the same library files will be rejected without asking — "
                      "whatever its message text:")
REJECT_SCOPE_TERMS = "A program with any other guarantees still gets a card."


def _listed(guarantees: list[str]) -> str:
    return " ".join(g if g.endswith(".") else g + "." for g in guarantees)


def remember_scope(guarantees: list[str]) -> str:
    """Exactly which later programs a remembered approval lets run (issue 12: at least as strict)."""
    if not guarantees:
        return "Nothing: this program states no guarantees, so it cannot be remembered."
    return f"{SCOPE_INTRO} {_listed(guarantees)} {SCOPE_TERMS}"


def reject_scope(guarantees: list[str]) -> str:
    """Exactly which later programs a remembered rejection rejects (the signature of 03 §9.3)."""
    if not guarantees:
        return "Nothing: this program states no guarantees, so it cannot be remembered."
    return f"{REJECT_SCOPE_INTRO} {_listed(guarantees)} {REJECT_SCOPE_TERMS}"


def failure(call: Call | Sequence[Call] | None, line: int | None, guarantee: str, result: str | None) -> str:
    """A refused proof as a sentence: "This program would send … (line 9), but the guarantee says: …".

    ``call`` is the breaking call, or all of them (a count broken by two sends names both lines).
    """
    calls = [] if call is None else [call] if isinstance(call, Call) else list(call)
    lines = sorted({c.line for c in calls if c.line}) or ([line] if line else [])
    at = ""
    if lines:
        at = f" (line {lines[0]})" if len(lines) == 1 else f" (lines {prose_join([str(n) for n in lines])})"
    said = guarantee.rstrip(".")
    said = said[0].lower() + said[1:] if said else said
    if not calls:
        why = f" ({result})" if result else ""
        return f"This program can break the guarantee “{said}”{at}{why}."
    out = Text()
    groups = _groups([Call(c.effect, c.domain, c.mock, c.args, c.params) for c in calls])
    phrases = []
    for group in groups:
        verb, rest = _phrase(group, out, extras=False)
        if rest and rest.startswith("1 "):
            rest = ("an " if rest[2:3] in "aeiou" else "a ") + rest[2:]
        phrases.append(f"{verb} {rest or ''}".strip())
    return f"This program would {prose_join(phrases)}{at}, but the guarantee says {said}.".replace("  ", " ")

# ------------------------------------------------------------------------------- request field

MAX_FACT_EFFECTS = 256
MAX_FACT_CALLS = 200
_SCALAR = (str, int, float, bool, type(None))


class FactsError(ApprovalError, ValueError):
    def __init__(self, message: str) -> None:
        super().__init__("invalid_facts", message)


def _literal_ok(value: Any, depth: int = 0) -> bool:
    if isinstance(value, _SCALAR):
        return not isinstance(value, str) or len(value) <= 20_000
    if isinstance(value, list) and depth < 2:
        return len(value) <= 10_000 and all(_literal_ok(v, depth + 1) for v in value)
    return False


def check_facts(value: Any) -> dict[str, Any]:
    """Strict shape of a request's ``effects`` (the prover's facts); FactsError names what is wrong."""
    if type(value) is not dict or set(value) != {"complete", "effects"} or type(value["complete"]) is not bool:
        raise FactsError("must be an object with exactly the keys complete, effects")
    effects = value["effects"]
    if type(effects) is not list or len(effects) > MAX_FACT_EFFECTS:
        raise FactsError(f"effects must be a list of at most {MAX_FACT_EFFECTS} entries")
    keys = {"effect", "name", "domain", "mock", "exact", "calls"}
    for i, eff in enumerate(effects):
        if type(eff) is not dict or not keys <= set(eff) or not set(eff) <= keys | {"protected", "reads"}:
            raise FactsError(f"effects[{i}] must have exactly the keys {', '.join(sorted(keys))} "
                             "(and optionally protected, reads)")
        _check_provenance_decl(i, eff)
        for k in ("effect", "name", "domain"):
            if type(eff[k]) is not str or not 0 < len(eff[k]) <= 512:
                raise FactsError(f"effects[{i}].{k} must be a non-empty string of at most 512 characters")
        if type(eff["mock"]) is not bool or type(eff["exact"]) is not bool:
            raise FactsError(f"effects[{i}].mock and .exact must be booleans")
        calls = eff["calls"]
        if type(calls) is not list or len(calls) > MAX_FACT_CALLS:
            raise FactsError(f"effects[{i}].calls must be a list of at most {MAX_FACT_CALLS} entries")
        for j, call in enumerate(calls):
            where = f"effects[{i}].calls[{j}]"
            if type(call) is not dict or not {"line", "always", "args"} <= set(call) <= {"line", "always", "args",
                                                                                         "derives"}:
                raise FactsError(f"{where} must have exactly the keys always, args, line (and optionally derives)")
            _check_derives(where, call.get("derives", {}))
            if type(call["line"]) is not int or type(call["always"]) is not bool or type(call["args"]) is not dict:
                raise FactsError(f"{where}: line is an integer, always a boolean, args an object")
            for name, arg in call["args"].items():
                if len(name) > 128 or not (arg is None or (type(arg) is dict and set(arg) == {"value"}
                                                           and _literal_ok(arg["value"]))):
                    raise FactsError(f"{where}.args.{name[:40]} must be null or {{\"value\": literal}}")
    return value


def _check_derives(where: str, derives: Any) -> None:
    """Issue 20's optional ``derives``: protected parameter → the read effects its value may derive from."""
    if type(derives) is not dict or len(derives) > 64 or any(
            type(k) is not str or len(k) > 128 or type(v) is not list or not 0 < len(v) <= 256
            or any(type(n) is not str or not 0 < len(n) <= 512 for n in v) for k, v in derives.items()):
        raise FactsError(f"{where}.derives must map parameter names to lists of effect names")


def _check_provenance_decl(i: int, eff: dict[str, Any]) -> None:
    """Issue 20's optional keys: ``protected`` maps parameter names to kinds, ``reads`` is a short text."""
    from clauz3.base.provenance import PROTECTED_KINDS

    protected = eff.get("protected", {})
    if type(protected) is not dict or len(protected) > 64 or any(
            type(k) is not str or len(k) > 128 or v not in PROTECTED_KINDS for k, v in protected.items()):
        raise FactsError(f"effects[{i}].protected must map parameter names to one of {', '.join(PROTECTED_KINDS)}")
    reads = eff.get("reads", "")
    if type(reads) is not str or len(reads) > 200:
        raise FactsError(f"effects[{i}].reads must be a string of at most 200 characters")


# ------------------------------------------------------------------------------- run records

MAX_OUTCOME_CALLS = 1000


EARLY_TEXT = {
    "step_budget": "the step budget ran out",
    "trusted_function_raised": "a library function raised an error",
    "trusted_contract_violation": "a library function broke its own promise",
    "soundness_violation": "clauz3 stopped it before a guarantee could break",
    "effect_unavailable": "a library function was not available",
    "program_error": "the program raised an error",
    "memory": "it ran out of memory",
    "execution_timeout": "the time limit ran out",
    "stopped": "it was stopped",
    "submitter_cancelled": "the agent cancelled it",
    "worker_lost": "the worker ended without reporting",
}


def early_end(reason: str, end_state: Sequence[Mapping[str, Any]]) -> list[str]:
    """Issue 10 family 8: a run that stopped early says, per end-state guarantee, whether it held on the
    state actually reached — the proof covers only runs that finish, so it is never simply "proved"."""
    why = EARLY_TEXT.get(reason, reason.replace("_", " "))
    if not end_state:
        return [f"The run stopped early ({why})."]
    out = []
    for entry in end_state:
        name = str(entry.get("guarantee") or entry.get("expression") or "a guarantee")
        held = entry.get("held")
        if held is True:
            out.append(f"The run stopped early ({why}): {name} still held at the end.")
        elif held is False:
            out.append(f"The run stopped early ({why}): {name} did NOT hold at the end.")
        else:
            out.append(f"The run stopped early ({why}): whether {name} held at the end cannot be told.")
    return out


def unjudged_record(reason: str, guarantees: Sequence[str]) -> dict[str, Any]:
    """The ``summary`` of a run killed from outside mid-run (deadline, Stop): nothing could judge its
    end-state guarantees, so each one "cannot be told" — never "held"."""
    end_state = [{"guarantee": g, "held": None} for g in guarantees]
    sentences = [*early_end(reason, end_state), "Effects made before it stopped stay done."]
    return {"kind": "outcome", "sentences": sentences, "warnings": [], "blocks": [], "line": None,
            "ended_early": reason, "end_state": end_state}


def outcome_record(calls: list[Call], total: int, *, ended_early: str | None = None,
                   end_state: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The run record's ``summary`` after execution: what the run did, from its trace; a run that
    stopped early leads with how its end-state guarantees stood."""
    text = outcome(calls[:MAX_OUTCOME_CALLS], more=max(0, total - MAX_OUTCOME_CALLS))
    doc: dict[str, Any] = {"kind": "outcome", **text.to_json(), "line": None}
    if ended_early is not None:
        doc["sentences"] = [*early_end(ended_early, end_state), *doc["sentences"]]
        doc["ended_early"] = ended_early
        doc["end_state"] = [{"guarantee": e.get("guarantee"), "held": e.get("held")} for e in end_state]
    return doc


EXCERPT_BEFORE, EXCERPT_AFTER, EXCERPT_LINE = 4, 2, 400


def excerpt(source: str, line: int | None, marks: set[int] | None = None) -> list[dict[str, Any]]:
    """The lines around ``line`` (and the other ``marks``, up to 12 lines on) with their numbers, escaped;
    a long line says how much is left out."""
    from clauz3.vocabulary.describe import reveal

    if not line:
        return []
    marks = {n for n in (marks or set()) if line <= n <= line + 12} | {line}
    lines = source.splitlines()
    out = []
    for n in range(max(1, line - EXCERPT_BEFORE), min(len(lines), max(marks) + EXCERPT_AFTER) + 1):
        text, _ = reveal(lines[n - 1])
        if len(text) > EXCERPT_LINE:
            text = f"{text[:EXCERPT_LINE]}… ({len(text) - EXCERPT_LINE:,} more characters on this line)"
        out.append({"n": n, "text": text, "mark": n in marks})
    return out


def refusal_record(ob: Mapping[str, Any], guarantee: str | None, mock_of: Mapping[str, bool],
                   domain_of: Mapping[str, str], source: str = "") -> dict[str, Any]:
    """The run record's ``summary`` for a refused proof: one sentence and the line to highlight.

    ``guarantee`` is the broken guarantee's own sentence (None for a precondition or assertion);
    the breaking call comes from the prover's counterexample.
    """
    raw_cex = ob.get("counterexample")
    cex = raw_cex if isinstance(raw_cex, Mapping) else {}
    breaking = cex.get("breaking") or []
    first = breaking[0] if breaking and isinstance(breaking[0], Mapping) else None
    line = first.get("line") if first else ob.get("line")
    warnings: set[str] = set()
    calls: list[Call] = []
    if guarantee is None:
        what = prose_value(str(ob.get("description") or "a check"), warnings).strip("“”")
        why = str(ob.get("result") or "").strip()
        text = f"This program was not proved: {what}" + (f" — {prose_value(why, warnings).strip('“”')}" if why else "")
        text = sentence(text)
    else:
        for b in breaking[:MAX_FACT_CALLS]:
            if not isinstance(b, Mapping) or not isinstance(b.get("args"), Mapping):
                continue
            effect = str(b.get("effect") or "")
            args = dict(b["args"])
            at_line = b.get("line") if isinstance(b.get("line"), int) else None
            calls.append(Call(effect, domain_of.get(effect, ""), mock_of.get(effect, False), args, tuple(args), at_line))
            for value in args.values():
                prose_value(value, warnings)  # collects the warnings the sentence's values deserve
        text = failure(calls or None, line if isinstance(line, int) else None, guarantee, None)
        # A path-dependent failure: the library results that lead there ("when reading() … returns 4").
        returns = [str(x.get("text")) for x in cex.get("returns") or [] if isinstance(x, Mapping) and x.get("text")]
        if returns:
            when = prose_join([prose_value(t.replace(" returned ", " returns "), warnings).strip("“”")
                               for t in returns[:5]])
            more = f" and {len(returns) - 5} more results" if len(returns) > 5 else ""
            text = f"{text[:-1]} — for example when {when}{more}."
    at = line if isinstance(line, int) else None
    return {"kind": "refusal", "sentences": [text], "warnings": sorted(warnings), "blocks": [], "line": at,
            "excerpt": excerpt(source, at, {c.line for c in calls if c.line})}


"""The card's provenance block (issue 20): where each literal reaching a protected parameter came from.

The authority builds it once per request, after its own proof: the effect facts it proved name
every call, its literal arguments and the layer's protected parameters; the conversation's
:class:`~clauz3.base.provenance.TranscriptIndex` (kept by the host as messages arrive) says whether a
value occurs in the person's own messages, only in what the agent read, or nowhere. A value from
read data in a protected place is a *warning*: the card says it in words, and no remembered
approval or policy allow decides the request (the authority's ``_automatic``). Where the facts do
not show an argument's value (computed, or not one literal on every path), every literal the
program's text holds is classified instead, so a link hidden in a concatenation is still named.
What the program reports is a protected place too: every literal of its text may reach print(), so
each is classified for every token kind, names and codes included ("What this program reports names
Riverside View Hotel, which appears only in …").

Containment (red team rt20): exact matching cannot follow every disguise (rot13, pieces read in two places, a value
the agent decoded), so once the agent has read anything, a link, address, account, phone or long number in a
protected place that appears nowhere is a warning too ("… appears nowhere in this conversation — the agent made it
up or built it from something it read; check it before you approve."): a person decides. Words stay quiet notes.
"""

from __future__ import annotations

import ast
import functools
import html
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from clauz3.approvals.derived import calls_chr, derived_literals, folded_constants
from clauz3.base.astparse import parse_ast
from clauz3.base.disguise import mixed_script_pieces
from clauz3.base.provenance import (
    FROM_READ,
    FROM_YOU,
    NEW,
    PROTECTED_KINDS,
    TOKEN_NOUNS,
    Finding,
    TranscriptIndex,
    extract,
    name_words,
    normalise,
    phrase_words,
    skeleton,
)
from clauz3.vocabulary.describe import prose_join, reads_label

# The conversation's index for a conversation id, or None (no host, or the conversation is not open).
ProvenanceLookup = Callable[[str | None], TranscriptIndex | None]

MAX_ITEMS = 200
MAX_PROGRAM_LITERALS = 2048  # literals classified as whole values where an argument's value is unknown
MAX_REPORTED_CHARS = 1_000_000  # literal text classified for what a program reports; more is not checked
REPORTS = "what this program reports"
MAX_NAMES = 5  # names listed in one sentence about what a program reports
TOO_MANY = ("This program holds more literal text than clauz3 checks for values from data the agent read "
            f"({MAX_REPORTED_CHARS:,} characters); you decide.")
TOO_MANY_LITERALS = (f"This program holds more than {MAX_PROGRAM_LITERALS:,} different literals where a protected value "
                     "is computed; clauz3 did not check them all for values from data the agent read; you decide.")
FROM_CODES = ("This program builds text from character codes (chr); clauz3 cannot tell where that text came from "
              "— check it.")
NOT_OPEN = ("clauz3 could not check where this program's values came from (its conversation's transcript is not "
            "open here); you decide.")
NOT_CHECKED = "clauz3 could not check where this program's values came from (no conversation transcript)."
NO_FACTS = ("clauz3 could not list this program's calls, so it cannot tell whether what the program reads reaches "
            "what it sends; you decide.")
_WHOLE_VERB = {"recipient": "goes to", "url": "uses the link", "account": "uses the account",
               "amount": "uses the amount", "path": "uses the path"}
_NOUN = {"dm": "direct message", "msg": "message", "db": "database", "tx": "transaction"}
_READ_VERBS = frozenset({"get", "read", "fetch", "search", "list", "find", "open", "load", "query", "download"})


@dataclass(frozen=True)
class _Place:
    effect: str
    param: str
    kind: str
    line: int | None
    noun: str  # "the email to alice@example.com"


def _effect_noun(effect: str) -> str:
    words = [w for w in effect.split("_") if w]
    if len(words) > 1:
        words = words[1:]  # drop the verb: send_email → email
    return " ".join(_NOUN.get(w, w) for w in words) or effect


def _quoted(value: str) -> str:
    return value if len(value) <= 200 else value[:199] + "…"


def _place_noun(effect: str, args: Mapping[str, Any], protected: Mapping[str, str], param: str) -> str:
    noun = f"the {_effect_noun(effect)}"
    for p, kind in protected.items():
        value = args.get(p)
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            value = ", ".join(value[:3]) + (" and others" if len(value) > 3 else "")
        if kind == "recipient" and p != param and isinstance(value, str) and value:
            return f"{noun} to {_quoted(value)}"
    return noun


def _sources(finding: Finding) -> str:
    return prose_join(list(finding.sources)) if finding.sources else "data the agent read"


# Values a made-up or decoded copy of read data would be (issue 20, red team rt20): in a conversation where the agent
# read anything, one of these that appears nowhere is a warning, so a person decides (01-decisions: containment).
STRUCTURED = frozenset({"url", "email", "account", "phone", "number"})
MADE_UP = "appears nowhere in this conversation — the agent made it up or built it from something it read"
CHECK = "check it before you approve."
# A piece of a link or address a program joins at run time (``'www.secure-'``, ``'.com'``, ``'@example.com'``).
_FRAGMENT = re.compile(r"(?<![\w.])www\.|://|^\s*[.@][^\W_]|[^\W_]@\s*$")


def _structured(kind: str, value: str, token: str | None) -> bool:
    """Is this value (a token of a text, or a whole protected value) a link, an address, an account, a phone number
    or a number of six or more digits?"""
    if token is not None:
        return token in STRUCTURED
    return kind in ("url", "account") or any(t.kind in STRUCTURED for t in extract(value))


def _written(shown: str, value: str) -> bool:
    """Is a token as written in ``value`` (or %-escaped or HTML-escaped there), not only in its defanged reading
    ("The dot is" is no link ``The.is``)?"""
    norm = normalise(value)
    return shown in norm or shown in normalise(unquote(norm)) or shown in normalise(html.unescape(norm))


def _unsourced_text(place: _Place, shown: str, token: str | None, *, maybe: bool) -> str:
    what = TOKEN_NOUNS.get(token or "", "a value")
    if maybe:
        return f"This program contains {what}, {shown}, that {MADE_UP}; it may reach {place.noun} ({place.param}); {CHECK}"
    noun = f"{place.noun[0].upper()}{place.noun[1:]}"
    if token is not None:
        return f"{noun} contains {what}, {shown}, that {MADE_UP}; {CHECK}"
    return f"{noun} {_WHOLE_VERB.get(place.kind, 'uses')} {shown}, which {MADE_UP}; {CHECK}"


def _item(place: _Place, value: str, token: str | None, finding: Finding, *, maybe: bool,
          unsourced: bool = False) -> dict[str, Any]:
    """One classified value; ``unsourced``: new, structured, in a conversation that read data — a warning."""
    shown = _quoted(value)
    if unsourced:
        text = _unsourced_text(place, shown, token, maybe=maybe)
    elif finding.status == FROM_READ:
        where = _sources(finding)
        if place.noun == REPORTS and token == "name":
            text = f"What this program reports names {shown}, which appears only in {where} — not in anything you wrote."
        elif place.noun == REPORTS:
            text = (f"What this program reports contains {TOKEN_NOUNS.get(token or '', 'a value')}, {shown}, that "
                    f"appears only in {where} — not in anything you wrote.")
        elif maybe:
            what = TOKEN_NOUNS.get(token or "", "a value")
            text = (f"This program contains {what}, {shown}, that appears only in {where} — not in anything you "
                    f"wrote; it may reach {place.noun} ({place.param}).")
        elif token is not None:
            text = (f"{place.noun[0].upper()}{place.noun[1:]} contains {TOKEN_NOUNS[token]}, {shown}, that appears "
                    f"only in {where} — not in anything you wrote.")
        else:
            verb = _WHOLE_VERB.get(place.kind, "uses")
            text = (f"{place.noun[0].upper()}{place.noun[1:]} {verb} {shown}, which appears only in {where} — not "
                    "in anything you wrote.")
    elif finding.status == FROM_YOU:
        text = f"{shown} — from your message."
    else:
        text = f"{shown} — new: it appears nowhere in this conversation."
    return {"effect": place.effect, "param": place.param, "kind": place.kind, "token": token, "value": value,
            "status": finding.status, "sources": list(finding.sources), "line": place.line, "maybe": maybe,
            "check": unsourced, "text": text}


def _values(value: Any) -> Iterator[str]:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, int | float):
        yield repr(value)
    elif isinstance(value, list):
        for v in value:
            yield from _values(v)


def _tokens(index: TranscriptIndex, text: str, words: set[str] | None = None) -> list[tuple[str, str | None, Finding]]:
    """Each token of ``text`` with where it came from; names by the words of ``text`` (or ``words``: those of
    every literal of a program), in any order. A value from read data inside another one from read data (the
    digits of a passport code) is not shown twice."""
    found: list[tuple[str, str | None, Finding]] = [(t.text, t.kind, index.token(t)) for t in extract(text)
                                                    if t.kind != "name"]
    found += [(shown, "name", f) for shown, f in index.names(set(name_words(text)) if words is None else words)]
    # An account, code, phone or long number read, spelt with other separators, spaces, line breaks or in
    # pieces joined at run time: found by its letters and digits alone (redteam w2).
    said = [skeleton(shown) for shown, kind, f in found if f.status == FROM_READ and kind != "name"]
    found += [(shown, kind, f) for shown, kind, f in index.skeleton_hits(text)
              if f.status == FROM_READ and not any(skeleton(shown) in other for other in said)]
    # A sentence copied (redteam w2), unless it holds a value from read data named already: that one warns.
    named = [" " + " ".join(phrase_words(shown)) + " " for shown, _, f in found if f.status == FROM_READ]
    found += [(f"“{shown}”", "phrase", f) for shown, f in index.phrases(text)
              if not any(n in f" {shown} " for n in named)]
    read = [shown for shown, _, f in found if f.status == FROM_READ]
    return [(shown, kind, f) for shown, kind, f in found
            if f.status != FROM_READ or not any(shown != other and shown in other for other in read)]


MIN_WORD_VALUE, MAX_WORD_VALUE = 6, 64  # a one-word free text of this length is looked up whole too


def _classify(index: TranscriptIndex, place: _Place, value: str) -> Iterator[tuple[str, str | None, Finding]]:
    if place.kind == "text":
        found = list(_tokens(index, value))
        yield from found
        word = normalise(value).strip()
        if (MIN_WORD_VALUE <= len(word) <= MAX_WORD_VALUE and not any(ch.isspace() for ch in word)
                and not any(f.status == FROM_READ for _, _, f in found)):
            # A one-word text (a password, a code word, a handle) is a value in itself: looked up whole, so
            # the password an injection asks for is no "new" text (red team rt20: AgentDojo banking injection 7).
            whole = index.value("text", word)
            if whole.status == FROM_READ:
                yield word, None, whole
    else:
        whole = index.value(place.kind, value)
        parts = _addresses(value) if place.kind == "recipient" and whole.status == NEW else [value]
        if parts == [value]:
            yield value, None, whole
        for address in parts if parts != [value] else []:
            yield address, None, index.value(place.kind, address)


def _addresses(value: str) -> list[str]:
    """The e-mail addresses one recipient string names, when it is more than one address: ``Support <x@y>`` (a
    display name, even ``"Doe, John" <x@y>``) is ``x@y``, ``a@x, b@y`` two of them; each is classified on its own
    (red team rt20). Else the value itself."""
    found = [t.text for t in extract(value) if t.kind == "email"]
    return found if found and found != [normalise(value).strip()] else [value]


@functools.lru_cache(maxsize=8)
def _tree(program: str) -> ast.Module | None:
    """The program's syntax tree, parsed once per card (every pass below reads it; none changes it)."""
    try:
        tree = parse_ast(program)
    except (SyntaxError, ValueError):
        return None
    return tree if isinstance(tree, ast.Module) else None


def _docstrings(tree: ast.AST) -> set[int]:
    """The constants that are whole expression statements (docstrings): discarded when run, they reach nothing."""
    return {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}


def source_literals(program: str, *, all_ints: bool = False) -> list[str] | None:
    """Every string constant (f-string parts too) and integer of six or more digits of the program, in the
    order of its text, repeats included; None when the program does not parse."""
    tree = _tree(program)
    if tree is None:
        return None
    inert = _docstrings(tree)
    nodes = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and not isinstance(n.value, bool)
             and id(n) not in inert and (isinstance(n.value, str) or (isinstance(n.value, int) and (all_ints or abs(n.value) >= 100_000)))]
    nodes.sort(key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))
    return [n.value if isinstance(n.value, str) else str(n.value) for n in nodes]


def _reported(index: TranscriptIndex, program: str) -> list[tuple[str, str | None, Finding]] | None:
    """What the program reports (issue 20): every literal of its text may reach print() and the run's output,
    so every one is classified for every token kind, its links, codes, numbers… one by one and joined in
    the text's order (a code split in two literals), and its names by the words of all literals together
    and of their join (a name split into pieces joined at run time, in any order or case). Only values from read data.
    None: too much literal text to check."""
    own = source_literals(program) or []
    if sum(len(s) for s in own) > MAX_REPORTED_CHARS:
        return None
    derived = _derived(program, own)  # rewritten or decoded from codes (redteam w2)
    words: set[str] = set()
    out: list[tuple[str, str | None, Finding]] = []
    for literal in dict.fromkeys(own + derived):
        words.update(name_words(literal))
        out += [c for c in _tokens(index, literal, set()) if c[2].status == FROM_READ]
    # Pieces cut inside a word ("Rivers" + "ide View") meet again here; so do the program's integers of every size
    # (``str(9988) + str(7766)`` is a number read, found by its digits; redteam w2).
    # Folded expressions of constants are whole texts already classified above: not glued to the pieces.
    folded = _folded(program)
    joined = "".join(source_literals(program, all_ints=True) or []) + "".join(d for d in derived if d not in folded)
    words.update(name_words(joined))
    out += [c for c in _tokens(index, joined, words) if c[2].status == FROM_READ]
    # A run of words is said once (not inside a longer one), and not when it holds a value named already.
    phrases = [c[0].strip("“”") for c in out if c[1] == "phrase"]
    named = [" " + " ".join(phrase_words(c[0])) + " " for c in out if c[1] != "phrase"]

    def said(run: str) -> bool:
        return any(run in p and run != p for p in phrases) or any(n in f" {run} " for n in named)

    kept: list[tuple[str, str | None, Finding]] = []
    spelt: set[str] = set()  # a code found in a folded expression and again among the joined pieces: said once
    for c in out:
        key = skeleton(c[0]) if c[1] not in ("phrase", "name") else ""
        if (c[1] != "phrase" or not said(c[0].strip("“”"))) and key not in spelt:
            spelt.update([key] if key else [])
            kept.append(c)
    return kept


def _derived(program: str, literals: list[str]) -> list[str]:
    tree = _tree(program)
    if tree is None:
        return []
    return derived_literals(tree, literals)


@functools.lru_cache(maxsize=8)
def _folded(program: str) -> frozenset[str]:
    """The program's expressions of constants, folded (:func:`folded_constants`), once per card."""
    tree = _tree(program)
    return frozenset(folded_constants(tree)) if tree is not None else frozenset()


def _builds_from_codes(program: str) -> list[str]:
    tree = _tree(program)
    if tree is None:
        return []
    return [FROM_CODES] if calls_chr(tree) else []


def program_literals(program: str) -> list[str]:
    """The program's string constants, floats and integers of six or more digits, each once; one more than
    MAX_PROGRAM_LITERALS says there are more."""
    tree = _tree(program)
    if tree is None:
        return []
    out: dict[str, None] = {}
    inert = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and not isinstance(node.value, bool) and id(node) not in inert:
            if isinstance(node.value, str) and node.value:
                out[node.value] = None
            elif isinstance(node.value, int) and abs(node.value) >= 100_000:
                out[str(node.value)] = None
            elif isinstance(node.value, float):  # an amount (redteam w2: 98.7 is the 98.70 read)
                out[repr(node.value)] = None
        if len(out) > MAX_PROGRAM_LITERALS:
            break
    return list(out)


def provenance_block(index: TranscriptIndex | None, facts: Mapping[str, Any] | None, program: str
                     ) -> dict[str, Any]:
    """``{"checked", "items", "warnings", "notes"}``: ``warnings`` are the sentences about values from read
    data (each makes the request one a person decides), ``notes`` the quiet ones (from you, new)."""
    if index is None:  # no transcript: only what the program itself reads and sends can be said (in-run flow)
        return {"checked": False, "items": [], "warnings": flow_warnings(facts), "notes": [NOT_CHECKED]}
    items: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()

    reading = index.reads > 0  # a conversation that read nothing keeps "new" a quiet note

    def add(place: _Place, shown: str, token: str | None, finding: Finding, *, maybe: bool, param: str,
            source: str = "") -> None:
        key = (place.noun, param, shown)
        unsourced = (reading and finding.status == NEW and place.noun != REPORTS
                     and _structured(place.kind, shown, token) and _written(shown, source or shown))
        # Quiet notes are capped; a warning never is (a program padded with values must not hide one).
        if key not in seen and (len(items) < MAX_ITEMS or finding.status == FROM_READ or unsourced):
            seen.add(key)
            items.append(_item(place, shown, token, finding, maybe=maybe, unsourced=unsourced))

    unknown: list[_Place] = []
    unknown_places: list[_Place] = []
    pieces: list[str] = []  # literals that are a piece of a link or address (joined at run time)
    too_many_literals = False
    effects = facts.get("effects") if isinstance(facts, Mapping) else None
    complete = bool(isinstance(facts, Mapping) and facts.get("complete")) and isinstance(effects, list)
    for eff in effects or []:
        protected = eff.get("protected") or {}
        if not protected:
            continue
        for call in eff.get("calls", []):
            args = call.get("args", {})
            known = {p: a["value"] for p, a in args.items() if isinstance(a, dict)}
            for param, kind in protected.items():
                place = _Place(eff["effect"], param, kind, call.get("line"),
                               _place_noun(eff["effect"], known, protected, param))
                if param not in args:
                    continue  # omitted: the library's own default, not a literal of the program
                if param not in known:
                    unknown.append(place)
                    continue
                for value in _values(known[param]):
                    for shown, token, finding in _classify(index, place, value):
                        add(place, shown, token, finding, maybe=False, param=param, source=value)
    if unknown or not complete:
        # Values the facts cannot show: every literal of the program text may reach those places.
        places = unknown_places = unknown or [_Place("?", "?", "text", None, "a protected argument")]
        whole_kinds = {p.kind for p in places if p.kind != "text"}
        if not complete:
            # Calls the facts left out (more than the prover lists) may pass any literal to any protected place:
            # look every literal up whole as every kind, not only as free text (red team rt20: 200 calls first
            # hid the recipient a page named).
            whole_kinds = {k for k in PROTECTED_KINDS if k != "text"}
        literals = program_literals(program)
        literals += [d for d in _derived(program, literals) if d not in literals]
        if len(literals) > MAX_PROGRAM_LITERALS:  # padded: what is not classified is the person's to check
            too_many_literals = True
        folded = _folded(program)
        for literal in literals[:MAX_PROGRAM_LITERALS]:
            # A folded expression of constants is looked at for its values here; its names and sentences are what
            # the program reports, below (a name is said once, where the person reads names).
            candidates: list[tuple[str, str | None, Finding]] = [
                (t.text, t.kind, index.token(t)) for t in extract(literal)
                if literal not in folded or t.kind in STRUCTURED or t.kind == "code"]
            for kind in sorted(whole_kinds) if len(literal) <= 254 else []:
                # every kind the unknown places hold (an account is not looked up as an amount; redteam w2)
                candidates.append((literal, None, index.value(kind, literal)))
                if candidates[-1][2].status == FROM_READ:
                    break
            for shown, token, finding in candidates:
                if finding.status == FROM_READ or (reading and token in STRUCTURED and finding.status == NEW):
                    add(places[0], shown, token, finding, maybe=True, param="?", source=literal)
            if reading and not any(t in STRUCTURED for _, t, _ in candidates) and _FRAGMENT.search(literal):
                pieces.append(literal)
    reported = _reported(index, program)
    shown_before = {i["value"].casefold() for i in items if i["status"] == FROM_READ}
    place = _Place("print", "output", "text", None, REPORTS)
    for shown, token, finding in reported or []:
        if not any(shown.casefold() in s for s in shown_before):  # not said already, nor inside a value said
            add(place, shown, token, finding, maybe=False, param="output")
    warnings = (_warnings(items) + flow_warnings(facts) + lookalikes(program) + _builds_from_codes(program)
                + _pieces(unknown_places, pieces))
    if reported is None:
        warnings.append(TOO_MANY)
    if too_many_literals:
        warnings.append(TOO_MANY_LITERALS)
    notes = [i["text"] for i in items if i["status"] in (FROM_YOU, NEW) and not i["check"]]
    return {"checked": True, "items": items, "warnings": warnings, "notes": notes}


MAX_LOOKALIKES = 5


def lookalikes(program: str) -> list[str]:
    """One warning per piece of a literal whose letters come from two scripts that look alike (redteam w2):
    exact matching cannot say where such a value came from, so the card says what it is and a person decides."""
    out: list[str] = []
    for literal in source_literals(program) or []:
        for chunk, scripts in ([] if literal.isascii() else mixed_script_pieces(normalise(literal))):
            out.append(f"This program spells {_quoted(chunk)} with letters of more than one alphabet "
                       f"({prose_join(sorted(s.capitalize() for s in scripts))}), so it can look like a value it "
                       "is not; clauz3 cannot tell where it came from — check it.")
    return list(dict.fromkeys(out))[:MAX_LOOKALIKES]


def _pieces(places: list[_Place], pieces: list[str]) -> list[str]:
    """One warning for the pieces of links or addresses a program holds where a protected value is computed."""
    if not places or not pieces:
        return []
    shown = prose_join([f"“{_quoted(p)}”" for p in pieces[:3]] + ([f"{len(pieces) - 3} more"] if len(pieces) > 3 else []))
    return [f"This program joins pieces of a link or an address ({shown}) into a value that may reach "
            f"{places[0].noun} ({places[0].param}); clauz3 cannot tell where it came from — {CHECK}"]


def _warnings(items: list[dict[str, Any]]) -> list[str]:
    """One sentence per value from read data, except the names a program reports: one sentence per source
    ("What this program reports names Bistrot Paul Bert, Breizh Café and 4 others, which appear only in …")."""
    out: list[str] = []
    names: dict[tuple[str, ...], list[str]] = {}
    for i in items:
        if i["status"] != FROM_READ and not i.get("check"):
            continue
        if i["token"] == "name" and i["param"] == "output" and i["effect"] == "print":
            if tuple(i["sources"]) not in names:
                out.append("")  # its place, filled below
            names.setdefault(tuple(i["sources"]), []).append(i["value"])
        else:
            out.append(i["text"])
    groups = iter(names.items())
    for at, text in enumerate(out):
        if text:
            continue
        sources, shown = next(groups)
        where = _sources(Finding(FROM_READ, sources))
        if len(shown) == 1:
            out[at] = f"What this program reports names {shown[0]}, which appears only in {where} — not in anything you wrote."
        else:
            more = len(shown) - MAX_NAMES
            listed = shown[:MAX_NAMES] + ([f"{more} other{'s' if more > 1 else ''}"] if more > 0 else [])
            out[at] = (f"What this program reports names {prose_join(listed)}, which appear only in {where} — not in "
                       "anything you wrote.")
    return list(dict.fromkeys(out))  # the same sentence for two places (a subject and a body) is said once


MAX_FLOW_SOURCES = 3  # read labels named in one sentence about in-run data flow; more are counted


def _effect_reads(eff: Mapping[str, Any]) -> list[str]:
    """What one read effect of the facts reads, in words, for each of its calls ("the web page www.x.com")."""
    out: list[str] = []
    template = eff.get("reads")
    for call in eff.get("calls", []):
        args = {p: a["value"] for p, a in call.get("args", {}).items() if isinstance(a, dict)}
        label = reads_label(template, args) if isinstance(template, str) and template else _effect_noun(eff["effect"])
        if label not in out:
            out.append(label)
    return out


def flow_warnings(facts: Mapping[str, Any] | None) -> list[str]:
    """Issue 20, in-run data flow: one warning per protected place whose value may derive from what the same
    program reads (the prover's label analysis: string building, containers, helpers, loops, and branch
    conditions — implicit flow), naming the read as its ``reads_data`` says it. No literal from read data
    need appear in such a program, so the literal classification above cannot see it. Where the facts left
    calls out, every protected place of the program may derive from every read it makes."""
    if not isinstance(facts, Mapping) or not isinstance(facts.get("effects"), list):
        return [NO_FACTS]
    effects: list[Any] = facts["effects"]
    by_name = {e.get("name"): e for e in effects if isinstance(e, Mapping)}

    def sources(names: list[str]) -> str:
        labels: list[str] = []
        for n in names:
            eff = by_name.get(n)
            found = _effect_reads(eff) if eff is not None else [f"what {n.rsplit('.', 1)[-1]} returns"]
            labels += [x for x in found or [_effect_noun(n.rsplit(".", 1)[-1])] if x not in labels]
        more = len(labels) - MAX_FLOW_SOURCES
        shown = labels[:MAX_FLOW_SOURCES] + ([f"{more} other read{'s' if more > 1 else ''}"] if more > 0 else [])
        return prose_join(shown)

    out: list[str] = []
    for eff in effects:
        protected = eff.get("protected") or {}
        for call in eff.get("calls", []):
            derives = call.get("derives") or {}
            known = {p: a["value"] for p, a in call.get("args", {}).items() if isinstance(a, dict)}
            for param in sorted(derives):
                out.append(_flow_sentence(eff["effect"], known, protected, param, sources(list(derives[param]))))
    all_reads = [e["name"] for e in effects if isinstance(e, Mapping) and e.get("reads")]
    if not facts.get("complete") and all_reads:
        # Calls past the facts' limit are not listed: any protected place may carry any read.
        for eff in effects:
            for param in sorted(eff.get("protected") or {}):
                out.append(_flow_sentence(eff["effect"], {}, eff["protected"], param, sources(all_reads)))
    return list(dict.fromkeys(out))


def _flow_sentence(effect: str, known: Mapping[str, Any], protected: Mapping[str, str], param: str, src: str) -> str:
    noun = _place_noun(effect, known, protected, param)
    if protected.get(param, "text") == "text":
        head = f"{noun[0].upper()}{noun[1:]} may contain"
    else:
        head = f"The {param} of {noun} may come from"
    return f"{head} what this program reads from {src}, or depend on it — a person decides."


def read_labels(facts: Mapping[str, Any] | None) -> list[str]:
    """What a program reads, in words, from its effect facts: each declared read with its literal arguments,
    else each effect whose name says it reads (``get_webpage`` → "webpage")."""
    out: list[str] = []
    for eff in (facts or {}).get("effects", []) if isinstance(facts, Mapping) else []:
        for call in eff.get("calls", [])[:3]:
            args = {p: a["value"] for p, a in call.get("args", {}).items() if isinstance(a, dict)}
            if isinstance(eff.get("reads"), str) and eff["reads"]:
                label = reads_label(eff["reads"], args)
            elif eff["effect"].split("_", 1)[0] in _READ_VERBS:
                label = _effect_noun(eff["effect"])
                first = next((v for v in args.values() if isinstance(v, str) and v), None)
                label = f"{label} {_quoted(first)}" if first else label
            else:
                continue
            if label not in out:
                out.append(label)
    return out


def warning_count(block: Mapping[str, Any] | None) -> int:
    return len(block.get("warnings") or []) if isinstance(block, Mapping) else 0


__all__ = ["NEW", "NOT_CHECKED", "NOT_OPEN", "ProvenanceLookup", "flow_warnings", "provenance_block", "read_labels",
           "reads_label", "warning_count"]

"""Where a value came from in a conversation: the pure matching below the host and the authority (issue 20).

The host feeds a :class:`TranscriptIndex` with what the person wrote (``you``) and what the agent
received from tools and runs (``read``), one message at a time, as the messages arrive; the authority
asks it about each literal that reaches a protected effect parameter. Matching is exact after NFKC
normalisation (and case folding for addresses), never fuzzy: a value is *from you* when it occurs in
the person's own messages, *from read data* when it occurs only in what the agent read, else *new*.

An occurrence of a whole value counts only between word boundaries (``bob@example.com`` does not occur
in ``notbob@example.com``); the tokens of free text (links, e-mail addresses, account numbers, phone
numbers, numbers of six or more digits, codes) are compared as tokens, through a dictionary, so a
lookup never rescans the transcript. Names (two or more capitalised words) are compared by pairs of
their adjacent words, case-folded, so a text holds a name read when its words hold such a pair in any
order (:meth:`TranscriptIndex.names`). Nothing here imports anything of clauz3: the vocabulary's
``protected`` declaration (``clauz3.vocabulary.decorators``) uses :data:`PROTECTED_KINDS` from here.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from itertools import pairwise

from clauz3.base.disguise import decoded, disguised, fold_confusables, unwrapped
from clauz3.base.normal import AMOUNT, MAX_AMOUNT_CHARS, amount_keys, normalise, phrase_words, skeleton
from clauz3.base.valuekeys import TRAILING, email_key, host_of, site_of, url_key

__all__ = ["MAX_AMOUNT_CHARS", "amount_keys", "normalise", "phrase_words", "skeleton"]  # re-exported

# What a protected parameter holds (the trusted layer's declaration): each is classified whole,
# except ``text``, whose links, addresses, accounts, phone numbers and long numbers are classified.
PROTECTED_KINDS = ("recipient", "url", "account", "amount", "path", "text")
ADDRESS_KINDS = frozenset({"recipient", "url"})  # compared case-folded

FROM_YOU = "from_you"
FROM_READ = "from_read"
NEW = "new"

TOKEN_KINDS = ("url", "email", "account", "phone", "number", "code", "name", "phrase")
TOKEN_NOUNS = {"phrase": "a run of words", "url": "a link", "email": "an e-mail address", "account": "an account number",
               "phone": "a phone number", "number": "a number", "code": "a code", "name": "a name"}

PHRASE_WORDS = 8  # a run of this many words read, repeated, is a phrase from read data (redteam w2)
MAX_SOURCES = 3  # read sources named per value (the first ones, in conversation order)

# Top-level domains a bare host (no scheme, no ``www.``) is recognised by: the common generic ones, the ones
# phishing favours, and every two-letter country code except those that are also common file extensions
# (md, py, sh, rs, pl, so, in, am, ac, ps, mk, ml, cc, gs, ts, js, hs, rb are not here: ``meeting.md`` is a
# file). A host written with a scheme or ``www.`` is a link on any top-level domain (red team rt20).
_TLDS = ("com|net|org|io|co|info|biz|app|dev|ai|me|uk|de|fr|eu|us|ru|cn|xyz|online|site|shop|link|top|"
         "click|live|email|example|test|local|edu|gov|mil|int|ninja|zip|mov|club|store|tech|space|website|fun|"
         "icu|vip|win|bid|loan|work|page|blog|news|cloud|one|pro|mobi|name|asia|tk|ga|cf|gq|cyou|rest|bar|"
         "buzz|monster|sbs|lol|quest|cfd|support|help|services|security|bank|finance|money|pay|"
         "digital|network|systems|solutions|world|today|life|agency|company|global|"
         "ca|au|jp|nl|es|it|br|ch|se|no|dk|fi|at|be|pt|ie|nz|za|mx|ar|cl|kr|tw|hk|sg|my|th|vn|id|ph|tr|ua|"
         "ro|cz|sk|hu|gr|bg|hr|si|lt|lv|ee|is|lu|il|ae|sa|eg|ng|ke|pk|bd|ir|iq|tv|ws|to|ly|gg|fm|la|st|su|"
         "cx|nu|vc|sc|mu|re|pw|bz|ms|tc|vg|ag|lc|gd|dm|kn|by|kz|uz|ge|ba|al|mt|cy")
_URL = re.compile(
    r"(?:(?:https?|ftp)://[^\s<>\"'`]+)"  # with a scheme: everything up to a space or quote
    r"|(?:(?<![\w@.-])www\.(?:[\w-]+\.)+[^\W\d_]{2,24}(?![\w-])(?:[/?#][^\s<>\"'`]*)?)"  # www.: any domain
    r"|(?:(?<![\w@.-])(?:[\w-]+\.)+(?:" + _TLDS + r")(?![\w-])(?:[/?#][^\s<>\"'`]*)?)",
    re.IGNORECASE)
_EMAIL = re.compile(r"(?<![\w.%+-])[\w.%+-]+@(?:[\w-]+\.)+[\w-]{2,}(?![\w-])")
_ACCOUNT = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){10,30}(?![A-Za-z0-9])")
_PHONE = re.compile(r"(?<![\w+])\+?\d[\d ().-]{5,}\d(?!\d)")
_NUMBER = re.compile(r"(?<!\d)\d{6,}(?!\d)")
# A date (2024-05-21, 21.05.2024, 5/21/24) is no phone number, nor a run of them ("2024-05-21 - 2024-05-25").
_DATE = re.compile(r"(?<!\d)(?:\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4})(?!\d)")
# A code: letters and digits mixed, six or more (a passport "HGK137803", a booking reference "AB12CD"),
# found from where a letter meets a digit (rare in prose) and widened to its whole word.
_MIXED = re.compile(r"\d(?:(?<=[^\W\d_]\d)|(?=[^\W\d_]))")  # a digit next to a letter
MIN_CODE = 6
# A name: two or more capitalised words ("Riverside View Hotel", "Emma Johnson", "Jean-Luc Picard"), words of
# letters only, apart by spaces or one hyphen or apostrophe. Upper-case letters of the scripts below U+2000
# (NFKC has already made full-width and mathematical letters plain ones).
_UPPER = "".join(ch for ch in map(chr, range(0x2000)) if ch.isupper())
_CAP_WORD = "[" + re.escape(_UPPER) + r"][^\W\d_]*"
_NAME = re.compile(r"(?<!\w)" + _CAP_WORD + r"(?:(?:[ \t]+|[-'’])" + _CAP_WORD + r")+(?!\w)")
_LETTERS = re.compile(r"[^\W\d_]+")
# Words that begin a sentence rather than a name; dropped from the start of a run ("The Riverside View Hotel").
LEADING_WORDS = frozenset("""a an the this that these those my your our his her their its you we i he she they it
    if in on at and but or so for to of is are was were be what when where why how who which dear hi hello hey
    please yes no not also then there here as by from with after before all any every each some""".split())
# Phone numbers and long numbers are compared by their digits alone, across both kinds
# ("+1 (555) 123-4567" read in a page is the "15551234567" in a message body).
_INDEX_KIND = {"phone": "digits", "number": "digits"}


@dataclass(frozen=True)
class Token:
    kind: str  # one of TOKEN_KINDS
    text: str  # as written (normalised)
    key: str  # as compared


_TLD_HINT = re.compile(r"\.(?:" + _TLDS + r")(?![\w-])|www\.", re.IGNORECASE)
_DIGIT = re.compile(r"\d")


def extract(text: str, *, read: bool = False) -> list[Token]:
    """Every link, e-mail address, account number, phone number, number of ≥ 6 digits, code (letters and
    digits mixed, ≥ 6) and name (two or more capitalised words) in ``text``, in order, each once. E-mail
    addresses are not also reported as links; a phone number's digits are not also reported as a number;
    a number inside a code is (a program may print the digits alone). No token spans a line, so each
    pattern runs only on the lines that can hold one (a ``@``, a known top-level domain or a scheme, a
    digit): most text is prose. ``read``: the text is what the agent read, so its disguised readings count
    too (:mod:`clauz3.base.disguise`: a hard wrap, markup, escapes, base64, reversed, lookalike letters)."""
    out: list[Token] = []
    seen: set[tuple[str, str]] = set()
    lines = normalise(text).split("\n")
    if read:  # what the agent read may spell a value so that only a reader puts it together (red team rt20)
        lines = lines + [v for v in unwrapped(lines) + [d for line in lines for d in disguised(line)] if v]
    for line in lines:
        for token in [t for variant in decoded(line) for t in _extract_line(variant)]:
            if (token.kind, token.key) not in seen:
                seen.add((token.kind, token.key))
                out.append(token)
    return out


def _shingles(text: str) -> list[int]:
    """The hash of every run of PHRASE_WORDS words of ``text`` (:func:`phrase_words`), in order."""
    words = phrase_words(text)
    if len(words) < PHRASE_WORDS:
        return []
    joined = " ".join(words)
    starts = [0]
    for w in words:
        starts.append(starts[-1] + len(w) + 1)
    return [hash(joined[starts[i]:starts[i + PHRASE_WORDS] - 1]) for i in range(len(words) - PHRASE_WORDS + 1)]


def name_words(name: str) -> list[str]:
    """The words of a name (or of any text) as names are compared: NFKC, case-folded, letters only."""
    return _LETTERS.findall(normalise(name).casefold())


def _names(norm: str) -> list[tuple[str, str, tuple[int, int]]]:
    """(text, key, span) of each name in one line, its leading sentence words dropped."""
    out: list[tuple[str, str, tuple[int, int]]] = []
    for m in _NAME.finditer(norm):
        words = list(_LETTERS.finditer(m.group(0)))
        while words and words[0].group(0).casefold() in LEADING_WORDS:
            words.pop(0)
        if len(words) >= 2:
            start, end = m.start() + words[0].start(), m.start() + words[-1].end()
            text = norm[start:end]
            out.append((text, " ".join(name_words(text)), (start, end)))
    return out


def _extract_line(norm: str) -> list[Token]:
    out: list[Token] = []
    taken: list[tuple[int, int]] = []

    def add(kind: str, raw: str, key: str, span: tuple[int, int]) -> None:
        taken.append(span)
        if key:
            out.append(Token(kind, raw, key))

    def free(span: tuple[int, int]) -> bool:
        return not any(a < span[1] and span[0] < b for a, b in taken)

    if "@" in norm:
        for m in _EMAIL.finditer(norm):
            add("email", m.group(0), email_key(m.group(0)), m.span())
    if "://" in norm or _TLD_HINT.search(norm):
        for m in _URL.finditer(norm):
            raw = m.group(0).rstrip(TRAILING)
            if free(m.span()):
                add("url", raw, url_key(raw), m.span())
    for text, key, span in _names(norm):
        if free(span):  # not the words of a link or an address: the link is the token there
            out.append(Token("name", text, key))
    if not _DIGIT.search(norm):
        return out
    for m in _ACCOUNT.finditer(norm):
        if free(m.span()):
            add("account", m.group(0), m.group(0).replace(" ", ""), m.span())
    for m in _PHONE.finditer(norm):
        raw = m.group(0)
        digits = re.sub(r"\D", "", raw)
        separated = raw.startswith("+") or not raw.isdigit()
        if separated and len(digits) >= 7 and free(m.span()) and not _DATE.search(raw):
            add("phone", raw, digits, m.span())
    codes = [span for span in _codes(norm) if free(span)]
    for m in _NUMBER.finditer(norm):
        if free(m.span()):
            add("number", m.group(0), m.group(0), m.span())
    for a, b in codes:
        out.append(Token("code", norm[a:b], norm[a:b].casefold()))
    return out


def _codes(norm: str) -> list[tuple[int, int]]:
    """The spans of the codes of one line: whole words of letters and digits (``_`` joins words) holding both."""
    out: list[tuple[int, int]] = []
    end = -1
    for m in _MIXED.finditer(norm):
        if m.start() < end:
            continue  # inside the word just taken
        start, end = m.start(), m.end()
        while start > 0 and norm[start - 1].isalnum():
            start -= 1
        while end < len(norm) and norm[end].isalnum():
            end += 1
        joined = (start > 0 and norm[start - 1] == "_") or (end < len(norm) and norm[end] == "_")
        if end - start >= MIN_CODE and not joined:
            out.append((start, end))
    return out


def _kept(words: tuple[str, ...]) -> tuple[int, ...]:
    """The places of a name's words that pair up: all but one-letter ones, unless fewer than two would be left."""
    kept = tuple(i for i, w in enumerate(words) if len(w) > 1)
    return kept if len(kept) >= 2 else tuple(range(len(words)))


def _stretch_text(text: str, lo: int, hi: int) -> str:
    """Words ``lo``…``hi`` of a name as it was written (its own spaces and hyphens between them)."""
    spans = [m.span() for m in _LETTERS.finditer(text)]
    return text[spans[lo][0]:spans[hi][1]] if hi < len(spans) else text


@dataclass(frozen=True)
class Source:
    """One message of the conversation: ``origin`` is ``you`` or ``read``; ``label`` names it in words,
    e.g. "a web page www.informations.com, read in run 3 at 10:32"."""

    origin: str
    label: str


@dataclass(frozen=True)
class Finding:
    """Where one value occurs: ``status`` is FROM_YOU, FROM_READ or NEW; ``sources`` the read ones."""

    status: str
    sources: tuple[str, ...] = ()


# A "word" as whole values are compared: letters, digits and ``_``, joined by ``.``, ``-`` or ``@`` between
# them (``bob@example.com``, ``meeting.md``, ``DE89``); the same boundaries as :func:`_boundary_pattern`.
_WORD = re.compile(r"\w+(?:[.@-]\w+)*")
MAX_WORD_SOURCES = 64  # sources remembered per word; a word in more is verified by a scan of its origin


def _occurs(text: str, value: str) -> bool:
    """Does ``value`` occur in ``text`` between word boundaries (:func:`_boundary_pattern`)? One regular
    expression scans the whole text: a bounded loop of ``find`` gave up when the value's letters occurred
    inside many longer words first ("Eve" in "however", "every", "never": red team rt20)."""
    return _boundary_pattern(value).search(text) is not None


@functools.lru_cache(maxsize=1024)
def _boundary_pattern(value: str) -> re.Pattern[str]:
    """The value, where its edge is a letter, digit or ``_``, not continued past it by one of those, nor by
    ``.``, ``-`` or ``@`` followed by a letter or digit (``bob@example.com`` is not in ``bob@example.com.evil``)."""
    left = r"(?<!\w)(?<![^\W_][.@-])" if value[:1].isalnum() or value[:1] == "_" else ""
    right = r"(?!\w)(?![.@-][^\W_])" if value[-1:].isalnum() or value[-1:] == "_" else ""
    return re.compile(left + re.escape(value) + right)


_SKELETON_KINDS = frozenset({"account", "code", "phone", "number"})
MIN_SITE = 8  # a site of fewer letters and digits is not looked for among a text's letters and digits
MIN_PHONE_TAIL = 7  # a phone number read is also found by its last 7+ digits (written without its country code)


def _skeleton_keys(token: Token) -> list[str]:
    sk = skeleton(token.key)
    if len(sk) < MIN_CODE:
        return []
    if token.kind != "phone":
        return [sk]
    return [sk[i:] for i in range(len(sk) - MIN_PHONE_TAIL + 1)]  # +1 555 010 9999 is 555 010 9999 too


class TranscriptIndex:
    """What the person wrote and what the agent read, indexed as messages arrive (one pass per message).

    Two dictionaries answer every lookup without rescanning the transcript: the tokens of each message
    (links, addresses, accounts, phone numbers, long numbers) and its words (case-folded). A whole value
    is looked up by its words, and confirmed in the few messages that hold them."""

    def __init__(self) -> None:
        self.sources: list[Source] = []
        self._texts: list[str] = []  # normalised text of each source
        # token key → ids of the first sources it occurs in, per origin
        self._tokens: dict[tuple[str, str], dict[str, list[int]]] = {}
        self._words: dict[str, dict[str, list[int]]] = {}
        # Names read (issue 20): each pair of adjacent words of a name, case-folded, first word → second word →
        # (the name it was first read in, as written; its folded words but one-letter ones ("Rent-A-Car": rent,
        # car) and their places among all its words; the pair's place among them; source ids).
        self._pairs: dict[str, dict[str, tuple[str, tuple[str, ...], tuple[int, ...], int, list[int]]]] = {}
        # Every pair of adjacent words the person wrote, folded, one-letter words skipped ("John F Kennedy": john, kennedy).
        self._you_pairs: set[tuple[str, str]] = set()
        # Accounts, codes, phone numbers and long numbers by their letters and digits alone (skeleton → origin
        # → source ids), and the skeletons by their first MIN_CODE characters (redteam w2).
        self._skeletons: dict[str, dict[str, list[int]]] = {}
        self._skeleton_kind: dict[str, str] = {}
        self._skeleton_heads: dict[str, set[str]] = {}
        self._skeleton_shown: dict[str, str] = {}  # a site's skeleton → the site as read
        # Every run of PHRASE_WORDS words (phrase_words), by its hash: the first source read that holds it, and
        # those the person wrote (redteam w2).
        self._read_phrases: dict[int, int] = {}
        self._you_phrases: set[int] = set()
        self.chars = 0
        self.reads = 0  # messages the agent read: a conversation with none keeps "new" a quiet note
        # What the agent was shown but no text of it reached the host (an attached image; an attached file whose
        # text is gone): any value found nowhere may come from it, so none is "new" (issue 20, red team rt20).
        self.opaque: dict[str, None] = {}  # their labels, in order
        self._first_of: dict[tuple[str, str], int] = {}  # (origin, label) → the first source id of that label

    def add_opaque(self, label: str) -> None:
        """Something the agent was shown whose text the index cannot hold; ``label`` names it in words."""
        self.opaque[label] = None
        self.reads += 1

    def drop_opaque(self, label: str) -> None:
        """Its text arrived after all (:meth:`add_opaque`)."""
        self.opaque.pop(label, None)

    def _or_opaque(self, found: Finding) -> Finding:
        return Finding(FROM_READ, tuple(list(self.opaque)[:MAX_SOURCES])) if found.status == NEW and self.opaque else found

    def add(self, origin: str, text: str, label: str, *, outside: bool = True) -> None:
        """Index one message; ``origin`` is ``you`` (the person's own words) or ``read``. ``outside=False``: read
        text that holds nothing from outside the conversation (a run's own bookkeeping before it ran, the trusted
        tools listing): indexed, but it does not make the conversation one that has read data (:attr:`reads`)."""
        if origin not in ("you", "read"):
            raise ValueError(f"origin must be 'you' or 'read', not {origin!r}")
        if not text:
            return
        sid = len(self.sources)
        self.sources.append(Source(origin, label))
        # Several texts of one source (a tool call's text and its rawOutput; a result streamed in updates) share
        # its first id in the token dictionaries, so they fill one of a value's MAX_SOURCES places, not several.
        first = self._first_of.setdefault((origin, label), sid)
        norm = normalise(text)
        self._texts.append(norm)
        self.chars += len(norm)
        self.reads += origin == "read" and outside
        if origin == "you":
            self._you_pairs.update(pairwise([w for w in name_words(norm) if len(w) > 1]))
            self._you_phrases.update(_shingles(norm))
        else:
            phrases = self._read_phrases
            for shingle in _shingles(norm):
                phrases.setdefault(shingle, first)
        for token in extract(norm, read=origin == "read"):
            if token.kind == "name":
                if origin == "read":
                    self._add_name(token, first)
                continue
            keys = [(_INDEX_KIND.get(token.kind, token.kind), token.key)]
            if token.kind == "url":
                keys.append(("host", host_of(token.key)))
            elif token.kind == "email":  # its domain is a site named in this message (redteam w2)
                keys.append(("host", site_of(token.key.rsplit("@", 1)[-1])))
            elif token.kind == "account":  # an account is a code too (a program may lower its case)
                keys.append(("code", token.key.casefold()))
            for key in keys:
                ids = self._tokens.setdefault(key, {}).setdefault(origin, [])
                if len(ids) < MAX_SOURCES and first not in ids:
                    ids.append(first)
            if token.kind in _SKELETON_KINDS:
                for sk in _skeleton_keys(token):
                    self._add_skeleton(sk, token.kind, origin, first)
            elif token.kind in ("url", "email"):  # a site written so a reader puts it together again (redteam w2)
                site = host_of(token.key) if token.kind == "url" else site_of(token.key.rsplit("@", 1)[-1])
                if len(skeleton(site)) >= MIN_SITE and "." in site:
                    self._add_skeleton(skeleton(site), "url", origin, first, shown=site)
        if _DIGIT.search(norm):
            for m in AMOUNT.finditer(norm):
                for value in amount_keys(m.group(0).strip()):
                    ids = self._tokens.setdefault(("amount", value), {}).setdefault(origin, [])
                    if len(ids) < MAX_SOURCES and first not in ids:
                        ids.append(first)
        for word in set(_WORD.findall(norm.casefold())):
            ids = self._words.setdefault(word, {}).setdefault(origin, [])
            if len(ids) < MAX_WORD_SOURCES:
                ids.append(sid)

    def _add_name(self, token: Token, sid: int) -> None:
        every = tuple(token.key.split(" "))
        at_words = _kept(every)
        words = tuple(every[i] for i in at_words)
        for at, (a, b) in enumerate(pairwise(words)):
            seconds = self._pairs.setdefault(a, {})
            entry = seconds.get(b)
            if entry is None:
                seconds[b] = (token.text, words, at_words, at, [sid])
            elif len(entry[4]) < MAX_SOURCES and sid not in entry[4]:
                entry[4].append(sid)

    def phrases(self, text: str) -> list[tuple[str, Finding]]:
        """The runs of PHRASE_WORDS or more words of ``text`` (:func:`phrase_words`: any case, any spacing or punctuation
        between them) that occur as a run in what the agent read and not in the person's messages — a sentence
        copied from a page, a review's recommendation (redteam w2). One lookup per word of the text."""
        words = phrase_words(text)
        out: list[tuple[str, Finding]] = []
        start = end = -1
        read: list[int] = []
        for at, key in enumerate(_shingles(text)):
            sid = self._read_phrases.get(key)
            if sid is not None and key not in self._you_phrases:
                if at > end:  # a new run
                    if start >= 0:
                        out.append((" ".join(words[start:end]), self._finding([], sorted(read))))
                    start, read = at, []
                end = at + PHRASE_WORDS
                if sid not in read and len(read) < MAX_SOURCES:
                    read.append(sid)
        if start >= 0:
            out.append((" ".join(words[start:end]), self._finding([], sorted(read))))
        return out

    def names(self, words: set[str]) -> list[tuple[str, Finding]]:
        """The names read whose words a text holds, in any order and any case (``words``: its folded words,
        :func:`name_words`; a name split into pieces the program joins at run time is still found). A name
        is found by any two of its adjacent words (one-letter words between them do not count: the ``a`` of
        ``Rent-A-Car`` is in nearly every text, and ``Rent-A-Car`` printed holds ``rent`` and ``car``); what
        is shown is the longest stretch of the name around them that the text holds. A stretch is *from you* when every pair of its adjacent words occurs in
        the person's messages, else from read data: one lookup per word of the text, none rescans."""
        found: dict[tuple[str, ...], tuple[str, list[int]]] = {}
        for a in words:
            seconds = self._pairs.get(a)
            if not seconds:
                continue
            pairs = [(b, seconds[b]) for b in words if b in seconds] if len(words) < len(seconds) else \
                [(b, e) for b, e in seconds.items() if b in words]
            for _b, (text, folded, places, at, ids) in pairs:
                lo, hi = at, at + 1
                while lo > 0 and folded[lo - 1] in words:
                    lo -= 1
                while hi + 1 < len(folded) and folded[hi + 1] in words:
                    hi += 1
                stretch = folded[lo:hi + 1]
                shown = _stretch_text(text, places[lo], places[hi])
                prior = found.setdefault(stretch, (shown, []))
                prior[1].extend(i for i in ids if i not in prior[1])
        out: list[tuple[str, Finding]] = []
        found = dict(sorted(found.items(), key=lambda kv: (min(kv[1][1]), kv[1][0])))  # a stable order, by source
        for stretch, (shown, ids) in found.items():
            mine = [w for w in stretch if len(w) > 1]  # the person's pairs skip one-letter words too
            if len(mine) >= 2 and all(pair in self._you_pairs for pair in pairwise(mine)):
                out.append((shown, Finding(FROM_YOU)))
            else:
                out.append((shown, self._finding([], sorted(ids))))
        # A stretch inside a longer one found too is the same name: show the longest only.
        keys = [" ".join(s) for s in found]
        return [item for item, key in zip(out, keys, strict=True)
                if not any(key != other and f" {key} " in f" {other} " for other in keys)]

    def _finding(self, you: list[int], read: list[int]) -> Finding:
        if you:
            return Finding(FROM_YOU)
        if read:  # two texts of one source (one label) name it once
            return Finding(FROM_READ, tuple(dict.fromkeys(self.sources[i].label for i in read))[:MAX_SOURCES])
        return Finding(NEW)

    def token(self, token: Token) -> Finding:
        """:meth:`_token`, where a value found nowhere may come from what the index could not read (:attr:`opaque`)."""
        return self._or_opaque(self._token(token))

    def _token(self, token: Token) -> Finding:
        """A token of free text (or a whole value read as a token), by its key: one dictionary lookup.
        A link found nowhere as written is looked up by its host: a page on a site named only in what
        the agent read is from read data too (the same host, exactly). A name: by :meth:`names` of its words."""
        if token.kind == "name":
            found_names = [f for _, f in self.names(set(token.key.split(" ")))]
            read = [f for f in found_names if f.status == FROM_READ]
            if read:
                return read[0]
            return Finding(FROM_YOU) if found_names else self._whole(token.text, folded=True)
        places = self._tokens.get((_INDEX_KIND.get(token.kind, token.kind), token.key), {})
        found = self._finding(places.get("you", []), places.get("read", []))
        if found.status == NEW and token.kind == "url":
            host = host_of(token.key)
            places = self._tokens.get(("host", host), {})
            if places.get("read") and token.key != host:
                # A page on a host named in what the agent read, written as nobody wrote it: from read data even
                # where the person named the host too (an open redirect, the attacker's folder; red team rt20).
                found = self._finding([], places["read"])
            elif token.key == host:  # a path nobody wrote on a host only you named stays new
                found = self._finding(places.get("you", []), places.get("read", []))
        elif found.status == NEW and token.kind == "email":
            # An address nobody wrote, at a site named only in what the agent read (``support@`` the phishing
            # site, or ``user@www.site`` in a link): from read data (redteam w2). A site the person named too
            # does not make the address theirs: it stays new.
            places = self._tokens.get(("host", site_of(token.key.rsplit("@", 1)[-1])), {})
            if places.get("read") and not places.get("you"):
                found = self._finding([], places["read"])
        elif found.status == NEW and token.kind in _SKELETON_KINDS:
            found = self.skeleton_value(token.key)
        folded = fold_confusables(token.key) if found.status == NEW and token.kind in ("url", "email") else token.key
        if folded != token.key:
            # Lookalike letters: the program's spelling folded is a value read — never one of yours (red team rt20).
            alt = self.token(Token(token.kind, fold_confusables(token.text), folded))
            found = alt if alt.status == FROM_READ else found
        return found

    def _add_skeleton(self, sk: str, kind: str, origin: str, sid: int, *, shown: str | None = None) -> None:
        kinds = self._skeletons.setdefault(sk, {})
        ids = kinds.setdefault(origin, [])
        if len(ids) < MAX_SOURCES and sid not in ids:
            ids.append(sid)
        self._skeleton_kind.setdefault(sk, kind)
        if shown is not None:
            self._skeleton_shown.setdefault(sk, shown)
        self._skeleton_heads.setdefault(sk[:MIN_CODE], set()).add(sk)

    def skeleton_value(self, value: str) -> Finding:
        """A value compared by its letters and digits alone (:func:`skeleton`): ``GB33-BUKB-2020-…``,
        ``4,815,162,342`` or ``H G K 1 3 7 8 0 3`` is the account, number or code read."""
        places = self._skeletons.get(skeleton(value), {})
        return self._finding(places.get("you", []), places.get("read", []))

    def skeleton_hits(self, text: str) -> list[tuple[str, str, Finding]]:
        """(skeleton, kind, finding) of every account, code, phone or long number read (or written by you)
        whose letters and digits occur in a row among those of ``text``, whatever stands between them —
        spaces, separators, line breaks, invisible characters, pieces joined at run time (redteam w2).
        One dictionary lookup per letter or digit of the text."""
        sk = skeleton(text)
        out: dict[str, tuple[str, str, Finding]] = {}
        for i in range(len(sk) - MIN_CODE + 1):
            for key in self._skeleton_heads.get(sk[i:i + MIN_CODE], ()):
                if key not in out and sk.startswith(key, i):
                    places = self._skeletons[key]
                    out[key] = (self._skeleton_shown.get(key, key), self._skeleton_kind[key],
                                self._finding(places.get("you", []), places.get("read", [])))
        return list(out.values())

    def value(self, kind: str, value: str) -> Finding:
        """:meth:`_value`, where a value found nowhere may come from what the index could not read (:attr:`opaque`)."""
        return self._or_opaque(self._value(kind, value))

    def _value(self, kind: str, value: str) -> Finding:
        """A whole protected value (a recipient, an account, an amount, a path), exact after NFKC
        (case-folded for recipients and links)."""
        norm = normalise(value).strip()
        if kind == "amount" and (keys := amount_keys(norm)):
            you: list[int] = []
            read: list[int] = []
            for key in sorted(keys):
                places = self._tokens.get(("amount", key), {})
                you += places.get("you", [])
                read += [i for i in places.get("read", []) if i not in read]
            if you or read:
                return self._finding(you, sorted(read))
        tokens = [t for t in extract(norm) if t.kind != "name"]  # a name as a whole value: by its words below
        if len(tokens) == 1 and tokens[0].text.strip() == norm:
            return self.token(tokens[0])  # the value is itself a token: the token index is the answer
        found = self._whole(norm, folded=kind in ADDRESS_KINDS)
        if found.status == NEW and len(skeleton(norm)) >= MIN_CODE:
            found = self.skeleton_value(norm)  # an account written with other separators (redteam w2)
        return found

    def _whole(self, norm: str, *, folded: bool) -> Finding:
        needle = norm.casefold() if folded else norm
        words = _WORD.findall(norm.casefold())
        if not words:
            return Finding(NEW)
        rarest = min(words, key=lambda w: sum(len(v) for v in self._words.get(w, {}).values()))
        places = self._words.get(rarest, {})
        found: dict[str, list[int]] = {}
        for origin in ("you", "read"):
            ids = places.get(origin, [])
            if len(ids) >= MAX_WORD_SOURCES:  # a common word: look at every message of that origin
                ids = [i for i, src in enumerate(self.sources) if src.origin == origin]
            hits = [i for i in ids if _occurs(self._texts[i].casefold() if folded else self._texts[i], needle)]
            labels: dict[str, int] = {}  # two texts of one source (one label) fill one place
            found[origin] = [labels.setdefault(self.sources[i].label, i) for i in hits if self.sources[i].label not in labels][:MAX_SOURCES]
            if origin == "you" and hits:
                break
        return self._finding(found.get("you", []), found.get("read", []))

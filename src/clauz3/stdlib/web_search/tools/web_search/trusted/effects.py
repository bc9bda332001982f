"""The web_search effect, simulated: results come from a bundled fictional corpus; no network is used."""

from tools.web_search.trusted.corpus import PAGES

import clauz3


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda query: len(query) > 0, message="query must not be empty")
@clauz3.ensures(lambda result: len(result) <= 5)
@clauz3.reads_data("web search results for {query}")
def web_search(query: str) -> list[str]:
    """Return at most 5 results "<title> — <url>" for query (simulated: fictional pages on https://example.org/)."""
    words = {w for w in "".join(c.lower() if c.isalnum() else " " for c in query).split() if w}
    scored = []
    for index, (title, path, keywords) in enumerate(PAGES):
        vocabulary = set(keywords.split()) | {w.lower().strip("'") for w in title.split()}
        score = len(words & vocabulary)
        if score:
            scored.append((-score, index, f"{title} — https://example.org/{path}"))
    return [line for _, _, line in sorted(scored)[:5]]

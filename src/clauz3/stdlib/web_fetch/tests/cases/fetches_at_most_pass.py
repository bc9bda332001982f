"""Two GETs in a literal loop."""

from tools.web_fetch.trusted import contracts as web
from tools.web_fetch.trusted.effects import fetch_url

import clauz3


@clauz3.guarantee(web.fetches_at_most(2))
def main() -> None:
    for page in ["a", "b"]:
        fetch_url("https://a.example.com/" + page)

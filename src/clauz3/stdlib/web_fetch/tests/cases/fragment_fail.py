"""A fragment breaks the URL precondition."""
# clauz3-expect: violated precondition

from tools.web_fetch.trusted import contracts as web
from tools.web_fetch.trusted.effects import fetch_url

import clauz3


@clauz3.guarantee(web.no_guarantees())
def main() -> None:
    fetch_url("https://a.example.com/docs#top")

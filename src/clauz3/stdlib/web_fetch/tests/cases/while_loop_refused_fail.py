"""A while loop is refused."""
# clauz3-expect: refused unsupported-statement

from tools.web_fetch.trusted import contracts as web
from tools.web_fetch.trusted.effects import fetch_url

import clauz3


@clauz3.guarantee(web.no_posts())
def main() -> None:
    while True:
        fetch_url("https://a.example.com/")

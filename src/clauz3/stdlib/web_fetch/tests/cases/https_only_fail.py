"""A plain http request."""
# clauz3-expect: violated guarantee

from tools.web_fetch.trusted import contracts as web
from tools.web_fetch.trusted.effects import fetch_url

import clauz3


@clauz3.guarantee(web.https_only())
def main() -> None:
    fetch_url("http://a.example.com/")

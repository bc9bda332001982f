"""A prefix with a query is a contract error."""
# clauz3-expect: refused contract-error

from tools.web_fetch.trusted import contracts as web
from tools.web_fetch.trusted.effects import fetch_url

import clauz3


@clauz3.guarantee(web.only_fetch_under("https://a.example.com/docs?x=1"))
def main() -> None:
    fetch_url("https://a.example.com/docs")

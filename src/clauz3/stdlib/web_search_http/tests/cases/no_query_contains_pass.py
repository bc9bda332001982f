"""No query mentions the secret word."""

from tools.web_search_http.trusted import contracts as search
from tools.web_search_http.trusted.effects import web_search

import clauz3


@clauz3.guarantee(search.no_query_contains("secret"))
def main() -> None:
    web_search("recycling calendar")

"""Short literal queries."""

from tools.web_search_http.trusted import contracts as search
from tools.web_search_http.trusted.effects import web_search

import clauz3


@clauz3.guarantee(search.query_length_at_most(20))
def main() -> None:
    web_search("compost")
    web_search("night sky")

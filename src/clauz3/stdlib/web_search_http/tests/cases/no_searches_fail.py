"""One search."""
# clauz3-expect: violated guarantee

from tools.web_search_http.trusted import contracts as search
from tools.web_search_http.trusted.effects import web_search

import clauz3


@clauz3.guarantee(search.no_searches())
def main() -> None:
    web_search("tomatoes")

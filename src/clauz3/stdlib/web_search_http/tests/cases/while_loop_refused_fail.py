"""A while loop is refused."""
# clauz3-expect: refused unsupported-statement

from tools.web_search_http.trusted import contracts as search
from tools.web_search_http.trusted.effects import web_search

import clauz3


@clauz3.guarantee(search.searches_at_most(1))
def main() -> None:
    while True:
        web_search("x")

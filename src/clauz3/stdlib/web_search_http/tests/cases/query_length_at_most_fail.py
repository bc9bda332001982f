"""A result line used as a query has unknown length."""
# clauz3-expect: violated guarantee

from tools.web_search_http.trusted import contracts as search
from tools.web_search_http.trusted.effects import web_search

import clauz3


@clauz3.guarantee(search.query_length_at_most(20))
def main() -> None:
    for line in web_search("python"):
        web_search(line)

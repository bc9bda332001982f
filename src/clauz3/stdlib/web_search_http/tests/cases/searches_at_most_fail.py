"""A search per result may exceed the limit."""
# clauz3-expect: violated guarantee

from tools.web_search_http.trusted import contracts as search
from tools.web_search_http.trusted.effects import web_search

import clauz3


@clauz3.guarantee(search.searches_at_most(5))
def main() -> None:
    for line in web_search("python"):
        web_search(line)

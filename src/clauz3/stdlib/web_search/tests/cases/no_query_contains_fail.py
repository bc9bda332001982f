"""A query built with the word."""
# clauz3-expect: violated guarantee

from tools.web_search.trusted import contracts as search
from tools.web_search.trusted.effects import web_search

import clauz3


@clauz3.guarantee(search.no_query_contains("secret"))
def main() -> None:
    topic = "secret"
    web_search("my " + topic + " plans")

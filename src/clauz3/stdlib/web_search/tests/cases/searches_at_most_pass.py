"""Two searches; the results are iterated without searching again."""

from tools.web_search.trusted import contracts as search
from tools.web_search.trusted.effects import web_search

import clauz3


@clauz3.guarantee(search.searches_at_most(2))
def main() -> None:
    web_search("python")
    for line in web_search("garden"):
        print(line)

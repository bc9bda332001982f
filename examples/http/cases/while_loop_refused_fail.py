"""`while` loops are outside the checked subset."""
# clauz3-expect: refused unsupported-statement

import clauz3
from tools.http.trusted import contracts as web
from tools.http.trusted.effects import http_get


@clauz3.guarantee(web.no_posts())
def main() -> None:
    page = ""
    while page == "":
        page = http_get("https://api.example.com/items")

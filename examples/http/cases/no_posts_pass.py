"""Reading only."""

import clauz3
from tools.http.trusted import contracts as web
from tools.http.trusted.effects import http_get


@clauz3.guarantee(web.no_posts())
def main() -> None:
    http_get("https://api.example.com/items")

"""The response may be empty, so the post in that branch can happen."""
# clauz3-expect: violated guarantee

import clauz3
from tools.http.trusted import contracts as web
from tools.http.trusted.effects import http_get, http_post


@clauz3.guarantee(web.no_posts())
def main() -> None:
    page = http_get("https://api.example.com/items")
    if page == "":
        http_post("https://api.example.com/alerts", "empty response")

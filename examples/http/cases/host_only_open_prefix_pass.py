"""A prefix ending in "/" covers everything that starts with it."""

import clauz3
from tools.http.trusted import contracts as web
from tools.http.trusted.effects import http_get


@clauz3.guarantee(web.host_only("https://docs.example.com/guide/"))
def main() -> None:
    for part in ["intro", "setup", "faq.html"]:
        http_get("https://docs.example.com/guide/" + part)

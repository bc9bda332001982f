"""A host that merely starts with the prefix text is a different host."""
# clauz3-expect: violated guarantee

import clauz3
from tools.http.trusted import contracts as web
from tools.http.trusted.effects import http_get


@clauz3.guarantee(web.host_only("https://api.example.com"))
def main() -> None:
    http_get("https://api.example.com/items")
    http_get("https://api.example.com.evil/items")

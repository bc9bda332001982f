"""no_guarantees() holds when every call is valid."""

import clauz3
from tools.http.trusted import contracts as web
from tools.http.trusted.effects import http_get, http_post


@clauz3.guarantee(web.no_guarantees())
def main() -> None:
    body = http_get("https://anywhere.example.org/")
    http_post("https://elsewhere.example.net/inbox", body)

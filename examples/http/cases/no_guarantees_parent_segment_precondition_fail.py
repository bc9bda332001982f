"""A ".." segment in the URL breaks http_get's precondition."""
# clauz3-expect: violated precondition

import clauz3
from tools.http.trusted import contracts as web
from tools.http.trusted.effects import http_get


@clauz3.guarantee(web.no_guarantees())
def main() -> None:
    http_get("https://api.example.com/items/../admin")

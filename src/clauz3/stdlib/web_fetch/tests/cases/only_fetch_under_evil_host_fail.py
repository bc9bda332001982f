"""a.example.com.evil is another host."""
# clauz3-expect: violated guarantee

from tools.web_fetch.trusted import contracts as web
from tools.web_fetch.trusted.effects import fetch_url

import clauz3


@clauz3.guarantee(web.only_fetch_under("https://a.example.com/docs"))
def main() -> None:
    fetch_url("https://a.example.com.evil/docs")

"""A short body."""

from tools.web_fetch.trusted import contracts as web
from tools.web_fetch.trusted.effects import post_url

import clauz3


@clauz3.guarantee(web.post_length_at_most(10))
def main() -> None:
    post_url("https://a.example.com/api", "hello")

"""A fetched page as a body has unknown length."""
# clauz3-expect: violated guarantee

from tools.web_fetch.trusted import contracts as web
from tools.web_fetch.trusted.effects import fetch_url, post_url

import clauz3


@clauz3.guarantee(web.post_length_at_most(10))
def main() -> None:
    page = fetch_url("https://a.example.com/")
    post_url("https://b.example.com/api", page)

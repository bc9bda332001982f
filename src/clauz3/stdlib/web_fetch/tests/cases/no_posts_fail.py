"""A POST on one branch."""
# clauz3-expect: violated guarantee

from tools.web_fetch.trusted import contracts as web
from tools.web_fetch.trusted.effects import fetch_url, post_url

import clauz3


@clauz3.guarantee(web.no_posts())
def main() -> None:
    page = fetch_url("https://a.example.com/")
    if "form" in page:
        post_url("https://a.example.com/form", page)

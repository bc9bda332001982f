"""Two POSTs."""
# clauz3-expect: violated guarantee

from tools.web_fetch.trusted import contracts as web
from tools.web_fetch.trusted.effects import post_url

import clauz3


@clauz3.guarantee(web.posts_at_most(1))
def main() -> None:
    post_url("https://a.example.com/api", "x")
    post_url("https://a.example.com/api", "y")

"""A POST below the excluded prefix."""
# clauz3-expect: violated guarantee

from tools.web_fetch.trusted import contracts as web
from tools.web_fetch.trusted.effects import post_url

import clauz3


@clauz3.guarantee(web.never_fetch_under("https://a.example.com/admin"))
def main() -> None:
    post_url("https://a.example.com/admin/users", "x")

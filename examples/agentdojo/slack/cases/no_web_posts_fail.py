"""The last call breaks slack.no_web_posts()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import post_webpage


@clauz3.guarantee(slack.no_web_posts())
def main() -> None:
    post_webpage("www.my-website-234.com/random", "secrets")

"""These calls keep slack.web_posts_only(["www.our-company.com"])."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import post_webpage


@clauz3.guarantee(slack.web_posts_only(["www.our-company.com"]))
def main() -> None:
    post_webpage("www.our-company.com", "hobbies")

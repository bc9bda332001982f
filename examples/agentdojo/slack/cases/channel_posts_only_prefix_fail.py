"""The last call breaks slack.channel_posts_only_prefix("External")."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import send_channel_message


@clauz3.guarantee(slack.channel_posts_only_prefix("External"))
def main() -> None:
    send_channel_message("External_0", "Hi, i am a bot")
    send_channel_message("Ext", "Hi, i am a bot")

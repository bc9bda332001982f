"""Slack and web effects: each calls the AgentDojo tool of the same name on the bound environment."""

from tools.slack.trusted.world import call

import clauz3


@clauz3.trusted
@clauz3.mock
def get_channels() -> str:
    """The channels of the workspace."""
    return call("get_channels")


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("the messages of channel {channel}")
def read_channel_messages(channel: str) -> str:
    """The messages of a channel; anyone in it may have written them."""
    return call("read_channel_messages", channel=channel)


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("the inbox of {user}")
def read_inbox(user: str) -> str:
    """The direct messages a user received."""
    return call("read_inbox", user=user)


@clauz3.trusted
@clauz3.mock
def get_users_in_channel(channel: str) -> str:
    """The members of a channel."""
    return call("get_users_in_channel", channel=channel)


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("the web page {url}")
def get_webpage(url: str) -> str:
    """The content of a web page (the visit is seen by the site's owner)."""
    return call("get_webpage", url=url)


@clauz3.trusted
@clauz3.mock
@clauz3.protected(recipient="recipient", body="text")
def send_direct_message(recipient: str, body: str) -> str:
    """Send body to the user recipient."""
    return call("send_direct_message", recipient=recipient, body=body)


@clauz3.trusted
@clauz3.mock
@clauz3.protected(channel="recipient", body="text")
def send_channel_message(channel: str, body: str) -> str:
    """Post body to channel."""
    return call("send_channel_message", channel=channel, body=body)


@clauz3.trusted
@clauz3.mock
@clauz3.protected(user_email="recipient")
def invite_user_to_slack(user: str, user_email: str) -> str:
    """Invite user (at user_email) to the workspace."""
    return call("invite_user_to_slack", user=user, user_email=user_email)


@clauz3.trusted
@clauz3.mock
def add_user_to_channel(user: str, channel: str) -> str:
    """Add user to channel."""
    return call("add_user_to_channel", user=user, channel=channel)


@clauz3.trusted
@clauz3.mock
def remove_user_from_slack(user: str) -> str:
    """Remove user from the workspace."""
    return call("remove_user_from_slack", user=user)


@clauz3.trusted
@clauz3.mock
@clauz3.protected(url="url", content="text")
def post_webpage(url: str, content: str) -> str:
    """Publish content at url."""
    return call("post_webpage", url=url, content=content)

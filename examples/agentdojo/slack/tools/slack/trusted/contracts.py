"""What a slack program may promise: who gets messages, which channels, who is invited or added
where, which web pages are read or written."""

from tools.slack.trusted.effects import (
    add_user_to_channel,
    get_users_in_channel,
    get_webpage,
    invite_user_to_slack,
    post_webpage,
    remove_user_from_slack,
    send_channel_message,
    send_direct_message,
)

from clauz3 import spec
from clauz3.spec import ContractSpec, contract, effect, flows


@contract(description="direct messages go only to {users}")
def dms_only(users: list[str]) -> ContractSpec:
    return effect(send_direct_message).all(lambda e: e.recipient in users)


@contract(description="no direct message is sent")
def no_dms() -> ContractSpec:
    return effect(send_direct_message).empty()


@contract(description="messages are posted only to channels {channels}")
def channel_posts_only(channels: list[str]) -> ContractSpec:
    return effect(send_channel_message).all(lambda e: e.channel in channels)


@contract(description="nothing is posted to any channel")
def no_channel_posts() -> ContractSpec:
    return effect(send_channel_message).empty()


@contract(description="at most {count} messages are sent, direct or to channels")
def messages_at_most(count: int) -> ContractSpec:
    return effect(send_direct_message, send_channel_message).count() <= count


@contract(description="every message, direct or to a channel, says exactly one of {bodies}")
def messages_say_only(bodies: list[str]) -> ContractSpec:
    return effect(send_direct_message, send_channel_message).all(lambda e: e.body in bodies)


@contract(description="only {users} are invited, and only at {emails}")
def invites_only(users: list[str], emails: list[str]) -> ContractSpec:
    return effect(invite_user_to_slack).all(lambda e: e.user in users and e.user_email in emails)


@contract(description="no one is invited to the workspace")
def no_invites() -> ContractSpec:
    return effect(invite_user_to_slack).empty()


@contract(description="only {users} are added to channels, and only to {channels}")
def channel_adds_only(users: list[str], channels: list[str]) -> ContractSpec:
    return effect(add_user_to_channel).all(lambda e: e.user in users and e.channel in channels)


@contract(description="only {users} are added to channels, and only to channels whose name starts with {prefix}")
def channel_adds_only_prefix(users: list[str], prefix: str) -> ContractSpec:
    return effect(add_user_to_channel).all(lambda e: e.user in users and e.channel.startswith(prefix))


@contract(description="messages are posted only to channels whose name starts with {prefix}")
def channel_posts_only_prefix(prefix: str) -> ContractSpec:
    return effect(send_channel_message).all(lambda e: e.channel.startswith(prefix))


@contract(description="no one is added to a channel")
def no_channel_adds() -> ContractSpec:
    return effect(add_user_to_channel).empty()


@contract(description="no one is removed from the workspace")
def no_removals() -> ContractSpec:
    return effect(remove_user_from_slack).empty()


@contract(description="only the web pages {urls} are visited")
def visits_only(urls: list[str]) -> ContractSpec:
    return effect(get_webpage).all(lambda e: e.url in urls)


@contract(description="no web page is visited")
def no_visits() -> ContractSpec:
    return effect(get_webpage).empty()


@contract(description="content is published only at {urls}")
def web_posts_only(urls: list[str]) -> ContractSpec:
    return effect(post_webpage).all(lambda e: e.url in urls)


@contract(description="nothing is published on the web")
def no_web_posts() -> ContractSpec:
    return effect(post_webpage).empty()


@contract(description="no one is invited, added to a channel or removed")
def membership_unchanged() -> ContractSpec:
    return effect(invite_user_to_slack, add_user_to_channel, remove_user_from_slack).empty()


@contract(description="nothing is sent, posted, published, and no membership changes: the program only reads")
def read_only() -> ContractSpec:
    return effect(send_direct_message, send_channel_message, invite_user_to_slack, add_user_to_channel,
                  remove_user_from_slack, post_webpage).empty()


@contract(description="promises nothing about slack")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()


@contract(description="nothing read from a web page reaches a direct message's text or its recipient")
def web_never_in_dms() -> ContractSpec:
    dm = effect(send_direct_message)
    return flows.never(from_=get_webpage, into=[dm.body, dm.recipient])


@contract(description="direct messages go only to users the program names or that get_users_in_channel listed")
def dm_recipients_from_members() -> ContractSpec:
    return flows.only(from_=[get_users_in_channel], into=effect(send_direct_message).recipient)


@contract(description="every message, direct or to a channel, starts with {prefix} and ends with {suffix}, with at "
                      "most {between} characters between them")
def messages_fill_in(prefix: str, suffix: str, between: int) -> ContractSpec:
    return effect(send_direct_message, send_channel_message).all(
        lambda e: e.body.startswith(prefix) and e.body.endswith(suffix)
        and len(e.body) <= len(prefix) + len(suffix) + between)

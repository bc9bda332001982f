"""Flow guarantees of the issue-20 red-team layer."""

from tools.rt20.trusted.effects import items, post, send

from clauz3.spec import ContractSpec, contract, effect, flows


@contract()
def items_not_in_send() -> ContractSpec:
    return flows.never(from_=items, into=[effect(send).body, effect(send).to])


@contract()
def page_not_in_any_body() -> ContractSpec:
    return flows.never(from_="page", into=effect(send, post).param("body"))


@contract()
def post_tag_from_program() -> ContractSpec:
    return flows.only(from_=[], into=effect(post).tag)

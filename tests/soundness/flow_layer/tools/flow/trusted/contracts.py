"""Flow guarantees of the label-propagation test layer."""

from tools.flow.trusted.effects import log, read_num, read_web, read_words, send

from clauz3.spec import ContractSpec, contract, effect, flows


@contract(description="nothing read from the web reaches a message or a recipient")
def web_not_in_send() -> ContractSpec:
    return flows.never(from_=read_web, into=[effect(send).body, effect(send).to])


@contract(description="nothing read at all reaches a logged number")
def nothing_read_in_log() -> ContractSpec:
    return flows.never(from_=[read_web, read_num, read_words], into=effect(log).n)


@contract(description="messages derive only from read_num")
def bodies_only_from_num() -> ContractSpec:
    return flows.only(from_=[read_num], into=effect(send).body)

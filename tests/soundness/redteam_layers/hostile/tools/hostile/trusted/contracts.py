"""Contracts of the red-team layer: strict limits, text lengths, int and bool end states."""

from tools.hostile.trusted.effects import Armed, Level, measure, post, query, spend

from clauz3.spec import ContractSpec, contract, effect


@contract(description="less than {cap} cents are spent in total")
def spend_under(cap: int) -> ContractSpec:
    return effect(spend).sum(lambda e: e.cents) < cap


@contract(description="at most {n} spends")
def spends_at_most(n: int) -> ContractSpec:
    return effect(spend).count() <= n


@contract(description="{text} is never posted")
def no_post(text: str) -> ContractSpec:
    return effect(post).where(lambda e: e.text == text).empty()


@contract(description="every post is at most {n} characters")
def posts_short(n: int) -> ContractSpec:
    return effect(post).all(lambda e: len(e.text) <= n)


@contract(description="zone {zone} is armed at the end")
def armed_at_end(zone: str) -> ContractSpec:
    return Armed.final[zone] == True  # noqa: E712 (builds a spec, not a test)


@contract(description="tank {tank} holds {litres} litres at the end")
def tank_is(tank: str, litres: int) -> ContractSpec:
    return Level.final[tank] == litres


@contract(description="tank {tank} is not empty at the end")
def tank_not_empty(tank: str) -> ContractSpec:
    return Level.final[tank] != 0


@contract(description="the measurements add up to at most {limit}")
def measured_at_most(limit: float) -> ContractSpec:
    return effect(measure).sum(lambda e: e.x) <= limit


@contract(description="no query filter is run twice")
def distinct_queries() -> ContractSpec:
    return effect(query).distinct(lambda e: e.where)

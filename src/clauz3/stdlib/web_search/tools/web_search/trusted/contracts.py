"""Contracts over web_search: how many searches run, how long queries are, what they contain."""

from tools.web_search.trusted.effects import web_search

from clauz3 import spec
from clauz3.spec import ContractSpec, contract, effect


@contract(description="promises nothing about searches")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()


@contract(description="no search is made")
def no_searches() -> ContractSpec:
    return effect(web_search).empty()


@contract(description="at most {n} searches are made")
def searches_at_most(n: int) -> ContractSpec:
    return effect(web_search).count() <= n


@contract(description="every search query is at most {n} characters long")
def query_length_at_most(n: int) -> ContractSpec:
    return effect(web_search).all(lambda e: len(e.query) <= n)


@contract(description="no search query contains {text}")
def no_query_contains(text: str) -> ContractSpec:
    return effect(web_search).all(lambda e: text not in e.query)

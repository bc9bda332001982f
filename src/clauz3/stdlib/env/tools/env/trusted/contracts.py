"""Contracts over read_env: which variables are read and how often."""

from tools.env.trusted.effects import read_env

from clauz3 import spec
from clauz3.spec import ContractSpec, contract, effect


@contract(description="promises nothing about environment variables")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()


@contract(description="no environment variable is read")
def no_env_reads() -> ContractSpec:
    return effect(read_env).empty()


@contract(description="only the environment variables {names} are read")
def only_vars(names: list[str]) -> ContractSpec:
    return effect(read_env).all(lambda e: e.name in names)


@contract(description="the environment variables {names} are never read")
def never_vars(names: list[str]) -> ContractSpec:
    return effect(read_env).all(lambda e: e.name not in names)


@contract(description="no environment variable whose name starts with {prefix} is read")
def never_var_prefix(prefix: str) -> ContractSpec:
    return effect(read_env).all(lambda e: not e.name.startswith(prefix))


@contract(description="environment variables are read at most {n} times")
def env_reads_at_most(n: int) -> ContractSpec:
    return effect(read_env).count() <= n

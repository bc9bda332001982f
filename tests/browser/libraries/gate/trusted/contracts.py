"""What a program may promise about its gate steps."""

from tools.gate.trusted.effects import step, step_after_gate

from clauz3.spec import ContractSpec, contract, effect


@contract(description="at most {count} steps are marked")
def steps_at_most(count: int) -> ContractSpec:
    return effect(step).count() <= count


@contract(description="at most {count} gated steps are marked")
def gated_steps_at_most(count: int) -> ContractSpec:
    return effect(step_after_gate).count() <= count

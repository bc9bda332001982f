"""Contracts over the lab: plates, volumes, instruments, run time and oligo orders."""

from tools.lims.trusted.effects import order_oligo, pipette, submit_protocol

from clauz3 import spec
from clauz3.spec import ContractSpec, contract, effect


@contract(description="promises nothing about the lab")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()


@contract(description="only plate {plate} is pipetted into or run")
def only_plate(plate: str) -> ContractSpec:
    return effect(pipette, submit_protocol).all(lambda e: e.plate == plate)


@contract(description="at most {max_ul} microlitres of {reagent} are pipetted in total")
def reagent_volume_at_most(reagent: str, max_ul: int) -> ContractSpec:
    with_reagent = effect(pipette).where(lambda e: e.reagent == reagent)
    return with_reagent.sum(lambda e: e.volume_ul) <= max_ul


@contract(description="at most {max_ul} microlitres are pipetted in total")
def total_pipette_volume_at_most(max_ul: int) -> ContractSpec:
    return effect(pipette).sum(lambda e: e.volume_ul) <= max_ul


@contract(description="protocols run only on instruments {allowed}")
def only_instruments(allowed: list[str]) -> ContractSpec:
    return effect(submit_protocol).all(lambda e: e.instrument in allowed)


@contract(description="protocols run for at most {hours} hours in total")
def total_runtime_at_most(hours: int) -> ContractSpec:
    return effect(submit_protocol).sum(lambda e: e.hours) <= hours


@contract(description="no protocol is submitted")
def no_protocols() -> ContractSpec:
    return effect(submit_protocol).empty()


@contract(description="no oligo is ordered")
def no_oligos() -> ContractSpec:
    return effect(order_oligo).empty()


@contract(description="every ordered oligo has at most {max_bases} bases")
def oligo_length_at_most(max_bases: int) -> ContractSpec:
    return effect(order_oligo).all(lambda e: len(e.seq) <= max_bases)


@contract(description="no ordered oligo contains the sequence {motif}")
def no_hazard_sequence(motif: str) -> ContractSpec:
    return effect(order_oligo).all(lambda e: motif not in e.seq)

"""Contracts over the cloud account: regions, sizes, instance-hours, counts, stops and deletions."""

from tools.cloud.trusted.effects import delete_bucket, list_instances, start_instance, stop_instance
from tools.cloud.trusted.schemas import InstanceRow

from clauz3 import spec
from clauz3.spec import ContractSpec, contract, effect


@contract(description="promises nothing about the cloud account")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()


@contract(description="instances are started and listed only in regions {allowed}")
def only_regions(allowed: list[str]) -> ContractSpec:
    return effect(start_instance, list_instances).all(lambda e: e.region in allowed)


@contract(description="only instance sizes {allowed} are started")
def only_sizes(allowed: list[str]) -> ContractSpec:
    return effect(start_instance).all(lambda e: e.size in allowed)


@contract(description="started instances run for at most {total} instance-hours in total")
def max_instance_hours(total: int) -> ContractSpec:
    return effect(start_instance).sum(lambda e: e.hours) <= total


@contract(description="at most {n} instances are started")
def at_most_instances(n: int) -> ContractSpec:
    return effect(start_instance).count() <= n


@contract(description="no bucket is deleted")
def no_deletes() -> ContractSpec:
    return effect(delete_bucket).empty()


@contract(description="only instances that the program listed are stopped")
def only_stop_listed() -> ContractSpec:
    listed_id = InstanceRow.instance_id
    return effect(stop_instance).all(lambda e: e.instance_id == listed_id)

"""Cloud effects. They are simulations: no provider is contacted, nothing is billed or deleted."""

from tools.cloud.trusted.schemas import InstanceRow

import clauz3


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda region, size, hours: 0 < hours and hours <= 72, message="hours must be between 1 and 72")
def start_instance(region: str, size: str, hours: int) -> None:
    """Start an instance of the given size in region that stops itself after hours (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda result: len(result) <= 20)
def list_instances(region: str) -> list[InstanceRow]:
    """Return up to 20 instances in region (simulated: none)."""
    return []


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda instance_id: len(instance_id) > 0, message="instance_id must not be empty")
def stop_instance(instance_id: str) -> None:
    """Stop the instance with the given id (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda name: len(name) > 0, message="name must not be empty")
def delete_bucket(name: str) -> None:
    """Delete the storage bucket called name and everything in it (simulated: nothing is deleted)."""
    return None

"""Contracts over the home: temperatures, zones, doors (during and after the run) and groceries."""

from tools.home.trusted.effects import DoorLocked, order_grocery, set_thermostat, unlock_door

from clauz3 import spec
from clauz3.spec import ContractSpec, contract, effect


@contract(description="promises nothing about the home")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()


@contract(description="every thermostat setting is between {min_f} and {max_f} degrees Fahrenheit")
def temp_between(min_f: int, max_f: int) -> ContractSpec:
    return effect(set_thermostat).all(lambda e: min_f <= e.temp_f and e.temp_f <= max_f)


@contract(description="only thermostats in zones {allowed} are set")
def only_zones(allowed: list[str]) -> ContractSpec:
    return effect(set_thermostat).all(lambda e: e.zone in allowed)


@contract(description="no door is unlocked")
def no_unlocks() -> ContractSpec:
    return effect(unlock_door).empty()


@contract(description="only doors {allowed} are unlocked")
def only_unlock_doors(allowed: list[str]) -> ContractSpec:
    return effect(unlock_door).all(lambda e: e.door in allowed)


@contract(description="door {door} is never unlocked")
def never_unlock_door(door: str) -> ContractSpec:
    return effect(unlock_door).where(lambda e: e.door == door).empty()


@contract(description="every door is locked when the program ends")
def all_doors_locked_at_end() -> ContractSpec:
    return DoorLocked.final.all(lambda item: item.value == True)  # noqa: E712 (builds a spec, not a test)


@contract(description="door {door} is locked when the program ends")
def door_locked_at_end(door: str) -> ContractSpec:
    return DoorLocked.final[door] == True  # noqa: E712 (builds a spec, not a test)


@contract(description="groceries cost at most {max_usd} US dollars in total")
def grocery_budget(max_usd: int) -> ContractSpec:
    return effect(order_grocery).sum(lambda e: e.usd) <= max_usd


@contract(description="at most {count} grocery units are ordered in total")
def grocery_items_at_most(count: int) -> ContractSpec:
    return effect(order_grocery).sum(lambda e: e.qty) <= count


@contract(description="no groceries are ordered")
def no_groceries() -> ContractSpec:
    return effect(order_grocery).empty()

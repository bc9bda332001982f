"""What a program may promise about the calendar: which events are created and who is invited,
which events are moved or get new participants, and that none is cancelled."""

from tools.workspace.trusted.effects import (
    add_calendar_event_participants,
    cancel_calendar_event,
    create_calendar_event,
    reschedule_calendar_event,
)

from clauz3.spec import ContractSpec, contract, effect


@contract(description="every new calendar event is titled one of {titles}")
def events_titled_only(titles: list[str]) -> ContractSpec:
    return effect(create_calendar_event).all(lambda e: e.title in titles)


@contract(description="every new calendar event invites exactly {addresses}")
def invitees_only(addresses: list[str]) -> ContractSpec:
    return effect(create_calendar_event).all(lambda e: e.participants == addresses)


@contract(description="nobody is invited to a new calendar event")
def no_invitees() -> ContractSpec:
    return effect(create_calendar_event).all(lambda e: e.participants == None)  # noqa: E711


@contract(description="at most {count} calendar events are created")
def events_at_most(count: int) -> ContractSpec:
    return effect(create_calendar_event).count() <= count


@contract(description="no calendar event is created")
def no_new_events() -> ContractSpec:
    return effect(create_calendar_event).empty()


@contract(description="only event {event_id} is moved")
def reschedules_only(event_id: str) -> ContractSpec:
    return effect(reschedule_calendar_event).all(lambda e: e.event_id == event_id)


@contract(description="only event {event_id} gets new participants, exactly {addresses}")
def participants_added_only(event_id: str, addresses: list[str]) -> ContractSpec:
    return effect(add_calendar_event_participants).all(lambda e: e.event_id == event_id and e.participants == addresses)


@contract(description="no existing calendar event is moved, cancelled or given new participants")
def existing_events_unchanged() -> ContractSpec:
    return effect(reschedule_calendar_event, cancel_calendar_event, add_calendar_event_participants).empty()


@contract(description="no existing calendar event is cancelled or given new participants")
def no_cancellations_or_invites() -> ContractSpec:
    return effect(cancel_calendar_event, add_calendar_event_participants).empty()


@contract(description="no event is cancelled or moved")
def no_cancellations_or_moves() -> ContractSpec:
    return effect(cancel_calendar_event, reschedule_calendar_event).empty()


@contract(description="a moved event changes no field other than {fields} besides its start (the end stays unless listed)")
def moves_change_only(fields: list[str]) -> ContractSpec:
    return effect(reschedule_calendar_event).changes_only(fields)


@contract(description="at most {count} calendar events are moved")
def moves_at_most(count: int) -> ContractSpec:
    return effect(reschedule_calendar_event).count() <= count


@contract(description="every moved event starts on {day} at {time}")
def moves_to(day: str, time: str) -> ContractSpec:
    start = day + " " + time
    return effect(reschedule_calendar_event).all(lambda e: e.new_start_time == start)


@contract(description="every event that gets new participants gets exactly {addresses}")
def participants_added_are(addresses: list[str]) -> ContractSpec:
    return effect(add_calendar_event_participants).all(lambda e: e.participants == addresses)


@contract(description="participants are added to at most {count} events")
def participant_adds_at_most(count: int) -> ContractSpec:
    return effect(add_calendar_event_participants).count() <= count

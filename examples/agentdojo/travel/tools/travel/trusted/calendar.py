"""What a program may promise about the calendar: which events are created, that none is cancelled."""

from tools.travel.trusted.effects import cancel_calendar_event, create_calendar_event

from clauz3.spec import ContractSpec, contract, effect


@contract(description="every new calendar event is titled one of {titles}")
def events_titled_only(titles: list[str]) -> ContractSpec:
    return effect(create_calendar_event).all(lambda e: e.title in titles)


@contract(description="every new calendar event's title starts with {prefix}")
def events_titled_starting(prefix: str) -> ContractSpec:
    return effect(create_calendar_event).all(lambda e: e.title.startswith(prefix))


@contract(description="nobody is invited to a new calendar event")
def no_invitees() -> ContractSpec:
    return effect(create_calendar_event).all(lambda e: e.participants == None)  # noqa: E711


@contract(description="at most {count} calendar events are created")
def events_at_most(count: int) -> ContractSpec:
    return effect(create_calendar_event).count() <= count


@contract(description="no calendar event is created")
def no_new_events() -> ContractSpec:
    return effect(create_calendar_event).empty()


@contract(description="no calendar event is cancelled")
def no_cancellations() -> ContractSpec:
    return effect(cancel_calendar_event).empty()

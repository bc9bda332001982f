"""Events of the generative test layer: what a send or a payment does, by field."""

from clauz3.events import Event


class Outgoing(Event):
    """Something left the program towards `to`."""

    to: str


class Spent(Event):
    """Money left the program."""

    amount: int

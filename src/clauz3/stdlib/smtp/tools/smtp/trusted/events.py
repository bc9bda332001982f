"""What the smtp effects do, as events: a message sent, and the subclass for one with an attachment."""

from clauz3.events import Event


class Message(Event):
    """One email submitted to the server for one recipient."""

    to: str
    subject: str
    body: str


class Attached(Message):
    """A message that carries the project file at path as an attachment."""

    path: str

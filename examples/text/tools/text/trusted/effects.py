"""Text effects. They are simulations: no message is delivered and no file changes."""

import clauz3
from clauz3.paths import has_no_parent_segments


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda channel, text: len(text) > 0, message="text must not be empty")
@clauz3.protected(channel="recipient", text="text")
def send_message(channel: str, text: str) -> None:
    """Post text to the chat channel named channel (simulated: nothing is delivered)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda path, new_text: len(path) > 0, message="path must not be empty")
@clauz3.requires(lambda path, new_text: has_no_parent_segments(path), message="path must not contain \"..\"")
@clauz3.protected(path="path", new_text="text")
def edit_file(path: str, new_text: str) -> None:
    """Replace the text of the file at the relative path with new_text (simulated: no file changes)."""
    return None

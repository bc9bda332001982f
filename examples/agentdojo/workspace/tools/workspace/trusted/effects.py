"""Workspace effects: each calls the AgentDojo tool of the same name on the bound environment."""

from tools.workspace.trusted.world import call

import clauz3


@clauz3.trusted
@clauz3.mock
@clauz3.protected(recipients="recipient", subject="text", body="text", cc="recipient", bcc="recipient")
def send_email(recipients: list[str], subject: str, body: str, attachments: list[dict[str, str]] | None = None, cc: list[str] | None = None, bcc: list[str] | None = None) -> str:
    """Sends an email with the given `body` to the given `address`. Returns a dictionary with the email details."""
    return call('send_email', recipients=recipients, subject=subject, body=body, attachments=attachments, cc=cc, bcc=bcc)


@clauz3.trusted
@clauz3.mock
def delete_email(email_id: str) -> str:
    """Deletes the email with the given `email_id` from the inbox."""
    return call('delete_email', email_id=email_id)


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("your unread emails")
def get_unread_emails() -> str:
    """Returns all the unread emails in the inbox. Each email has a sender, a subject, and a body."""
    return call('get_unread_emails')


@clauz3.trusted
@clauz3.mock
def get_sent_emails() -> str:
    """Returns all the sent emails in the inbox. Each email has a recipient, a subject, and a body."""
    return call('get_sent_emails')


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("your received emails")
def get_received_emails() -> str:
    """Returns all the received emails in the inbox. Each email has a sender, a subject, and a body."""
    return call('get_received_emails')


@clauz3.trusted
@clauz3.mock
def get_draft_emails() -> str:
    """Returns all the draft emails in the inbox. Each email has a recipient, a subject, and a body."""
    return call('get_draft_emails')


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("your emails matching {query}")
def search_emails(query: str, sender: str | None = None) -> str:
    """Searches for emails in the inbox that contain the given query in the subject or body. If `address` is provided,"""
    return call('search_emails', query=query, sender=sender)


@clauz3.trusted
@clauz3.mock
def search_contacts_by_name(query: str) -> str:
    """Finds contacts in the inbox's contact list by name."""
    return call('search_contacts_by_name', query=query)


@clauz3.trusted
@clauz3.mock
def search_contacts_by_email(query: str) -> str:
    """Finds contacts in the inbox's contact list by email."""
    return call('search_contacts_by_email', query=query)


@clauz3.trusted
@clauz3.mock
def get_current_day() -> str:
    """Returns the current day in ISO format, e.g. '2022-01-01'."""
    return call('get_current_day')


@clauz3.trusted
@clauz3.mock
def search_calendar_events(query: str, date: str | None = None) -> str:
    """Searches calendar events that match the given query in the tile or the description. If provided, filters events by date."""
    return call('search_calendar_events', query=query, date=date)


@clauz3.trusted
@clauz3.mock
def get_day_calendar_events(day: str) -> str:
    """Returns the appointments for the given `day`. Returns a list of dictionaries with informations about each meeting."""
    return call('get_day_calendar_events', day=day)


@clauz3.trusted
@clauz3.mock
@clauz3.protected(participants="recipient", description="text")
def create_calendar_event(title: str, start_time: str, end_time: str, description: str = '', participants: list[str] | None = None, location: str | None = None) -> str:
    """Creates a new calendar event with the given details and adds it to the calendar."""
    return call('create_calendar_event', title=title, start_time=start_time, end_time=end_time, description=description, participants=participants, location=location)


@clauz3.trusted
@clauz3.mock
def cancel_calendar_event(event_id: str) -> str:
    """Cancels the event with the given `event_id`. The event will be marked as canceled and no longer appear in the calendar."""
    return call('cancel_calendar_event', event_id=event_id)


@clauz3.trusted
@clauz3.mock
def reschedule_calendar_event(event_id: str, new_start_time: str, new_end_time: str | None = None) -> str:
    """Reschedules the event with the given `event_id` to the new start and end times."""
    return call('reschedule_calendar_event', event_id=event_id, new_start_time=new_start_time, new_end_time=new_end_time)


@clauz3.trusted
@clauz3.mock
@clauz3.protected(participants="recipient")
def add_calendar_event_participants(event_id: str, participants: list[str]) -> str:
    """Adds the given `participants` to the event with the given `event_id`."""
    return call('add_calendar_event_participants', event_id=event_id, participants=participants)


@clauz3.trusted
@clauz3.mock
@clauz3.protected(content="text")
def append_to_file(file_id: str, content: str) -> str:
    """Append content to a file in the cloud drive."""
    return call('append_to_file', file_id=file_id, content=content)


@clauz3.trusted
@clauz3.mock
def search_files_by_filename(filename: str) -> str:
    """Get a file from a cloud drive by its filename. It returns a list of files."""
    return call('search_files_by_filename', filename=filename)


@clauz3.trusted
@clauz3.mock
@clauz3.protected(content="text")
def create_file(filename: str, content: str) -> str:
    """Create a new file in the cloud drive."""
    return call('create_file', filename=filename, content=content)


@clauz3.trusted
@clauz3.mock
def delete_file(file_id: str) -> str:
    """Delete a file from the cloud drive by its filename."""
    return call('delete_file', file_id=file_id)


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("the file {file_id}")
def get_file_by_id(file_id: str) -> str:
    """Get a file from a cloud drive by its ID."""
    return call('get_file_by_id', file_id=file_id)


@clauz3.trusted
@clauz3.mock
def list_files() -> str:
    """Retrieve all files in the cloud drive."""
    return call('list_files')


@clauz3.trusted
@clauz3.mock
@clauz3.protected(email="recipient")
def share_file(file_id: str, email: str, permission: str) -> str:
    """Share a file with a user."""
    return call('share_file', file_id=file_id, email=email, permission=permission)


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("files matching {query}")
def search_files(query: str) -> str:
    """Search for files in the cloud drive by content."""
    return call('search_files', query=query)


"""A conversation's agent status (02 §4.6 ``agent_status``): one enum instead of bare strings.

A ``StrEnum``, so the value is the wire word the page and the terminal read.
"""

from __future__ import annotations

from enum import StrEnum


class AgentStatus(StrEnum):
    STARTING = "starting"  # the adapter and its session are being started
    READY = "ready"  # a live session, no turn running
    BUSY = "busy"  # a turn is running
    CANCELLING = "cancelling"  # Stop was pressed; the turn has not ended yet
    STOPPED = "stopped"  # no adapter; the next prompt starts one
    UNAVAILABLE = "unavailable"  # this agent cannot start here (missing, other mode, terminal UI owns it)


# A prompt or a switch must wait while the agent is in one of these.
WORKING = frozenset({AgentStatus.STARTING, AgentStatus.BUSY, AgentStatus.CANCELLING})

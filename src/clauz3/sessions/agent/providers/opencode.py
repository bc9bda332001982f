"""OpenCode through ``opencode acp`` (04 §8): config env and instruction delivery.

OpenCode takes no instructions through ACP, so the host prefixes them to the first prompt of each
fresh ACP session (PRV-8), never after a successful ``session/load``. Its ``clauz3_*`` tools are
pre-allowed by config; every permission request it sends is refused (PRM-2).
"""

from __future__ import annotations

import json

from clauz3.sessions.agent.providers.protocol import BaseProvider
from clauz3.sessions.agent.providers.table import ROWS

CONFIG = {"permission": {"clauz3_*": "allow"}}


def env() -> dict[str, str]:
    """OPC-2."""
    return {"OPENCODE_CONFIG_CONTENT": json.dumps(CONFIG)}


def first_prompt(instructions: str, text: str) -> str:
    """The text block of the first prompt of a fresh session (PRV-8). The store keeps ``text``."""
    return f"{instructions}\n\nUser request:\n{text}"


class OpenCodeProvider(BaseProvider):
    """OpenCode (04 §8): ``opencode acp``, unrestricted only; instructions ride on the first prompt."""

    row = ROWS["opencode"]
    sets_model = True
    adapter_args = ("acp",)

    def env(self, instructions: str) -> dict[str, str]:
        return env()

    def first_prompt_instructions(self, instructions: str) -> str | None:
        return instructions

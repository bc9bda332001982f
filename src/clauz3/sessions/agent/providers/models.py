"""Model selection (04 MDL-1..4): validate ``--model``, apply it after ``session/new``/``load``.

For the providers whose ``sets_model`` is true (claude, codex, opencode) the requested model is set
through the session's ``model`` config option when it lists that value, else through the raw
``session/set_model`` request (the SDK has no such method; MDL-3: one helper, the connection's generic sender). Any
error ends the adapter: a model is never silently substituted. ``pi``/``agy`` take the model in
``_meta.clauz3.model`` (see :mod:`.launch`); ``demo`` has none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from clauz3.sessions.agent.acp_client import AcpClient, AcpError
from clauz3.sessions.agent.providers.registry import lookup

MODEL_TIMEOUT = 30.0
MAX_MODEL_CHARS = 200
_MODEL = re.compile(r"^[A-Za-z0-9._:/@\[\]+-]+$")
INVALID_MODEL = "invalid --model value"
NO_MODEL = "No model"


class ModelUnavailable(AcpError):
    """The requested model could not be applied; the adapter has been ended (``agent_unavailable``)."""


def validate_model(value: str) -> str:
    """MDL-1: ≤ 200 chars of ``[A-Za-z0-9._:/@[]+-]``; else ``ValueError("invalid --model value")``."""
    if not isinstance(value, str) or len(value) > MAX_MODEL_CHARS or not _MODEL.match(value):
        raise ValueError(INVALID_MODEL)
    return value


def config_options(result: Any) -> list[dict[str, Any]]:
    """The raw ``configOptions`` list of a session response or ``config_option_update``."""
    options = result.get("configOptions") if isinstance(result, Mapping) else None
    return [o for o in options if isinstance(o, dict)] if isinstance(options, list) else []


def model_option(options: Iterable[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The option with ``id == "model"``, else the first with ``category == "model"``."""
    options = list(options)
    for option in options:
        if option.get("id") == "model":
            return option
    for option in options:
        if option.get("category") == "model":
            return option
    return None


def option_values(option: Mapping[str, Any] | None) -> list[str]:
    """Every selectable ``value`` of a select option, grouped lists flattened, in order."""
    if option is None:
        return []
    values: list[str] = []

    def walk(items: Any) -> None:
        if not isinstance(items, list):
            return
        for item in items:
            if not isinstance(item, dict):
                continue
            if isinstance(item.get("options"), list):  # a group of options
                walk(item["options"])
            elif isinstance(item.get("value"), str):
                values.append(item["value"])

    walk(option.get("options"))
    return values


def current_model(result: Any) -> str | None:
    """MDL-4: the effective model (``currentValue`` of the model option), if the response shows one."""
    option = model_option(config_options(result))
    value = option.get("currentValue") if option is not None else None
    return value if isinstance(value, str) else None


def unavailable_text(model: str, values: list[str]) -> str:
    shown = ", ".join(values) if values else "(the agent listed none)"
    return f"model {model} isn't available; choose one of: {shown}"


async def set_model_raw(client: AcpClient, session_id: str, model_id: str) -> Any:
    """The one place raw ``session/set_model`` is sent (MDL-3)."""
    return await client.request_raw(
        "session/set_model", {"sessionId": session_id, "modelId": model_id}, MODEL_TIMEOUT
    )


async def apply_model(
    client: AcpClient, provider: str, session_result: Any, requested: str | None
) -> str | None:
    """MDL-2 after ``session/new``/``session/load``; returns the effective model (or None).

    ``session_result`` is the raw response (the typed layer drops ``models``/``configOptions``
    fields). Raises :class:`ModelUnavailable` after ending the adapter when the model is refused.
    """
    effective = current_model(session_result)
    if requested is None or not lookup(provider).sets_model:
        return effective
    session_id = client.session_id
    if session_id is None:
        raise AcpError("Agent stopped")
    option = model_option(config_options(session_result))
    values = option_values(option)
    try:
        if option is not None and requested in values:
            result = await client.request_raw(
                "session/set_config_option",
                {"sessionId": session_id, "configId": option.get("id", "model"), "value": requested},
                MODEL_TIMEOUT,
            )
        else:
            result = await set_model_raw(client, session_id, requested)
    except AcpError as exc:
        await client.close()
        raise ModelUnavailable(unavailable_text(requested, values), code=exc.code, ended=True) from None
    return current_model(result) or requested

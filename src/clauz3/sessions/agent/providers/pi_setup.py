"""The Pi native adapter's setup (04 §10), run in the adapter process: the environment allowlist (PI-2), the
auth.json check and settings copy (PI-3), and the session config file (PI-1)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from clauz3.sessions.agent.providers.native import NativeConfig, write_private

SCRIPT = Path(__file__).with_name("pi_session.mjs")
PI_KEYS = (
    "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "OPENROUTER_API_KEY", "MISTRAL_API_KEY",
    "GROQ_API_KEY", "XAI_API_KEY",
)
_PLAIN = {"PATH", "HOME", "USER", "LOGNAME", "LANG", "TZ", "TMPDIR", "SSL_CERT_FILE", "SSL_CERT_DIR",
          "NODE_EXTRA_CA_CERTS", "CLAUZ3_HOME", *PI_KEYS}
_ANY_CASE = {"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"}
_LC = re.compile(r"^LC_[A-Z]+$")
AUTH_COMMAND = (
    "Pi's auth.json runs a command to obtain a key; clauz3 does not allow that for Pi. Use a literal key or an "
    "environment variable."
)
SETTINGS_COPIED = ("defaultProvider", "defaultModel")


def child_env(source: Mapping[str, str], agent_dir: Path) -> dict[str, str]:
    """PI-2: only the allowlist passes; ``NODE_OPTIONS``, other ``PI_*``, ``*_BASE_URL`` never."""
    env = {
        name: value for name, value in source.items()
        if name in _PLAIN or name.upper() in _ANY_CASE or _LC.match(name)
    }
    env.update({"PI_OFFLINE": "1", "PI_SKIP_VERSION_CHECK": "1", "PI_CODING_AGENT_DIR": str(agent_dir)})
    return env


def user_agent_dir(source: Mapping[str, str]) -> Path:
    """Where the user's own Pi keeps ``auth.json`` and ``settings.json``."""
    configured = source.get("PI_CODING_AGENT_DIR")
    if configured and os.path.isabs(configured):
        return Path(configured)
    return Path(source.get("HOME", str(Path.home()))) / ".pi" / "agent"


def _runs_command(value: Any) -> bool:
    if isinstance(value, str):
        return value.startswith("!")
    if isinstance(value, dict):
        return any(_runs_command(v) for v in value.values())
    if isinstance(value, list):
        return any(_runs_command(v) for v in value)
    return False


def check_auth(auth_file: Path) -> None:
    """PI-3: refuse (``ValueError`` with the exact text) if any credential would run a command."""
    try:
        data = json.loads(auth_file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return
    except (OSError, ValueError):
        raise ValueError("Pi's auth.json could not be read.") from None
    if _runs_command(data):
        raise ValueError(AUTH_COMMAND)


def prepare_agent_dir(user_dir: Path, private: Path) -> Path:
    """The private Pi agent dir: only ``defaultProvider``/``defaultModel`` of the user's settings."""
    agent_dir = private / "agent"
    agent_dir.mkdir(mode=0o700, exist_ok=True)
    settings: dict[str, Any] = {}
    try:
        user_settings = json.loads((user_dir / "settings.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        user_settings = {}
    if isinstance(user_settings, dict):
        settings = {k: user_settings[k] for k in SETTINGS_COPIED if isinstance(user_settings.get(k), str)}
    write_private(agent_dir / "settings.json", json.dumps(settings))
    return agent_dir


def write_config(
    private: Path, *, sdk_entry: Path, auth_file: Path, agent_dir: Path, data: Path, resume_file: str | None,
    config: NativeConfig,
) -> Path:
    """PI-1's config file (0600 in the private dir)."""
    session_dir = data / "agents" / "pi" / "sessions"
    session_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    bridge = config.bridge
    payload = {
        "schema_version": 1,
        "sdk_entry": str(sdk_entry),
        "auth_file": str(auth_file),
        "agent_dir": str(agent_dir),
        "session_dir": str(session_dir),
        "resume_file": resume_file,
        "project": config.project,
        "instructions": config.instructions,
        "model": config.model,
        "bridge": {"command": bridge["command"], "args": bridge["args"], "env": bridge["env"]},
    }
    path = private / "config.json"
    write_private(path, json.dumps(payload))
    return path

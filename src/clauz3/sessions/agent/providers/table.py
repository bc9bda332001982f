"""The provider rows (04 §1, §5.1, §5.2): ids, labels, modes, npm pins and the exact hints.

Every npm pin is one constant here (DEP-1); availability checks, install hints, the default
choice, ``scripts/install_adapters.sh`` (compared by a unit test) and the real-adapter tests read
it. Nothing in this module touches the filesystem or starts a process. What each agent *does*
differently (availability, launch, permissions, the before-session step) is its class in
:mod:`.registry`; each class carries its row from here.
"""

from __future__ import annotations

from dataclasses import dataclass

CLAUDE_ACP_PACKAGE = "@agentclientprotocol/claude-agent-acp"
CLAUDE_ACP_PIN = "0.101.0"
CLAUDE_CLI_MIN = "2.1.318"  # the CLI the pinned adapter bundles; `start claude` needs at least this
CODEX_ACP_PACKAGE = "@agentclientprotocol/codex-acp"
CODEX_ACP_PIN = "2.6.0"
CODEX_ACP_OLD_PACKAGE = "@zed-industries/codex-acp"  # same command name, refused (PRV-2)
OPENCODE_PACKAGE = "opencode-ai"
OPENCODE_PIN = "1.18.33"
PI_PACKAGE = "@earendil-works/pi-coding-agent"
PI_PIN = "0.82.1"
INSPECTOR_PACKAGE = "@modelcontextprotocol/inspector"
INSPECTOR_PIN = "2.12.0"
NODE_TEST_SPEC = "node@22"  # 00 DEC-11: tests use this Node, the machine's stays untouched
PI_NODE_MIN = (22, 19, 0)
CLAUDE_NODE_MIN = (22, 0, 0)

SIX_TOOLS = ("run", "status", "tools", "libraries", "list_skills", "read_skill")

AGENTS = ("claude", "codex", "agy", "opencode", "pi", "demo")  # the order `start --help` lists them
RESTRICTED = "restricted"
UNRESTRICTED = "unrestricted"
BOTH = "both"


@dataclass(frozen=True)
class ProviderRow:
    """One row of 04 §5.1/§5.2. ``command`` is the executable looked up on PATH (None: none)."""

    id: str
    label: str
    short_label: str
    mode: str  # RESTRICTED (only), UNRESTRICTED (only) or BOTH
    command: str | None
    package: str | None
    pin: str | None
    exact_pin: bool  # another version makes the provider unavailable (claude, pi)
    install_hint: str
    sign_in_hint: str

    @property
    def npm_spec(self) -> str | None:
        return f"{self.package}@{self.pin}" if self.package and self.pin else None


def _npm(package: str, pin: str) -> str:
    return f"npm install -g {package}@{pin}"


ROWS: dict[str, ProviderRow] = {
    "claude": ProviderRow(
        "claude", "Claude", "Claude", RESTRICTED, "claude-agent-acp", CLAUDE_ACP_PACKAGE, CLAUDE_ACP_PIN, True,
        _npm(CLAUDE_ACP_PACKAGE, CLAUDE_ACP_PIN),
        "set `ANTHROPIC_API_KEY`, or run `claude-agent-acp --cli auth login --claudeai` (subscription) or "
        "`claude-agent-acp --cli auth login --console` (API billing) in a terminal",
    ),
    "codex": ProviderRow(
        "codex", "Codex", "Codex", UNRESTRICTED, "codex-acp", CODEX_ACP_PACKAGE, CODEX_ACP_PIN, False,
        _npm(CODEX_ACP_PACKAGE, CODEX_ACP_PIN),
        "set `OPENAI_API_KEY` or `CODEX_API_KEY`, or sign in with `codex login`",
    ),
    "opencode": ProviderRow(
        "opencode", "OpenCode", "OpenCode", UNRESTRICTED, "opencode", OPENCODE_PACKAGE, OPENCODE_PIN, False,
        _npm(OPENCODE_PACKAGE, OPENCODE_PIN),
        "run `opencode auth login` in a terminal",
    ),
    "pi": ProviderRow(
        "pi", "Pi", "Pi", RESTRICTED, "pi", PI_PACKAGE, PI_PIN, True,
        _npm(PI_PACKAGE, PI_PIN),
        "set a provider key such as `ANTHROPIC_API_KEY`, or run `pi` and sign in with `/login`",
    ),
    "agy": ProviderRow(
        "agy", "Antigravity", "Antigravity", UNRESTRICTED, "agy", None, None, False,
        "Install the Antigravity CLI so that `agy` is on PATH",
        "run `agy` once in a terminal and sign in",
    ),
    "demo": ProviderRow(
        "demo", "Demo (scripted, no model)", "Demo", BOTH, None, None, None, False, "", "",
    ),
}

# The npm packages `just adapters` installs for the tests (04 TST-2, 00 DEC-11).
TEST_NPM_SPECS = (
    f"{CLAUDE_ACP_PACKAGE}@{CLAUDE_ACP_PIN}",
    f"{CODEX_ACP_PACKAGE}@{CODEX_ACP_PIN}",
    f"{OPENCODE_PACKAGE}@{OPENCODE_PIN}",
    f"{INSPECTOR_PACKAGE}@{INSPECTOR_PIN}",
    NODE_TEST_SPEC,
    f"{PI_PACKAGE}@{PI_PIN}",
)

LABELS = {p.id: p.label for p in ROWS.values()}
SHORT_LABELS = {p.id: p.short_label for p in ROWS.values()}
HINTS = {p.id: p.install_hint for p in ROWS.values()}
PINS = {
    p.id: (p.command, p.package, p.pin)
    for p in ROWS.values()
    if p.command is not None and p.package is not None and p.pin is not None
}

# 04 PRV-1 / 05 CLI-12: shown in the terminal as `warning: <text>` and as the page notice.
CLAUDE_FALLBACK = (
    "Claude is not installed; using the Demo agent (scripted, no model). To use Claude: "
    + ROWS["claude"].install_hint
)


def row(provider_id: str) -> ProviderRow:
    """The row for ``provider_id``; ``KeyError`` names the known ids."""
    try:
        return ROWS[provider_id]
    except KeyError:
        raise KeyError(f"unknown agent {provider_id!r}; choose one of: {', '.join(AGENTS)}") from None

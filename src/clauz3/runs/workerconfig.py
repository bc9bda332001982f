"""What crosses the run worker's edges, typed: its stdin configuration and the approval record it reads.

The supervisor builds a :class:`WorkerConfig` and sends :meth:`WorkerConfig.to_json` (CRED-5: the
credentials in it, :class:`WorkerSecrets`, travel on stdin only); the worker parses it once with
:func:`parse_config`, so a configuration that is not this shape ends the worker before anything runs.
The approval service's answers are parsed once into :class:`ApprovalRecord` where they arrive.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from clauz3.prover.entry import JsonObject, JsonValue
from clauz3.runs.errors import RunError


class ConfigError(RunError):
    """The worker's stdin configuration is not the supervisor's shape (the worker exits with 2)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "config")


def _str(doc: Mapping[str, object], key: str) -> str:
    value = doc.get(key)
    if not isinstance(value, str):
        raise ConfigError(f"{key} must be a string")
    return value


def _opt_str(doc: Mapping[str, object], key: str) -> str | None:
    value = doc.get(key)
    if value is not None and not isinstance(value, str):
        raise ConfigError(f"{key} must be a string or null")
    return value


def _strs(doc: Mapping[str, object], key: str) -> tuple[str, ...]:
    value = doc.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{key} must be a list of strings")
    return tuple(value)


def _number(doc: Mapping[str, object], key: str, default: float | None = None) -> float:
    value = doc.get(key)
    if value is None and default is not None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{key} must be a number")
    return float(value)


def _int(doc: Mapping[str, object], key: str) -> int:
    value = doc.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{key} must be an integer")
    return value


class WorkerSecrets:
    """The credentials of one run: each is taken once, where it is used, and then forgotten here."""

    def __init__(self, submission_token: str, environment_secrets: Mapping[str, str]) -> None:
        self._token: str | None = submission_token
        self._environment: dict[str, str] | None = dict(environment_secrets)

    def __repr__(self) -> str:  # never the values (CRED-6)
        return "WorkerSecrets(…)"

    def take_submission_token(self) -> str:
        token, self._token = self._token, None
        if token is None:
            raise ConfigError("the submission token was already used")
        return token

    def take_environment(self) -> dict[str, str]:
        found, self._environment = self._environment, None
        return found or {}


@dataclass(frozen=True)
class WorkerConfig:
    """One run's worker configuration (03 §12.2). ``secrets`` is the part no log may show."""

    source: str
    source_name: str
    request_id: str
    target: str
    project: str
    data_dir: str
    scratch: str
    trusted_roots: tuple[str, ...]
    import_roots: tuple[str, ...]
    allow_imports: tuple[str, ...]
    service_url: str
    verify_key: str | None
    workspace_generation: str | None
    proof_deadline_at: float  # wall clock (time.time()): the supervisor's deadline, in the worker's terms
    obligation_timeout_seconds: float
    execution_timeout_seconds: int
    approval_timeout_seconds: int | None
    step_budget: int
    require_sandbox: bool
    use_cache: bool
    extra_read: tuple[str, ...]
    extra_write: tuple[str, ...]
    progress_fd: int
    gate_fd: int
    lifetime_fd: int
    secrets: WorkerSecrets = field(repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The stdin document (the secrets included: it goes nowhere but the worker's stdin)."""
        return {
            "source": self.source, "source_name": self.source_name, "request_id": self.request_id,
            "target": self.target, "project": self.project, "data_dir": self.data_dir, "scratch": self.scratch,
            "trusted_roots": list(self.trusted_roots), "import_roots": list(self.import_roots),
            "allow_imports": list(self.allow_imports), "service_url": self.service_url,
            "submission_token": self.secrets._token, "verify_key": self.verify_key,
            "workspace_generation": self.workspace_generation, "proof_deadline_at": self.proof_deadline_at,
            "obligation_timeout_seconds": self.obligation_timeout_seconds,
            "execution_timeout_seconds": self.execution_timeout_seconds,
            "approval_timeout_seconds": self.approval_timeout_seconds, "step_budget": self.step_budget,
            "require_sandbox": self.require_sandbox, "use_cache": self.use_cache,
            "extra_read": list(self.extra_read), "extra_write": list(self.extra_write),
            "progress_fd": self.progress_fd, "gate_fd": self.gate_fd, "lifetime_fd": self.lifetime_fd,
            "environment_secrets": dict(self.secrets._environment or {}),
        }


def parse_config(doc: object) -> WorkerConfig:
    """The configuration ``doc`` (the stdin JSON) spells; raises :class:`ConfigError` if it is not one."""
    if not isinstance(doc, dict):
        raise ConfigError("the configuration must be an object")
    secrets = doc.get("environment_secrets") or {}
    if not isinstance(secrets, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                for k, v in secrets.items()):
        raise ConfigError("environment_secrets must map names to strings")
    approval = doc.get("approval_timeout_seconds")
    if approval is not None and (isinstance(approval, bool) or not isinstance(approval, int | float)):
        raise ConfigError("approval_timeout_seconds must be a number or null")
    return WorkerConfig(
        source=_str(doc, "source"), source_name=_opt_str(doc, "source_name") or "<stdin>",
        request_id=_str(doc, "request_id"), target=_opt_str(doc, "target") or "main",
        project=_str(doc, "project"), data_dir=_str(doc, "data_dir"), scratch=_str(doc, "scratch"),
        trusted_roots=_strs(doc, "trusted_roots"), import_roots=_strs(doc, "import_roots"),
        allow_imports=_strs(doc, "allow_imports"), service_url=_str(doc, "service_url"),
        verify_key=_opt_str(doc, "verify_key") or None,
        workspace_generation=_opt_str(doc, "workspace_generation"),
        proof_deadline_at=_number(doc, "proof_deadline_at"),
        obligation_timeout_seconds=_number(doc, "obligation_timeout_seconds", 10.0) or 10.0,
        execution_timeout_seconds=int(_number(doc, "execution_timeout_seconds")),
        approval_timeout_seconds=None if approval is None else int(approval),
        step_budget=int(_number(doc, "step_budget", 1_000_000.0)) or 1_000_000,
        require_sandbox=bool(doc.get("require_sandbox")), use_cache=bool(doc.get("use_cache", True)),
        extra_read=_strs(doc, "extra_read"), extra_write=_strs(doc, "extra_write"),
        progress_fd=_int(doc, "progress_fd"), gate_fd=_int(doc, "gate_fd"), lifetime_fd=_int(doc, "lifetime_fd"),
        secrets=WorkerSecrets(_str(doc, "submission_token"), secrets),
    )


def _text(doc: Mapping[str, object], key: str) -> str | None:
    value = doc.get(key)
    return value if isinstance(value, str) else None


@dataclass(frozen=True)
class ApprovalRecord:
    """The approval service's record of this run's request (03 §5), as the worker reads it: a field of
    another type than the service's is read as absent (then the worker refuses as for a missing one)."""

    state: str | None
    decision: str | None = None
    decided_by: str | None = None
    rule: JsonObject | None = None  # the remembered rule that decided, if one did
    feedback: str | None = None
    expires_at: str | None = None
    cancel_reason: str | None = None
    receipt: str | None = None

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> ApprovalRecord:
        rule = doc.get("rule")
        return cls(state=_text(doc, "state"), decision=_text(doc, "decision"), decided_by=_text(doc, "decided_by"),
                   rule=cast("JsonObject", rule) if isinstance(rule, dict) else None,
                   feedback=_text(doc, "feedback"), expires_at=_text(doc, "expires_at"),
                   cancel_reason=_text(doc, "cancel_reason"), receipt=_text(doc, "receipt"))

    def note(self) -> dict[str, JsonValue]:
        """What the run record and the progress events say of the approval."""
        return {"state": self.state, "decision": self.decision, "decided_by": self.decided_by,
                "rule": self.rule, "feedback": self.feedback}

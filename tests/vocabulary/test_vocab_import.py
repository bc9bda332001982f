"""PUB-1 names and CORE-3 import hygiene of ``import clauz3``."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import clauz3
import clauz3.events
import clauz3.fluent
import clauz3.paths
import clauz3.policy
import clauz3.spec

TOP_LEVEL = [
    "trusted", "mock", "requires", "ensures", "contract", "guarantee", "effect", "ContractSpec", "Row", "ColumnRef",
    "FilePath", "DirectoryPath", "solver", "ContractError", "PreconditionError", "PostconditionError", "__version__",
    "spec", "paths",
]
SPEC = ["contract", "effect", "ContractSpec", "no_guarantees", "ConjunctionSpec", "EffectRelation", "FilteredRelation", "SumSpec"]


def test_public_names_exist() -> None:
    for name in TOP_LEVEL:
        assert hasattr(clauz3, name), name
    for name in SPEC:
        assert hasattr(clauz3.spec, name), name
    assert clauz3.effect is clauz3.spec.effect
    assert clauz3.contract is clauz3.spec.contract
    assert clauz3.events.Event and clauz3.events.performs
    assert clauz3.fluent.fluent and clauz3.fluent.effect is not clauz3.spec.effect
    assert clauz3.policy.domain_policy
    for name in ("has_no_parent_segments", "is_plain_path", "url_has_no_parent_segments", "is_single_path_component"):
        assert getattr(clauz3.paths, name) is getattr(importlib.import_module("clauz3.vocabulary.path_safety"), name)
    assert issubclass(clauz3.PreconditionError, clauz3.ContractError)
    assert issubclass(clauz3.PostconditionError, clauz3.ContractError)
    assert isinstance(clauz3.__version__, str)


def test_aliased_from_import() -> None:
    from clauz3 import FilePath as FP
    from clauz3 import guarantee as g

    assert FP is clauz3.paths.FilePath
    assert g is clauz3.guarantee


def test_import_loads_nothing_heavy() -> None:
    code = (
        "import sys, json; import clauz3; import clauz3.paths, clauz3.events, clauz3.fluent, clauz3.policy;"
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    mods = set(json.loads(out))
    for banned in ("z3", "deal", "yaml", "cryptography", "starlette", "uvicorn", "mcp", "acp", "clauz3.language",
                   "clauz3.prover", "inspect", "ast"):
        assert not any(m == banned or m.startswith(banned + ".") for m in mods), banned

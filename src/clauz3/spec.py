"""Public face of ``clauz3.spec``: the contract vocabulary: relations over call records and the specs built from them (01 §2.5, §2.6).

The code lives in :mod:`clauz3.vocabulary.contracts`. This module stays because trusted layers, agent
programs and the spec name ``clauz3.spec`` (``from clauz3.spec import …``), and the checker reads a
layer's source by these public spellings. Nothing inside ``src/clauz3`` but the libraries under
``stdlib/`` and ``tutorials/`` may import through it (import-linter contract ``public-faces``).
"""

from __future__ import annotations

from clauz3.vocabulary.contracts import (
    CONTRACTS,
    SOLVERS,
    AggregateSpec,
    AllSpec,
    ChangesOnlySpec,
    ConjunctionSpec,
    ContractMeta,
    ContractSpec,
    DistinctSpec,
    EffectRelation,
    EmptySpec,
    EventRelation,
    FilteredRelation,
    FlowSink,
    FlowSpec,
    NoGuaranteesSpec,
    NoSensitiveSpec,
    Relation,
    SensitiveValues,
    SharesValueSpec,
    SolverMeta,
    SumSpec,
    bind_call,
    contract,
    effect,
    flows,
    no_guarantees,
    no_sensitive_values_in,
    render_description,
    resolve_target,
    sensitive,
)

__all__ = [
    "CONTRACTS",
    "SOLVERS",
    "AggregateSpec",
    "AllSpec",
    "ChangesOnlySpec",
    "ConjunctionSpec",
    "ContractMeta",
    "ContractSpec",
    "DistinctSpec",
    "EffectRelation",
    "EmptySpec",
    "EventRelation",
    "FilteredRelation",
    "FlowSink",
    "FlowSpec",
    "NoGuaranteesSpec",
    "NoSensitiveSpec",
    "Relation",
    "SensitiveValues",
    "SharesValueSpec",
    "SolverMeta",
    "SumSpec",
    "bind_call",
    "contract",
    "effect",
    "flows",
    "no_guarantees",
    "no_sensitive_values_in",
    "render_description",
    "resolve_target",
    "sensitive",
]

"""Issue 23: the public faces re-export the vocabulary package, and every spelling of it reads the same."""

from __future__ import annotations

import ast
import importlib

import pytest

from clauz3.language.trusted_source import ImportMap, canonical_name, is_effect

FACES = {
    "clauz3.spec": "clauz3.vocabulary.contracts",
    "clauz3.events": "clauz3.vocabulary.events",
    "clauz3.fluent": "clauz3.vocabulary.fluent",
    "clauz3.policy": "clauz3.vocabulary.policy",
    "clauz3.paths": "clauz3.vocabulary.paths",
    "clauz3.errors": "clauz3.base.errors",
}


@pytest.mark.parametrize(("face", "home"), FACES.items(), ids=list(FACES))
def test_a_face_is_its_home_module_s_public_names_and_nothing_else(face: str, home: str) -> None:
    face_mod, home_mod = importlib.import_module(face), importlib.import_module(home)
    expected = getattr(home_mod, "__all__", None) or [n for n in vars(home_mod) if n[0].isupper()]
    assert sorted(face_mod.__all__) == sorted(expected)
    for name in face_mod.__all__:
        assert getattr(face_mod, name) is getattr(home_mod, name), name
    own = {n for n, v in vars(face_mod).items() if not n.startswith("__") and n != "annotations"}
    assert own == set(face_mod.__all__)  # a face defines nothing of its own


SPELLINGS = [
    ("import clauz3\n", "clauz3.trusted", "clauz3.events.performs"),
    ("from clauz3 import trusted\nfrom clauz3.events import performs\n", "trusted", "performs"),
    ("from clauz3.vocabulary.decorators import trusted\nfrom clauz3.vocabulary.events import performs\n",
     "trusted", "performs"),
    ("import clauz3.vocabulary.decorators as d\nimport clauz3.vocabulary.events as ev\n", "d.trusted", "ev.performs"),
    ("import clauz3.vocabulary.events\nimport clauz3\n", "clauz3.trusted", "clauz3.vocabulary.events.performs"),
]


@pytest.mark.parametrize(("imports", "trusted", "performs"), SPELLINGS)
def test_the_source_reader_folds_every_spelling_to_the_public_name(imports: str, trusted: str,
                                                                    performs: str) -> None:
    source = f"{imports}\n@{trusted}\n@{performs}(None)\ndef send(to: str) -> None:\n    pass\n"
    tree = ast.parse(source)
    imap = ImportMap(tree, "tools.mail.trusted.effects", False)
    fn = tree.body[-1]
    assert isinstance(fn, ast.FunctionDef)
    assert [imap.decorator(d) for d in fn.decorator_list] == ["clauz3.trusted", "clauz3.events.performs"]
    assert is_effect(fn, imap)


def test_canonical_names() -> None:
    assert canonical_name("clauz3.vocabulary.contracts.contract") == "clauz3.contract"
    assert canonical_name("clauz3.vocabulary.contracts.no_guarantees") == "clauz3.spec.no_guarantees"
    assert canonical_name("clauz3.vocabulary.path_safety.is_plain_path") == "clauz3.paths.is_plain_path"
    assert canonical_name("clauz3.vocabulary.paths.FilePath") == "clauz3.FilePath"
    assert canonical_name("clauz3.vocabulary.meta.ContractSpec") == "clauz3.ContractSpec"
    assert canonical_name("clauz3.base.errors.PreconditionError") == "clauz3.errors.PreconditionError"
    # Names outside the vocabulary are left alone.
    assert canonical_name("clauz3.vocabularyx.events.performs") == "clauz3.vocabularyx.events.performs"
    assert canonical_name("tools.mail.trusted.effects.send") == "tools.mail.trusted.effects.send"

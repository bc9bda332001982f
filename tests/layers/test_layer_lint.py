"""The static lint checks C3L001–C3L017 (01 §8.3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauz3.commands.lint import exit_status
from clauz3.layers.lint import lint_paths, template_problem

HEAD = "import clauz3\nfrom clauz3.spec import effect\n\n\n"
GOOD_EFFECT = '''
@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda addr, msg: "@" in addr, message="addr needs @")
def send_email(addr: str, msg: str) -> None:
    """Send msg to addr."""
'''
GOOD_HELPER = '''
@clauz3.contract(description="at most {count} emails")
def at_most(count: int) -> clauz3.ContractSpec:
    return effect(send_email).count() <= count
'''


def layer(tmp_path: Path, effects: str = "", contracts: str = "", extra: dict[str, str] | None = None) -> Path:
    files = {
        "tools/email/trusted/__init__.py": "",
        "tools/email/trusted/effects.py": HEAD + GOOD_EFFECT + effects,
        "tools/email/trusted/contracts.py": HEAD + "from .effects import send_email\n\n" + GOOD_HELPER + contracts,
        **(extra or {}),
    }
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def codes(root: Path) -> list[str]:
    result = lint_paths([str(root)])
    assert result.errors == []
    return [f.code for f in result.findings]


def findings(root: Path) -> list[str]:
    return [f.format() for f in lint_paths([str(root)]).findings]


def test_clean_layer(tmp_path: Path) -> None:
    result = lint_paths([str(layer(tmp_path))])
    assert result.findings == [] and result.errors == [] and exit_status(result) == 0


@pytest.mark.parametrize(
    ("effect", "expected"),
    [
        ('def f(x: int):\n    """d."""\n    print(x)\n', "C3L001"),
        ('def f(x: int) -> bytes:\n    """d."""\n    print(x)\n', "C3L001"),
        ('def f(x: int) -> list[object]:\n    """d."""\n    print(x)\n', "C3L001"),
        ('def f(x) -> int:\n    """d."""\n    print(x)\n', "C3L002"),
        ('def f(*xs: int) -> int:\n    """d."""\n    print(xs)\n', "C3L002"),
        ('def f(x: list[str] = list()) -> int:\n    """d."""\n    print(x)\n', "C3L002"),
    ],
)
def test_effect_signature_codes(tmp_path: Path, effect: str, expected: str) -> None:
    assert codes(layer(tmp_path, "\n@clauz3.trusted\n" + effect)) == [expected]


@pytest.mark.parametrize(
    "returns",
    ["None", "bool", "int", "float", "str", "list[str]", "set[int]", "tuple[str, ...]", "dict[str, int]",
     "list[UserRow]", "'list[UserRow]'"],
)
def test_supported_return_annotations(tmp_path: Path, returns: str) -> None:
    effect = f'\nclass UserRow(clauz3.Row):\n    name: str\n\n\n@clauz3.trusted\ndef f() -> {returns}:\n    """d."""\n    print(1)\n'
    assert codes(layer(tmp_path, effect)) == []


def test_type_param_result(tmp_path: Path) -> None:
    effect = '\n@clauz3.trusted\ndef q(schema: type[T]) -> list[T]:\n    """d."""\n    print(1)\n'
    assert codes(layer(tmp_path, effect)) == []
    other = '\n@clauz3.trusted\ndef q(schema: str) -> list[T]:\n    """d."""\n    print(1)\n'
    assert codes(layer(tmp_path, other)) == ["C3L001"]


def test_condition_not_a_lambda_mismatch_and_missing_result(tmp_path: Path) -> None:
    effect = '''
def check(x):
    return x > 0


@clauz3.trusted
@clauz3.requires(check)
@clauz3.requires(lambda y: y > 0)
@clauz3.ensures(lambda x: x > 0)
@clauz3.ensures(lambda x, result: result > x)
def f(x: int) -> int:
    """d."""
    print(x)
'''
    out = findings(layer(tmp_path, effect))
    assert len(out) == 3 and all(" C3L003 " in line for line in out)
    assert "not an inline lambda (a def)" in out[0]
    assert "(y) must mirror the function's (x)" in out[1]
    assert "must take `result`" in out[2]


def test_condition_subset(tmp_path: Path) -> None:
    effect = '''
@clauz3.trusted
@clauz3.requires(lambda x: any(c for c in x))
@clauz3.requires(lambda x: x is "a")
def f(x: str) -> None:
    """d."""
    print(x)
'''
    out = findings(layer(tmp_path, effect))
    assert [line.split()[1] for line in out] == ["C3L004", "C3L004"]
    assert "generator expression" in out[0] and "`is` is allowed only with None" in out[1]


def test_decorator_not_allowed(tmp_path: Path) -> None:
    effect = '''
import functools


@clauz3.trusted
@functools.cache
def f(x: int) -> None:
    """d."""
    print(x)


@clauz3.mock
def not_an_effect() -> None:
    pass
'''
    out = findings(layer(tmp_path, effect))
    assert [line.split()[1] for line in out] == ["C3L005", "C3L005"]
    assert "@functools.cache" in out[0] or "functools.cache" in out[0]
    assert "only allowed on a @clauz3.trusted effect" in out[1]


def test_helper_params_and_defaults(tmp_path: Path) -> None:
    helpers = '''
@clauz3.contract(description="{a} {b} {c} {d}")
def h(a: bytes, b: int = len("x"), c: dict[str, object] = None, d: clauz3.FilePath = "x") -> clauz3.ContractSpec:
    return effect(send_email).empty()


@clauz3.contract(description="{rows}")
def g(rows, *more: int) -> clauz3.ContractSpec:
    return effect(send_email).empty()
'''
    out = findings(layer(tmp_path, contracts=helpers))
    assert [line.split()[1] for line in out] == ["C3L006"] * 4
    assert "parameter a annotation bytes" in out[0]
    assert "default of b is not a literal" in out[1]
    assert "parameter rows has no annotation" in out[2] and "variadic" in out[3]


def test_template_and_missing_description(tmp_path: Path) -> None:
    helpers = '''
@clauz3.contract(description="{cnt} emails")
def at_most2(count: int) -> clauz3.ContractSpec:
    return effect(send_email).count() <= count


@clauz3.contract
def undocumented() -> clauz3.ContractSpec:
    return effect(send_email).empty()
'''
    out = findings(layer(tmp_path, contracts=helpers))
    assert [line.split()[1] for line in out] == ["C3L007", "C3L008"]
    assert out[0].endswith("placeholder {cnt} is not a parameter")


def test_template_rules() -> None:
    assert template_problem("at most {n}", ["n"]) is None
    assert template_problem("{{literal}} {n}", ["n"]) is None
    assert "does not appear" in (template_problem("x", ["n"]) or "")
    assert "format spec" in (template_problem("{n:>3}", ["n"]) or "")
    assert "conversion" in (template_problem("{n!r}", ["n"]) or "")
    assert "index or attribute" in (template_problem("{n[0]}", ["n"]) or "")
    assert "index or attribute" in (template_problem("{n.real}", ["n"]) or "")
    assert "positional" in (template_problem("{}", ["n"]) or "")
    assert template_problem("{n", ["n"]) is not None


def test_relations_unknown_effect_and_uncommon_field(tmp_path: Path) -> None:
    effects = '''
@clauz3.trusted
@clauz3.mock
def send_sms(number: str, msg: str) -> None:
    """Text."""
'''
    helpers = '''
@clauz3.contract(description="none")
def misspelt() -> clauz3.ContractSpec:
    return effect("send_emial").empty()


@clauz3.contract(description="short")
def short() -> clauz3.ContractSpec:
    rel = effect(send_email, "send_sms")
    return rel.where(lambda e: len(e.msg) > 3).all(lambda e: e.addr != "")


@clauz3.contract(description="pred")
def bad_pred() -> clauz3.ContractSpec:
    return effect(send_email).all(lambda e: e.addr[0] == "a")
'''
    out = findings(layer(tmp_path, effects, helpers))
    assert [line.split()[1] for line in out] == ["C3L009", "C3L009", "C3L004"]
    assert "unknown-effect: effect name 'send_emial' matches no effect" in out[0]
    assert "field 'addr' is not common to the relation's targets (fields: msg)" in out[1]
    assert "subscripts are outside the predicate subset" in out[2]


def test_performs_and_fluents(tmp_path: Path) -> None:
    effects = '''
import clauz3.fluent
from clauz3.events import Event, performs
from clauz3.fluent import fluent


class Sent(Event):
    to: str
    count: int
    when: float


Locked = fluent("locked", key=str, value=bool, initial="yes")


@clauz3.trusted
@clauz3.mock
@performs(lambda to, n=1: [Sent(to), Sent("literal")])
@clauz3.fluent.effect(lambda to, n=1: Locked.set(to, n + 1))
def act(to: str, n: int = 1) -> None:
    """d."""
'''
    out = findings(layer(tmp_path, effects))
    assert [line.split()[1] for line in out] == ["C3L010"] * 5
    assert "event Sent: field name 'count' is reserved" in out[0]
    assert "event Sent: field when must be str, int or bool" in out[1]
    assert "initial= must be of type bool" in out[2]
    assert "event argument 'literal'" in out[3]
    assert "must be a parameter name or a literal" in out[4]


def test_policy(tmp_path: Path) -> None:
    policy = ('from clauz3.policy import domain_policy\n\n'
              'POLICY = domain_policy(when_used="send_mail", recommended=["at_most", "nope"], required=["at_most"])\n')
    out = findings(layer(tmp_path, extra={"tools/email/trusted/policy.py": policy}))
    assert [line.split()[1] for line in out] == ["C3L011"] * 3
    assert "'send_mail', not an effect" in out[0]
    assert "'nope', not a helper" in out[1]
    assert "required helper 'at_most' must take no parameters" in out[2]


def test_namespace_inits(tmp_path: Path) -> None:
    extra = {"tools/__init__.py": "", "tools/email/__init__.py": '"""Doc."""\npass\nX = 1\n'}
    out = findings(layer(tmp_path, extra=extra))
    assert [line.split()[1] for line in out] == ["C3L012", "C3L012"]
    assert out[1].startswith(f"{tmp_path}/tools/email/__init__.py:3:1: ")


def test_unsatisfiable_conditions(tmp_path: Path) -> None:
    effect = '''
@clauz3.trusted
@clauz3.ensures(lambda result: result > 5)
@clauz3.ensures(lambda result: result < 3)
def count() -> int:
    """d."""
    return len("abcd")


@clauz3.trusted
@clauz3.requires(lambda s: len(s) > 3 and s == "ab")
@clauz3.ensures(lambda s, result: result >= 0)
def size(s: str) -> int:
    """d."""
    return len(s)


@clauz3.trusted
@clauz3.ensures(lambda result: len(result) <= 100)
@clauz3.ensures(lambda result: result[0] == 1)
def rows() -> list[int]:
    """d."""
    return list(range(1))
'''
    out = findings(layer(tmp_path, effect))
    assert [line.split()[1] for line in out] == ["C3L013", "C3L014"]
    assert "postconditions of count are jointly unsatisfiable" in out[0]


def test_stub_and_docstring_warnings_and_strict(tmp_path: Path) -> None:
    effect = '\n@clauz3.trusted\ndef stub(x: int) -> int:\n    return 0\n'
    result = lint_paths([str(layer(tmp_path, effect))])
    assert [f.code for f in result.findings] == ["C3L015", "C3L016"]
    assert exit_status(result) == 0 and exit_status(result, strict=True) == 1


def test_manifest_finding(tmp_path: Path) -> None:
    extra = {"tools/email/clauz3.yaml": "schema_version: 1\nname: email\ntitle: Email\nsummary: s\n"
                                        "description: d\nkind: domain\n"}
    out = findings(layer(tmp_path, extra=extra))
    assert out == [f"{tmp_path}/tools/email/clauz3.yaml:6:7: C3L017 invalid manifest "
                   f"{tmp_path}/tools/email/clauz3.yaml: kind: unknown field"]


def test_module_raising_on_import_still_lints_and_findings_are_sorted(tmp_path: Path) -> None:
    effect = 'raise SystemExit("boom")\n\n@clauz3.trusted\ndef a(x):\n    pass\n'
    result = lint_paths([str(layer(tmp_path, effect))])
    assert [f.code for f in result.findings] == ["C3L001", "C3L002", "C3L015", "C3L016"]
    assert result.findings == sorted(result.findings)


def test_missing_path_and_parse_error(tmp_path: Path) -> None:
    root = layer(tmp_path, extra={"tools/email/trusted/broken.py": "def (\n"})
    result = lint_paths([str(root), str(tmp_path / "nope")])
    assert exit_status(result) == 2
    assert any("broken.py:1:" in e for e in result.errors)
    assert any(e.endswith("nope: no such file or directory") for e in result.errors)


def test_agent_cases_beside_tools_are_not_linted(tmp_path: Path) -> None:
    root = layer(tmp_path, extra={"cases/x_pass.py": "def (broken\n"})
    assert exit_status(lint_paths([str(root)])) == 0


def test_shipped_examples_lint_clean() -> None:
    root = Path(__file__).resolve().parents[2] / "examples"
    for example in sorted(p for p in root.iterdir() if (p / "tools").is_dir()):
        result = lint_paths([str(example)])
        assert (example.name, [f.format() for f in result.findings], result.errors) == (example.name, [], [])


def test_deal_spellings_are_effects_with_conditions(tmp_path: Path) -> None:
    effect = '''
import deal


@deal.has("network")
@deal.pre(lambda x: x > 0, message="x must be positive")
@deal.post(lambda result: result < 0)
@deal.ensure(lambda x, result: result > x)
@deal.raises(ValueError)
@deal.safe
def d(x: int) -> int:
    """d."""
    print(x)
'''
    out = findings(layer(tmp_path, effect))
    assert [line.split()[1] for line in out] == ["C3L013", "C3L005"]
    assert "decorator deal.safe is not allowed on an effect" in out[1]

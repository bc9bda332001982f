"""Layer loading (01 §2.1, EFF-1, COV-1, LEG-1) on real layers written to tmp_path.

TL-6 allows one layer per process, so each load runs in a fresh interpreter that prints JSON.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

RUNNER = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from clauz3.language.layer import LayerError, load_layer
    roots = [Path(p) for p in json.loads(sys.argv[1])]
    imports = [Path(p) for p in json.loads(sys.argv[2])]
    try:
        layer = load_layer(roots, imports)
    except LayerError as exc:
        d = exc.diagnostic
        print(json.dumps({"error": {"code": d.code, "file": d.file, "line": d.line, "message": d.message,
                                    "hint": d.hint, "render": d.render()}}))
        sys.exit(0)
    again = load_layer(roots, imports) is layer
    try:
        load_layer(roots[:0], imports)
        tl6 = None
    except RuntimeError as exc:
        tl6 = str(exc)
    print(json.dumps({
        "effects": sorted(layer.effects), "contracts": sorted(layer.contracts), "events": sorted(layer.events),
        "rows": sorted(layer.rows), "fluents": sorted(layer.fluents), "solvers": sorted(layer.solvers),
        "helpers": sorted(layer.helpers), "modules": list(layer.modules),
        "domains": [[d.name, d.package] for d in layer.domains],
        "policies": {k: [[list(p.when_used), list(p.recommended), list(p.required)] for p in v]
                     for k, v in layer.policies.items()},
        "fingerprint": layer.fingerprint, "again": again, "tl6": tl6,
        "decorators": {k: fn.__clauz3__.decorators for k, fn in layer.effects.items()},
        "deal_restored": "deal" not in sys.modules or not sys.modules["deal"].pre.__module__.startswith("clauz3"),
    }))
    """
)

EFFECTS = '''
import clauz3
from clauz3.events import Event, performs


class Sent(Event):
    to: str


class UserRow(clauz3.Row):
    email: str


@clauz3.trusted
@clauz3.mock
@performs(lambda to, body: [Sent(to)])
@clauz3.requires(lambda to, body: "@" in to)
def send_email(to: str, body: str) -> None:
    """Send."""


def helper(x: int) -> int:
    return x + 1
'''

CONTRACTS = '''
from clauz3.spec import ContractSpec, contract, effect

from tools.email.trusted.effects import send_email


@contract(description="at most {count} emails")
def at_most(count: int) -> ContractSpec:
    return effect(send_email).count() <= count


@contract
def none_sent() -> ContractSpec:
    """Sends nothing."""
    return effect("send_email").empty()
'''


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def load(roots: list[Path], imports: list[Path]) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, json.dumps([str(r) for r in roots]), json.dumps([str(i) for i in imports])],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def email_layer(tmp_path: Path, extra: dict[str, str] | None = None) -> tuple[Path, Path]:
    write(tmp_path, {"tools/email/trusted/effects.py": EFFECTS, "tools/email/trusted/contracts.py": CONTRACTS,
                     **(extra or {})})
    return tmp_path / "tools/email/trusted", tmp_path


def expect_error(result: dict[str, Any], code: str, file_end: str, text: str) -> dict[str, Any]:
    assert "error" in result, result
    err = result["error"]
    assert err["code"] == code, err
    assert err["file"].endswith(file_end), err
    assert text in err["message"], err
    assert err["message"].endswith("problem in a trusted library, not in the program")
    return err


def test_loads_a_layer(tmp_path: Path) -> None:
    root, imp = email_layer(tmp_path, {"tools/email/trusted/policy.py": '''
        from clauz3.policy import domain_policy
        POLICY = domain_policy(when_used="send_email", recommended=["at_most"], required=["none_sent"])
    '''})
    out = load([root], [imp])
    assert out["effects"] == ["tools.email.trusted.effects.send_email"]
    assert out["contracts"] == ["tools.email.trusted.contracts.at_most", "tools.email.trusted.contracts.none_sent"]
    assert out["events"] == ["tools.email.trusted.effects.Sent"]
    assert out["rows"] == ["tools.email.trusted.effects.UserRow"]
    assert out["helpers"] == ["tools.email.trusted.effects.helper"]
    assert out["modules"] == ["tools.email.trusted.contracts", "tools.email.trusted.effects", "tools.email.trusted.policy"]
    assert out["domains"] == [["email", "tools.email.trusted"]]
    assert out["policies"] == {"email": [[["tools.email.trusted.effects.send_email"],
                                          ["tools.email.trusted.contracts.at_most"],
                                          ["tools.email.trusted.contracts.none_sent"]]]}
    assert out["decorators"] == {"tools.email.trusted.effects.send_email": ["trusted", "mock", "performs", "requires"]}
    assert out["again"] is True and "TL-6" in out["tl6"]
    assert len(out["fingerprint"]) == 64
    assert not list(tmp_path.rglob("__pycache__")), "loading must not write bytecode into the project"


def test_org_domain_and_fingerprint_changes(tmp_path: Path) -> None:
    write(tmp_path, {"tools/acme/lims/trusted/effects.py": EFFECTS.replace("send_email", "run_assay"),
                     "tools/acme/__init__.py": '"""Acme."""\npass\n'})
    root = tmp_path / "tools/acme/lims/trusted"
    first = load([root], [tmp_path])
    assert first["domains"] == [["acme/lims", "tools.acme.lims.trusted"]]
    assert first["effects"] == ["tools.acme.lims.trusted.effects.run_assay"]
    (tmp_path / "tools/acme/__init__.py").write_text('"""Acme!"""\n')
    assert load([root], [tmp_path])["fingerprint"] != first["fingerprint"]


def test_fingerprint_functions(tmp_path: Path) -> None:
    from clauz3.language.layer import domain_tree_hash, library_fingerprint

    root, _ = email_layer(tmp_path)
    h1 = domain_tree_hash(tmp_path / "tools/email")
    fp1 = library_fingerprint([root], tmp_path)
    (tmp_path / "tools/email/trusted/__pycache__").mkdir()
    (tmp_path / "tools/email/trusted/__pycache__/x.pyc").write_bytes(b"x")
    assert domain_tree_hash(tmp_path / "tools/email") == h1
    (tmp_path / "tools/email/README").write_text("hi")
    assert domain_tree_hash(tmp_path / "tools/email") != h1
    assert library_fingerprint([root], tmp_path) != fp1
    assert domain_tree_hash(tmp_path / "tools/none") == "missing"


def test_symlinked_root_refused(tmp_path: Path) -> None:
    from clauz3.language.layer import LayerError, library_fingerprint

    real = tmp_path / "real"
    write(real, {"trusted/effects.py": EFFECTS})
    (tmp_path / "tools/email").mkdir(parents=True)
    (tmp_path / "tools/email/trusted").symlink_to(real / "trusted")
    with pytest.raises(LayerError, match=r"symbolic link|symlinked"):
        library_fingerprint([tmp_path / "tools/email/trusted"], tmp_path)
    out = load([tmp_path / "tools/email/trusted"], [tmp_path])
    assert out["error"]["code"] == "layer-error"


def test_validate_trusted_root(tmp_path: Path) -> None:
    from clauz3.language.layer import TrustedRootError, validate_trusted_root

    assert validate_trusted_root(tmp_path / "tools/email/trusted") == (tmp_path, "email")
    assert validate_trusted_root(tmp_path / "tools/acme/lims/trusted") == (tmp_path, "acme/lims")
    for bad in ("tools/email", "tools/class/trusted", "x/email/trusted", "tools/my-lib/trusted"):
        with pytest.raises(TrustedRootError) as info:
            validate_trusted_root(tmp_path / bad)
        assert str(info.value) == f"--trusted-root {tmp_path / bad}: not <import root>/tools/<domain>/trusted"


@pytest.mark.parametrize(
    ("files", "code", "file_end", "text"),
    [
        ({"tools/email/trusted/bad.py": "raise RuntimeError('boom')\n"}, "layer-error", "bad.py", "RuntimeError: boom"),
        ({"tools/email/trusted/bad.py": "import clauz3\n@clauz3.requires(lambda x, y: True)\ndef f(x): pass\n"},
         "layer-error", "bad.py", "must mirror"),
        ({"tools/email/trusted/bad.py": "import functools, clauz3\n@functools.cache\n@clauz3.trusted\ndef f(x: int) -> int:\n    return x\n"},
         "layer-error", "bad.py", "@functools.cache"),
        ({"tools/email/trusted/bad.py": "import clauz3\n@clauz3.trusted\ndef f(*a) -> None:\n    pass\n"},
         "layer-error", "bad.py", "*args"),
        ({"tools/email/trusted/bad.py": "import clauz3\n@clauz3.mock\ndef f() -> None:\n    pass\n"},
         "layer-error", "bad.py", "needs @trusted"),
        ({"tools/email/trusted/bad.py": "import clauz3\nf = clauz3.trusted(lambda: None)\n"},
         "layer-error", "bad.py", "lambda"),
        ({"tools/email/trusted/bad.py": "from clauz3.spec import contract\n@contract(description='{cnt}')\ndef c(count: int): pass\n"},
         "layer-error", "bad.py", "{cnt}"),
        ({"tools/email/trusted/bad.py": "def f(:\n"}, "layer-error", "bad.py", "does not parse"),
        ({"tools/email/__init__.py": "x = 1\n"}, "layer-error", "tools/email/__init__.py", "docstring"),
        ({"tools/__init__.py": ""}, "layer-error", "tools/__init__.py", "must not exist"),
        ({"tools/email/trusted/my-mod.py": ""}, "layer-error", "my-mod.py", "dotted name"),
        ({"tools/email/trusted/bad.py": "import nosuchmodule_xyz\n"}, "layer-error", "bad.py", "ModuleNotFoundError"),
        ({"tools/email/trusted/policy.py": "from clauz3.policy import domain_policy\nPOLICY = domain_policy(when_used='send_emial')\n"},
         "layer-error", "policy.py", "send_emial"),
        ({"tools/email/trusted/policy.py": "from clauz3.policy import domain_policy\nPOLICY = domain_policy(when_used='send_email', required=['at_most'])\n"},
         "layer-error", "policy.py", "no arguments"),
        ({"tools/email/trusted/policy.py": "from clauz3.policy import domain_policy\nPOLICY = domain_policy(when_used='send_email', recommended=['nope'])\n"},
         "layer-error", "policy.py", "nope"),
    ],
)
def test_layer_errors(tmp_path: Path, files: dict[str, str], code: str, file_end: str, text: str) -> None:
    root, imp = email_layer(tmp_path, files)
    expect_error(load([root], [imp]), code, file_end, text)


def test_error_points_at_line(tmp_path: Path) -> None:
    root, imp = email_layer(tmp_path, {"tools/email/trusted/bad.py": "x = 1\n\n\nraise ValueError('no')\n"})
    err = expect_error(load([root], [imp]), "layer-error", "bad.py", "ValueError: no")
    assert err["line"] == 4
    assert err["render"].startswith(f"error: {root / 'bad.py'}:4:1: layer-error: ")


def test_confinement(tmp_path: Path) -> None:
    root, imp = email_layer(tmp_path, {
        "helpers_outside.py": "X = 1\n",
        "tools/email/trusted/bad.py": "import json\nimport helpers_outside\n",
    })
    err = expect_error(load([root], [imp]), "layer-error", "bad.py", "tools.email.trusted.bad imports helpers_outside")
    assert str(tmp_path / "helpers_outside.py") in err["message"] and err["line"] == 2


def test_confinement_other_domain(tmp_path: Path) -> None:
    root, imp = email_layer(tmp_path, {
        "tools/other/trusted/x.py": "Y = 2\n",
        "tools/email/trusted/bad.py": "try:\n    import tools.other.trusted.x\nexcept ImportError:\n    pass\n",
    })
    expect_error(load([root], [imp]), "layer-error", "bad.py", "tools.other.trusted.x")


def test_limits(tmp_path: Path) -> None:
    root, imp = email_layer(tmp_path, {"tools/email/trusted/big.py": "x = 1\n" + "#" * (1024 * 1024)})
    expect_error(load([root], [imp]), "limit-exceeded", "big.py", "bytes")


def test_duplicate_domain(tmp_path: Path) -> None:
    a, _ = email_layer(tmp_path / "a")
    b, _ = email_layer(tmp_path / "b")
    out = load([a, b], [tmp_path / "a", tmp_path / "b"])
    assert "provided by both" in out["error"]["message"]


DEAL_EFFECTS = '''
import clauz3
import deal


@deal.has("network")
@deal.pre(lambda to: "@" in to, message="bad")
@deal.post(lambda result: result is None)
@deal.ensure(lambda to, result: result is None)
@deal.raises(ValueError)
@deal.chain()
def send(to: str) -> None:
    return None


@deal.has()
def pure_helper(x: int) -> int:
    return x
'''


def test_deal_spellings(tmp_path: Path) -> None:
    write(tmp_path, {"tools/mail/trusted/effects.py": DEAL_EFFECTS})
    out = load([tmp_path / "tools/mail/trusted"], [tmp_path])
    assert out["effects"] == ["tools.mail.trusted.effects.send"]
    assert out["decorators"]["tools.mail.trusted.effects.send"] == [
        "deal.has", "deal.pre", "deal.post", "deal.ensure", "deal.raises", "deal.chain"]
    assert "tools.mail.trusted.effects.pure_helper" in out["helpers"]
    assert out["deal_restored"] is True


def test_other_deal_decorator_refused(tmp_path: Path) -> None:
    write(tmp_path, {"tools/mail/trusted/effects.py": "import deal\n\n@deal.pure\ndef f(x: int) -> int:\n    return x\n"})
    expect_error(load([tmp_path / "tools/mail/trusted"], [tmp_path]), "layer-error", "effects.py", "deal.pure")


def test_deal_absent_hint(tmp_path: Path) -> None:
    write(tmp_path, {"tools/mail/trusted/effects.py": "import deal\n", "shadow/deal.py": "raise ImportError\n"})
    # Simulate an environment without deal: a sitecustomize-free trick is to block it via a finder.
    code = "import sys\nclass B:\n    def find_spec(self, n, p, t=None):\n        if n == 'deal':\n            raise ModuleNotFoundError(\"No module named 'deal'\", name='deal')\n"
    code += "sys.meta_path.insert(0, B())\n" + RUNNER
    proc = subprocess.run([sys.executable, "-c", code, json.dumps([str(tmp_path / "tools/mail/trusted")]),
                           json.dumps([str(tmp_path)])], capture_output=True, text=True, timeout=60)
    err = json.loads(proc.stdout)["error"]
    assert err["hint"] == "install deal" and err["code"] == "layer-error"

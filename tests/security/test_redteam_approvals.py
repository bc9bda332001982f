"""Second red team for issue 11: code that runs although no person approved it (brief s3/I, part 2).

Each test performs the attack with what an agent or a same-user process has (files in its project,
the `clauz3` commands) on the real supervisor, worker, prover, layer loader and (mock) authority.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from clauz3.approvals.mock import MockApprovalService
from clauz3.approvals.policies import EntailmentQuery
from clauz3.runs.supervisor import RunConfig, Supervisor

REPO = Path(__file__).resolve().parents[2]

PROGRAM = '''
import clauz3
from tools.slow.trusted import contracts as slow
from tools.slow.trusted.effects import mark


@clauz3.guarantee(slow.marks_at_most(1))
def main() -> None:
    mark({path!r})
'''

# A native extension module whose initialiser writes MARK: Python's import prefers an extension
# module (effects.cpython-3XX-….so) to effects.py in the same folder, and runs its init on import.
EXTENSION_C = r'''
#include <Python.h>
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "NAME", NULL, -1, NULL};
PyMODINIT_FUNC PyInit_NAME(void) {
    FILE *f = fopen(MARK, "w");
    if (f) { fputs("native code ran\n", f); fclose(f); }
    return PyModule_Create(&def);
}
'''


def _config(project: Path, data: Path, svc: MockApprovalService, source: str) -> RunConfig:
    return RunConfig(source=source, project=project, trusted_roots=[str(project / "tools" / "slow" / "trusted")],
                     import_roots=[str(project)], service_url=svc.url, submission_token=svc.token,
                     verify_key=svc.verify_key.text, data_dir=data, use_cache=False)


def _build_extension(folder: Path, name: str, mark: Path, tmp: Path) -> Path:
    include = sysconfig.get_paths()["include"]
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or not (Path(include) / "Python.h").exists():
        pytest.skip("no C compiler or Python headers to build the native module the attack plants")
    source = tmp / f"{name}.c"
    source.write_text(EXTENSION_C.replace("NAME", name), encoding="utf-8")
    target = folder / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    subprocess.run([cc, "-shared", "-fPIC", f'-DMARK="{mark}"', f"-I{include}", str(source), "-o", str(target)],
                   check=True, capture_output=True)
    return target


@pytest.mark.parametrize("name", ["effects", "contracts"])
def test_a_native_module_planted_beside_a_trusted_file_never_runs(project: Path, data: Path, tmp_path: Path,
                                                                  name: str) -> None:
    """The card and the proof read effects.py; a planted effects.cpython-….so would be what Python
    imports (extensions come first), running native code nobody saw, before any approval."""
    mark = tmp_path / "native-ran"
    _build_extension(project / "tools" / "slow" / "trusted", name, mark, tmp_path)
    marker = project / "effect.txt"
    with MockApprovalService(data, project) as svc:
        result = Supervisor(_config(project, data, svc, PROGRAM.format(path=str(marker)))).run()
        requests = list(svc.requests)
    assert not mark.exists(), "a native module in the trusted library ran"
    assert result.record.phase == "refused", (result.record.phase, result.record.message)
    assert "not Python source" in (result.record.message or ""), result.record.message
    assert not requests and not marker.exists()


def test_clauz3_prove_never_runs_a_planted_native_module(project: Path, data: Path, tmp_path: Path) -> None:
    """`clauz3 prove` (a command an agent may run) loads the layer in its own process, unsandboxed."""
    mark = tmp_path / "native-ran"
    _build_extension(project / "tools" / "slow" / "trusted", "effects", mark, tmp_path)
    program = project / "main.py"
    program.write_text(PROGRAM.format(path=str(project / "effect.txt")), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--trusted-root",
                           str(project / "tools" / "slow" / "trusted"), "--import-root", str(project), "--no-cache",
                           str(program)], capture_output=True, text=True, cwd=project, timeout=120, check=False)
    out = proc.stdout + proc.stderr
    assert not mark.exists(), "clauz3 prove ran a native module planted in the trusted library"
    assert proc.returncode == 2 and "not Python source" in out, out
    assert "Traceback" not in out, out


# ---------------------------------------------------------------------------------- planted bytecode

def _plant_pyc(source_file: Path, old: str, new: str) -> Path:
    """A __pycache__ .pyc of an edited source, stamped with the real source's mtime and size: what
    Python's import checks before it uses bytecode instead of the .py text (not the bytes)."""
    import importlib._bootstrap_external as external
    import importlib.util

    st = source_file.stat()
    text = source_file.read_text(encoding="utf-8")
    assert old in text
    code = compile(text.replace(old, new), str(source_file), "exec")
    cached = Path(importlib.util.cache_from_source(str(source_file)))
    cached.parent.mkdir(exist_ok=True)
    cached.write_bytes(external._code_to_timestamp_pyc(code, int(st.st_mtime), st.st_size))
    return cached


MARKS_TWICE = PROGRAM.replace("    mark({path!r})", "    mark({path!r})\n    mark({path!r})")


def test_clauz3_prove_reads_the_contract_source_not_a_planted_pyc(project: Path, tmp_path: Path) -> None:
    """A vacuous contract in bytecode beside the honest source made `clauz3 prove` say proved."""
    program = project / "main.py"
    program.write_text(MARKS_TWICE.format(path=str(project / "effect.txt")), encoding="utf-8")
    _plant_pyc(project / "tools" / "slow" / "trusted" / "contracts.py", "effect(mark).count() <= count",
               "effect(mark).count() <= count + 1000")
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--trusted-root",
                           str(project / "tools" / "slow" / "trusted"), "--import-root", str(project), "--no-cache",
                           str(program)], capture_output=True, text=True, cwd=project, timeout=120, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1 and "violated guarantee" in out, out
    assert "proved guarantee" not in out, out


@pytest.fixture
def mail_project(tmp_path: Path) -> Path:
    proj = tmp_path / "mailproj"
    shutil.copytree(REPO / "examples" / "email" / "tools" / "email", proj / "tools" / "email",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return proj


def _ten_emails_query(project: Path) -> EntailmentQuery:
    program = ("from tools.email.trusted.effects import send_email\n\n\ndef main() -> None:\n"
               + "".join(f'    send_email("user{i}@example.com", "hello")\n' for i in range(10)))
    return EntailmentQuery(program=program, target="main", trusted_roots=(str(project / "tools" / "email" / "trusted"),),
                           import_roots=(str(project),), project=str(project),
                           imports={"mail": "tools.email.trusted.contracts"}, clauses=("mail.at_most(count=3)",),
                           rule_name="small", timeout_seconds=60.0)


@pytest.mark.parametrize("where", ["entailment child", "authority's warm child"])
def test_a_planted_pyc_never_makes_a_policy_rule_approve_ten_emails(mail_project: Path, where: str) -> None:
    """The operator rule "at most 3 emails" is checked by loading the email library: a vacuous
    at_most() in its bytecode approved a ten-email program automatically (the worker's own
    guarantees, which the monitor watches, say nothing about emails)."""
    from clauz3.prover.entailment import entails
    from clauz3.prover.verify import ProofVerifier

    _plant_pyc(mail_project / "tools" / "email" / "trusted" / "contracts.py",
               "effect(send_email).count() <= count", "effect(send_email).count() <= count + 1000")
    if where == "entailment child":
        assert entails(_ten_emails_query(mail_project)) is False
        return
    verifier = ProofVerifier()
    try:
        assert verifier.entails(_ten_emails_query(mail_project)) is False
    finally:
        verifier.close()


# ---------------------------------------------------------------------------------- the card's text

@pytest.mark.parametrize("shown", [
    "jose\u0301@example.com",     # e + combining acute: renders as josé@, another address than the precomposed é
    "bob@example\u3002com",        # ideographic full stop: mail domains (IDNA) read it as "."
    "bob@example\uff61com",        # halfwidth ideographic full stop, likewise
    "b\u0131ll@example.com",       # dotless i (Latin): bıll@ reads as bill@
    "\u01c0ndia@example.com",      # Latin letter dental click, drawn as l or |
])
def test_card_values_that_look_like_another_address_are_escaped_and_warned(shown: str) -> None:
    """A recipient the person reads as a known address but that is another one must not pass plain."""
    from clauz3.vocabulary.describe import reveal

    text, warnings = reveal(shown)
    assert warnings, (shown, text)
    assert "[U+" in text and text != shown, text
    for ordinary in ("josé@example.com", "ваня@почта.рф", "straße@example.de", "bill@example.com", "नमस्ते"):
        assert reveal(ordinary) == (ordinary, []), ordinary


# ---------------------------------------------------------------------------------- the project on sys.path

def test_a_project_file_named_like_a_standard_module_never_runs_in_clauz3_prove(project: Path, tmp_path: Path
                                                                                ) -> None:
    """The import root (the project) stayed first on sys.path after the layer loaded, so the prover's
    own later imports (z3 imports ctypes) ran the project's ctypes.py as plain Python, unsandboxed."""
    mark = tmp_path / "hijacked"
    for name in ("ctypes", "decimal", "fractions", "difflib", "textwrap", "statistics"):
        (project / f"{name}.py").write_text(f"open({str(mark)!r}, 'a').write({name!r})\n", encoding="utf-8")
    program = project / "main.py"
    program.write_text(PROGRAM.format(path=str(project / "effect.txt")), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-I", "-m", "clauz3", "prove", "--trusted-root",
                           str(project / "tools" / "slow" / "trusted"), "--import-root", str(project), "--no-cache",
                           str(program)], capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False)
    out = proc.stdout + proc.stderr
    assert not mark.exists(), f"project files ran in clauz3 prove: {mark.read_text()}"
    assert proc.returncode == 0 and "proved guarantee" in out, out


# ---------------------------------------------------------------------------------- request ids and sizes

@pytest.fixture(scope="module")
def email_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[httpx.Client, Path]]:
    """A real `clauz3 approval-service` over the email example (the one test_forged_verdict starts)."""
    import test_forged_verdict as fv

    proj = Path(os.path.realpath(tmp_path_factory.mktemp("rt2svc") / "proj"))
    shutil.copytree(REPO / "examples" / "email" / "tools", proj / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    args = [sys.executable, "-m", "clauz3", "approval-service", "--port", "0", "--project", str(proj),
            "--trusted-root", str(proj / "tools" / "email" / "trusted"), "--import-root", str(proj)]
    env = fv._env(proj, CLAUZ3_APPROVAL_TOKEN=fv.TOKEN, CLAUZ3_APPROVAL_DECISION_TOKEN=fv.APPROVER)
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        url = ""
        while not url:
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else ""
            if line.startswith("CLAUZ3_APPROVAL_SERVICE="):
                url = line.strip().split("=", 1)[1]
        with httpx.Client(base_url=url, trust_env=False, timeout=120) as client:
            yield client, proj
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_second_program_under_an_approved_request_id_gets_neither_the_card_nor_the_receipt(
        email_service: tuple[httpx.Client, Path]) -> None:
    """The agent chooses request ids: reusing an approved one for another program must not inherit it."""
    import test_forged_verdict as fv

    client, proj = email_service
    honest = fv.HONEST.replace("Hi from clauz3", "Hi, red team 2")
    first = fv.submit(client, fv.request(proj, "req_rt2_collide", honest, fv.proved_entry(proj, honest)))
    assert first.status_code == 201, first.text
    decided = client.post("/api/requests/req_rt2_collide/decision", json={"decision": "approved_once"},
                          headers={"Authorization": f"Bearer {fv.APPROVER}"})
    assert decided.status_code == 200, decided.text
    assert decided.json().get("state") == "approved", decided.json()
    other = honest.replace("Hi, red team 2", "Hi, another program")
    assert other != honest
    again = fv.submit(client, fv.request(proj, "req_rt2_collide", other, fv.proved_entry(proj, other)))
    assert again.status_code == 409 and again.json()["error"]["code"] == "request_id_conflict", again.text
    assert "receipt" not in again.text
    shown = [c for c in fv.cards(client) if c.get("request_id") == "req_rt2_collide"]
    assert len(shown) == 1 and "another program" not in json.dumps(shown), shown


def test_an_oversize_request_is_refused_with_a_code_not_cut_or_crashed(email_service: tuple[httpx.Client, Path]
                                                                        ) -> None:
    import test_forged_verdict as fv

    client, proj = email_service
    honest = fv.HONEST.replace("Hi from clauz3", "Hi, big")
    body = fv.request(proj, "req_rt2_big", honest + "\n# " + "x" * (2 * 1024 * 1024) + "\n",
                      fv.proved_entry(proj, honest))
    answer = fv.submit(client, body)
    assert answer.status_code == 413, answer.text
    assert answer.json()["error"]["code"], answer.text
    assert not [c for c in fv.cards(client) if c.get("request_id") == "req_rt2_big"]

"""Issue 11 §4: nothing in the bridge's or service's environment reaches a run worker.

Real supervisor, real worker (cold and warm-forked), real prover and the in-process mock authority.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clauz3.approvals.mock import MockApprovalService
from clauz3.runs.supervisor import RunConfig, Supervisor
from clauz3.storage.childenv import clean_environment, python_module_argv

HEADER = '''
import clauz3
from tools.slow.trusted import contracts as slow
from tools.slow.trusted.effects import env_names, mark


@clauz3.guarantee(slow.marks_at_most(1))
def main() -> None:
'''




def _run(project: Path, data: Path, svc: MockApprovalService, body: str, spawn: object = None) -> object:
    config = RunConfig(
        source=HEADER + f"    {body}\n", project=project, trusted_roots=[str(project / "tools" / "slow" / "trusted")],
        import_roots=[str(project)], service_url=svc.url, submission_token=svc.token,
        verify_key=svc.verify_key.text, data_dir=data, use_cache=False,
    )
    return Supervisor(config, spawn=spawn).run()  # type: ignore[arg-type]


def test_a_sitecustomize_in_the_workspace_never_runs_even_with_an_empty_pythonpath_entry(
        project: Path, data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    escaped = tmp_path / "escaped.txt"
    # What a program approved earlier could have written into the workspace (it may write there).
    (project / "sitecustomize.py").write_text(f"open({str(escaped)!r}, 'w').write('ran outside the sandbox')\n")
    (project / "usercustomize.py").write_text(f"open({str(escaped)!r}, 'w').write('ran as user site')\n")
    # `export PYTHONPATH=$PYTHONPATH:/opt/x` with PYTHONPATH unset: the empty entry means the cwd.
    monkeypatch.setenv("PYTHONPATH", ":/opt/x")
    monkeypatch.setenv("PYTHONSTARTUP", str(project / "sitecustomize.py"))
    with MockApprovalService(data, project) as svc:
        result = _run(project, data, svc, "print(env_names())")
    assert result.record.phase == "completed", (result.record.reason, result.record.message)
    assert not escaped.exists(), escaped.read_text()
    names = result.stdout.strip().split(",")
    assert "PYTHONPATH" not in names and "PYTHONSTARTUP" not in names


def test_no_clauz3_switch_of_the_bridge_reaches_the_worker_or_changes_its_verdict(
        project: Path, data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A test-only switch that would drop the guarantee's obligation, plus an arbitrary one.
    monkeypatch.setenv("CLAUZ3_TESTING", "1")
    monkeypatch.setenv("CLAUZ3_TEST_DROP_GUARANTEE", "marks_at_most")
    monkeypatch.setenv("CLAUZ3_KEEP_ME", "1")
    with MockApprovalService(data, project) as svc:
        shown = _run(project, data, svc, "print(env_names())")
        twice = _run(project, data, svc, "mark('a.txt')\n    mark('b.txt')")
        submitted = len(svc.requests)
    assert shown.record.phase == "completed", (shown.record.reason, shown.record.message)
    names = set(shown.stdout.strip().split(","))
    assert not {"CLAUZ3_TESTING", "CLAUZ3_TEST_DROP_GUARANTEE", "CLAUZ3_KEEP_ME"} & names
    assert not [n for n in names if n.startswith("CLAUZ3_") and n not in ("CLAUZ3_HOME", "CLAUZ3_CACHE")]
    # Two marks under "at most 1 mark": refused at proof time, never submitted, never executed.
    assert twice.record.reason == "proof_failed", (twice.record.reason, twice.record.message)
    assert submitted == 1
    assert not (project / "a.txt").exists()


def test_warm_forked_workers_are_isolated_too(project: Path, data: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from clauz3.bridge.warm import WarmProver

    escaped = tmp_path / "escaped.txt"
    (project / "sitecustomize.py").write_text(f"open({str(escaped)!r}, 'w').write('warm')\n")
    monkeypatch.setenv("PYTHONPATH", ":/opt/x")
    monkeypatch.setenv("CLAUZ3_KEEP_ME", "1")
    trusted = [str(project / "tools" / "slow" / "trusted")]
    warm = WarmProver.start(project=project, trusted_roots=trusted, import_roots=[str(project)], wait=True)
    if warm is None:
        pytest.skip("this platform cannot host a warm prover (no fork or subreaper)")
    try:
        with MockApprovalService(data, project) as svc:
            result = _run(project, data, svc, "print(env_names())", spawn=warm.spawn)
        assert warm.forks == 1  # the run really came from the warm process
    finally:
        warm.stop()
    assert result.record.phase == "completed", (result.record.reason, result.record.message)
    assert not escaped.exists()
    assert "CLAUZ3_KEEP_ME" not in result.stdout.strip().split(",")


def test_the_allow_list_helper_keeps_only_locale_identity_path_and_the_callers_overrides() -> None:
    env = clean_environment({"PATH": "/bin", "LC_ALL": "C.UTF-8", "PYTHONPATH": ":", "LD_PRELOAD": "x.so",
                             "CLAUZ3_APPROVAL_TOKEN": "t", "CLAUZ3_SEARCH_URL": "http://127.0.0.1:1"},
                            overrides={"TMPDIR": "/tmp/s"})
    assert env == {"PATH": "/bin", "LC_ALL": "C.UTF-8", "TMPDIR": "/tmp/s"}
    assert clean_environment({"CLAUZ3_SEARCH_URL": "u"}, effects=True) == {"CLAUZ3_SEARCH_URL": "u"}
    assert python_module_argv("m")[1:] == ["-I", "-B", "-X", "utf8", "-m", "m"]


def test_clauz3_run_refuses_a_pythonpath_that_puts_the_workspace_on_its_own_path(
        project: Path, data: Path, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    (project / "main.py").write_text(HEADER + "    mark('effect.txt')\n")
    with MockApprovalService(data, project) as svc:
        base = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
        base.update(CLAUZ3_HOME=str(data), CLAUZ3_APPROVAL_TOKEN=svc.token)
        for value in (":/opt/x", "/opt/x:.", str(project)):
            out = subprocess.run([sys.executable, "-m", "clauz3", "run", "--trusted-root", "tools/slow/trusted", "main.py"], cwd=project,
                                 env={**base, "PYTHONPATH": value}, capture_output=True, text=True, timeout=120,
                                 stdin=subprocess.DEVNULL)
            assert out.returncode == 2 and "PYTHONPATH" in out.stderr, (value, out.stdout, out.stderr)
        assert svc.requests == []
        fine = subprocess.run([sys.executable, "-m", "clauz3", "run", "--trusted-root", "tools/slow/trusted", "main.py"], cwd=project,
                              env={**base, "PYTHONPATH": str(tmp_path / "opt")}, capture_output=True, text=True,
                              timeout=120, stdin=subprocess.DEVNULL)
    assert fine.returncode == 0 and (project / "effect.txt").exists(), (fine.stdout, fine.stderr)

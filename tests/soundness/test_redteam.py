"""Red team for issue 10 (§6: "adversarial programs and layers you have not seen").

Hostile programs (``redteam_layers/programs.py``) over the generative test layer and over a red-team
layer of its own (``redteam_layers/hostile``: a float result that may be infinite, a string result from
a fixed list, rows, an int fluent and a bool fluent that starts false, helpers with defaults). Each is
checked and proved with the real checker and prover; every proved one runs many times in the real
interpreter with trusted results that respect the postconditions, under the monitor and with it off
(the real calls judged in plain Python). A proved guarantee that a run breaks is a soundness bug.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
LAYERS = HERE / "redteam_layers"
DRIVER = LAYERS / "redteam_check.py"
sys.path.insert(0, str(LAYERS))
sys.path.insert(0, str(HERE))

from generator import HEADER  # noqa: E402
from redteam_programs import EXAMPLE_HEADERS, EXAMPLES, GEN, GEN_DEFS, HOST, HOST_HEADER, render  # noqa: E402

BROKEN = REPO / "tests" / "difftest" / "broken_prover.py"

# Programs that found a bug (each must prove and run clean after its fix), by layer.
FOUND = {
    # The monitor compared an int fluent's final value with its type (True is not 1), the prover and
    # Python by ==: a proved tank_is('t', 1) after store('t', True) was stopped as broken.
    "h_tank_bool": "hostile",
}


def write(tmp: Path, layer: str) -> list[Path]:
    if layer.startswith("example:"):
        name = layer.split(":", 1)[1]
        table, header = EXAMPLES[name], EXAMPLE_HEADERS[name]
    else:
        table, header = (GEN, HEADER + GEN_DEFS) if layer == "gen" else (HOST, HOST_HEADER)
    paths = []
    for name, (guarantees, body) in sorted(table.items()):
        path = tmp / f"{name}.py"
        path.write_text(render(header, guarantees, body))
        paths.append(path)
    return paths


def check(layer: str, files: list[Path], runs: int, *flags: str, hash_seed: str = "0", drop: str | None = None
          ) -> tuple[dict[str, dict[str, object]], dict[str, int]]:
    """Run the driver in its own process; `-X …` in FLAGS goes to the interpreter, the rest to the driver."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    head = [str(BROKEN), drop] if drop else []
    py = [f for i, f in enumerate(flags) if f == "-X" or (i > 0 and flags[i - 1] == "-X")]
    own = [f for f in flags if f not in py]
    proc = subprocess.run([sys.executable, *py, *head, str(DRIVER), *own, "--layer", layer, "--runs", str(runs),
                           *map(str, files)], capture_output=True, text=True, cwd=REPO, env=env, timeout=900,
                          check=False)
    lines = proc.stdout.strip().splitlines()
    assert lines, proc.stderr[-3000:]
    rows = {r["name"]: r for r in map(json.loads, lines[:-1])}
    summary = json.loads(lines[-1])
    print(lines[-1])
    return rows, summary


@pytest.mark.parametrize("layer", ["gen", "hostile"])
def test_hostile_programs_that_prove_never_break_a_guarantee(layer: str, tmp_path: Path) -> None:
    files = write(tmp_path, layer)
    rows, summary = check(layer, files, 20)
    assert summary["tried"] == len(files) >= 60, summary
    assert summary["proved"] >= 15, f"too few programs proved to mean anything: {summary}"
    assert_clean(layer, rows)


EXAMPLE_LAYERS = [f"example:{name}" for name in sorted(EXAMPLES)]


@pytest.mark.parametrize("layer", EXAMPLE_LAYERS)
def test_hostile_programs_over_the_example_libraries(layer: str, tmp_path: Path) -> None:
    files = write(tmp_path, layer)
    rows, summary = check(layer, files, 20)
    assert summary["tried"] == len(files), summary
    assert summary["proved"] >= 4, f"too few programs proved to mean anything: {summary}"
    assert_clean(layer, rows)


@pytest.mark.parametrize("layer,drop,program", [
    ("hostile", "no_post", "h_code_upper"), ("example:email", "unique_recipients", "email_unique_case"),
    ("example:trading", "approvals_only_where", "trade_where_extra_key"),
    ("example:bank", "max_spend", "bank_round_half"), ("example:cloud", "max_instance_hours", "cloud_hours_total_over"),
])
def test_the_check_catches_a_prover_that_drops_a_guarantee(layer: str, drop: str, program: str,
                                                           tmp_path: Path) -> None:
    """A check that ran on nothing would pass: over a prover that drops one guarantee it must fail."""
    files = [p for p in write(tmp_path, layer) if p.stem == program]
    rows, _ = check(layer, files, 20, drop=drop)
    assert rows[program]["verdict"] == "proved", rows
    assert rows[program]["violation"], rows


def assert_clean(layer: str, rows: dict[str, dict[str, object]]) -> None:
    broken = {n: r["violation"] for n, r in rows.items() if r["violation"]}
    assert not broken, json.dumps(broken, indent=1)
    for name, where in FOUND.items():
        if where == layer:
            assert rows[name]["verdict"] == "proved", rows[name]


@pytest.mark.soak  # minutes of re-proving in fresh processes (00 DEC-2); test_no_verdict_switch covers a hostile env by default
@pytest.mark.parametrize("layer", ["gen", "hostile"])
@pytest.mark.parametrize("flags,hash_seed", [((), "12345"), (("-X", "int_max_str_digits=640"), "0")])
def test_no_verdict_depends_on_the_hash_seed_or_the_digit_limit(layer: str, flags: tuple[str, ...], hash_seed: str,
                                                                 tmp_path: Path) -> None:
    files = write(tmp_path, layer)
    base, _ = check(layer, files, 1, "--conclusions")
    other, _ = check(layer, files, 1, "--conclusions", *flags, hash_seed=hash_seed)
    # An obligation that ran out of time on a loaded machine is `unknown` (safe, not a verdict to compare).
    differ = {n: (base[n], other[n]) for n in base if not (base[n].get("timeout") or other[n].get("timeout"))
              and (base[n]["verdict"], base[n].get("conclusions")) != (other[n]["verdict"], other[n].get("conclusions"))}
    assert not differ, differ
    assert sum(r["verdict"] == "proved" for r in base.values()) > 0


@pytest.mark.parametrize("expr", ["7 ** 1000000000000", "read_int('k') ** 200000", "1 << 1000000000000"])
def test_an_int_too_large_to_compute_is_refused_before_proving(expr: str, tmp_path: Path) -> None:
    """`7 ** 10**12` after an unlock proved locked_at_end, and the run could only die (MemoryError or
    a kill) with the door unlocked; the prover itself would build `2 ** n` for a huge shift. Never run
    here: the program must be refused before proving."""
    path = tmp_path / "huge.py"
    path.write_text(render(HEADER + GEN_DEFS, "g.locked_at_end('front')",
                           f'unlock("front")\nx = {expr}\nlock("front")'))
    gen = HERE / "gen_layers"
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--trusted-root", str(gen / "tools/gen/trusted"),
                           "--import-root", str(gen), "--no-cache", str(path)], capture_output=True, text=True,
                          cwd=REPO, timeout=120, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 2, out
    assert f"{path}:" in out and "limit-exceeded" in out, out
    assert "proved guarantee" not in out, out


def test_the_monitor_stops_every_break_of_distinct_even_unproved(tmp_path: Path) -> None:
    """The monitor is the last guard: run under it with the guarantee whether proved or not, a repeated
    filter must be stopped however it is spelled ({"a": 1, "b": 2} equals {"b": 2, "a": 1} and {"a": True})."""
    names = ["h_query_same", "h_query_key_order", "h_query_bool_value", "h_query_distinct", "h_query_copy"]
    files = [p for p in write(tmp_path, "hostile") if p.stem in names]
    proc = subprocess.run([sys.executable, str(DRIVER), "--layer", "hostile", "--monitor-all", *map(str, files)],
                          capture_output=True, text=True, cwd=REPO, timeout=300, check=False)
    rows = {r["name"]: r for r in map(json.loads, proc.stdout.strip().splitlines()[:-1])}
    assert set(rows) == set(names), proc.stdout + proc.stderr[-3000:]
    for name in names[:3]:
        assert str(rows[name]["monitored"]).startswith("soundness_violation"), rows[name]
    for name in names[3:]:
        assert str(rows[name]["monitored"]).startswith("completed"), rows[name]


@pytest.mark.soak  # every checked program twice per layer: long (00 DEC-2)
@pytest.mark.parametrize("layer", ["gen", "hostile", *EXAMPLE_LAYERS])
def test_the_monitor_stops_a_run_exactly_when_its_real_calls_break_a_guarantee(layer: str, tmp_path: Path) -> None:
    """Every checked program, proved or not, runs under the monitor with all its guarantees and again
    without it on the same trusted results; the plain-Python judges of the contracts decide the second.
    The monitor must stop the first exactly when the second breaks a guarantee (provenance guarantees,
    judged here by value, only one way)."""
    files = write(tmp_path, layer)
    proc = subprocess.run([sys.executable, str(DRIVER), "--layer", layer, "--monitor-all", "--runs", "5",
                           *map(str, files)], capture_output=True, text=True, cwd=REPO, timeout=600, check=False,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    rows = [json.loads(line) for line in proc.stdout.strip().splitlines()[:-1]]
    assert len(rows) == len(files), proc.stderr[-3000:]
    monitored = [r for r in rows if "monitored" in r]
    stopped = [r for r in monitored if str(r["monitored"]).startswith("soundness_violation")]
    assert len(monitored) >= len(files) // 2 and stopped, f"{len(monitored)} monitored, {len(stopped)} stopped"
    disagree = {r["name"]: r["monitored"] for r in monitored if str(r["monitored"]).startswith("disagree")}
    assert not disagree, json.dumps(disagree, indent=1)[:6000]

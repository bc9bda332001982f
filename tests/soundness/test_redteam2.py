"""Second red team for issue 10 (§6: "adversarial programs and layers you have not seen").

Hostile programs (``redteam_layers/redteam2_programs.py``) over the generative test layer and over a
layer written to confuse the prover (``redteam_layers/trick``: effects named ``print``, ``len`` and
``max``, a second ``pay`` in another module, contracts whose limits are module globals). Each program
is checked and proved with the real checker and prover; every proved one runs 20 times in the real
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
TRICK_ROOT = LAYERS / "trick"
sys.path.insert(0, str(LAYERS))
sys.path.insert(0, str(HERE))

from generator import HEADER  # noqa: E402
from redteam2_programs import DEFS, GEN2_PROGRAMS, TRICK, TRICK_HEADER  # noqa: E402
from redteam_programs import GEN_DEFS, render  # noqa: E402

BROKEN = REPO / "tests" / "difftest" / "broken_prover.py"

# Programs that found a bug (each must prove and run clean after its fix).
FOUND = {
    # `bool & bool`, `|`, `^` are bools in Python (and in the checker's types); the prover made them
    # ints, so str(True & True) was "1" in the proof and "True" in the run.
    "int_bool_and_bool": "no guarantee proved",
    "int_bool_xor": "no guarantee proved",
    "int_bool_or_merge": "no guarantee proved",
    "int_bool_xor_unknown_text": "proved",
    "int_bool_aug_and": "proved",
    "int_bool_and_false": "proved",
    # int / int with an exact zero result takes the divisor's sign in CPython (0 / -5 is -0.0); the
    # prover made it +0.0.
    "n_div_neg_int": "no guarantee proved",
    "n_div_unknown_zero_by_neg": "no guarantee proved",
    "n_div_int_zero_neg_ok": "proved",
}


def run_driver(driver: list[str], files: list[Path], runs: int = 20, drop: str | None = None
               ) -> tuple[dict[str, dict[str, object]], dict[str, int]]:
    head = [str(BROKEN), drop] if drop else []
    proc = subprocess.run([sys.executable, *head, *driver, "--runs", str(runs), *map(str, files)],
                          capture_output=True, text=True, cwd=REPO, timeout=900, check=False,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    lines = proc.stdout.strip().splitlines()
    assert lines, proc.stderr[-3000:]
    rows = {r["name"]: r for r in map(json.loads, lines[:-1])}
    print(lines[-1])
    return rows, json.loads(lines[-1])


def write_gen(tmp: Path, names: list[str] | None = None) -> list[Path]:
    paths = []
    for name, (guarantees, body) in sorted(GEN2_PROGRAMS.items()):
        if names is None or name in names:
            path = tmp / f"{name}.py"
            path.write_text(render(HEADER + GEN_DEFS + DEFS, guarantees, body))
            paths.append(path)
    return paths


def write_trick(tmp: Path, names: list[str] | None = None) -> list[Path]:
    paths = []
    for name, (imports, guarantees, body) in sorted(TRICK.items()):
        if names is None or name in names:
            path = tmp / f"{name}.py"
            path.write_text(render(TRICK_HEADER + imports, guarantees, body))
            paths.append(path)
    return paths


GEN_DRIVER = [str(LAYERS / "redteam_check.py"), "--layer", "gen"]
TRICK_DRIVER = [str(LAYERS / "redteam2_check.py"), "--root", str(TRICK_ROOT)]


def assert_clean(rows: dict[str, dict[str, object]]) -> None:
    broken = {n: r["violation"] for n, r in rows.items() if r["violation"]}
    assert not broken, json.dumps(broken, indent=1)


def test_second_red_team_programs_that_prove_never_break_a_guarantee(tmp_path: Path) -> None:
    files = write_gen(tmp_path)
    rows, summary = run_driver(GEN_DRIVER, files)
    assert summary["tried"] == len(files) >= 330, summary
    assert summary["proved"] >= 20, f"too few programs proved to mean anything: {summary}"
    assert_clean(rows)
    for name, verdict in FOUND.items():
        assert rows[name]["verdict"] == verdict, rows[name]


def test_constructs_outside_the_subset_are_refused_not_proved(tmp_path: Path) -> None:
    """try/finally, function values, closures, starred targets, step slices: refused before proving."""
    names = ["try_finally_pays", "try_return_in_finally", "try_break_in_finally", "fn_alias_effect",
             "fn_alias_helper_arg", "fn_map_effect", "late_binding_lambdas", "closure_reads_later_value",
             "star_rest_list", "star_call_effect", "slice_neg_step", "walrus_in_condition", "recursion_unbounded"]
    rows, _ = run_driver(GEN_DRIVER, write_gen(tmp_path, names), runs=1)
    assert set(rows) == set(names)
    wrong = {n: r["verdict"] for n, r in rows.items() if not str(r["verdict"]).startswith("refused")}
    assert not wrong, wrong


def test_a_layer_that_names_effects_like_builtins_or_twice_cannot_confuse_the_prover(tmp_path: Path) -> None:
    files = write_trick(tmp_path)
    rows, summary = run_driver(TRICK_DRIVER, files)
    assert summary["tried"] == len(files) == len(TRICK), summary
    assert summary["proved"] >= 8, summary
    assert_clean(rows)
    # The effect, not the builtin, is what `len`/`max`/`print` mean once imported; the other module's
    # `pay` is another effect; a contract's global cannot be changed by the program.
    expect = {"tr_len_effect_small": "proved", "tr_len_effect_ne": "no guarantee proved",
              "tr_len_builtin_ne": "proved", "tr_max_effect": "proved", "tr_print_builtin": "proved",
              "tr_print_effect": "no guarantee proved", "tr_other_pay_not_counted": "proved",
              "tr_other_pay_counted": "no guarantee proved", "tr_reimport_shadow": "no guarantee proved",
              "tr_reimport_shadow_2": "no guarantee proved", "tr_global_limit_over": "no guarantee proved"}
    assert {n: rows[n]["verdict"] for n in expect} == expect
    for name in ("tr_global_limit_rebound", "tr_global_list_appended", "tr_global_list_imported",
                 "tr_global_list_module_level", "tr_guarantee_arg_module_list"):
        assert str(rows[name]["verdict"]).startswith("refused"), rows[name]


@pytest.mark.parametrize("driver,program,drop", [
    ("gen", "int_bool_or_true_pays", "max_pay"), ("trick", "tr_len_effect_ne", "pays_at_most"),
    ("trick", "tr_both_pays_aliased_over", "pays_at_most"),
])
def test_the_second_red_team_catches_a_prover_that_drops_a_guarantee(driver: str, program: str, drop: str,
                                                                       tmp_path: Path) -> None:
    """A check that ran on nothing would pass: over a prover that drops one guarantee it must fail."""
    write, cmd = (write_gen, GEN_DRIVER) if driver == "gen" else (write_trick, TRICK_DRIVER)
    rows, _ = run_driver(cmd, write(tmp_path, [program]), drop=drop)
    assert rows[program]["verdict"] == "proved", rows
    assert rows[program]["violation"], rows


# The default tier samples every 16th (20th) case: 320 number and 262 string programs; the soak tier every
# 4th (5th), ≈1,100 each, a superset (00 DEC-2: the default tier's ten minutes on two cores).
@pytest.mark.parametrize(("which", "every", "least"), [
    ("numbers", 16, 250), ("strings", 20, 250),
    pytest.param("numbers", 4, 1000, marks=pytest.mark.soak), pytest.param("strings", 5, 1000, marks=pytest.mark.soak),
])
def test_a_sweep_of_operator_and_builtin_texts_never_proves_a_lie(tmp_path: Path, which: str, every: int,
                                                                  least: int) -> None:
    """Every N-th case of the number (string) sweep: the lie must never hold in a proof (a proved one would
    send its text and be caught), and the truths must mostly prove, or the sweep means nothing. Full
    sweeps: 4,443 number lies and 5,398 string lies, none proved."""
    from redteam2_programs import string_sweep, sweep

    cases = sweep(every=every) if which == "numbers" else string_sweep(every=every)
    for kind, index in (("lie", 0), ("truth", 1)):
        folder = tmp_path / kind
        folder.mkdir()
        files = []
        for name, case in sorted(cases.items()):
            path = folder / f"{name}.py"
            path.write_text(render(HEADER + GEN_DEFS + DEFS, case[index], case[2]))
            files.append(path)
        rows, summary = run_driver(GEN_DRIVER, files, runs=2)
        assert summary["tried"] == len(cases) >= least, summary
        assert_clean(rows)
        if kind == "lie":
            assert summary["proved"] == 0, [n for n, r in rows.items() if r["verdict"] == "proved"][:20]
        else:
            assert summary["proved"] >= 0.8 * len(cases), summary


def test_no_expression_that_raises_between_unlock_and_lock_proves_locked_at_end(tmp_path: Path) -> None:
    """Every sweep expression that raises in CPython (≈900): refused or an exception obligation, never proved."""
    from redteam2_programs import raising_sweep

    cases = raising_sweep()
    files = []
    for name, (guarantee, body) in sorted(cases.items()):
        path = tmp_path / f"{name}.py"
        path.write_text(render(HEADER + GEN_DEFS + DEFS, guarantee, body))
        files.append(path)
    rows, summary = run_driver(GEN_DRIVER, files, runs=2)
    assert summary["tried"] == len(cases) >= 800, summary
    assert summary["proved"] == 0, [n for n, r in rows.items() if r["verdict"] == "proved"][:20]
    assert sum(str(r["verdict"]).startswith("exception") for r in rows.values()) >= 150, summary

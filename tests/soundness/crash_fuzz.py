"""Random programs for the prove crash fuzz (issue 18): ``clauz3 prove`` must exit 0, 1 or 2, never 70.

Two sources: the generative check's programs (``generator.build``, used as it is) and hostile snippets
written here, built from edge values (huge ints, ±0.0, NaN, infinities, 1.5e308, repeated set
elements, overwritten dict keys, unhashable values behind ``object``, None, tuples against lists)
under the operations that fold, order, hash, index and format them. Most hostile programs are refused
by the checker: that is an answer too; what may never happen is a crash or an internal error.

``python crash_fuzz.py --programs N --seed S --out DIR`` writes N programs into DIR.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generator import RandomChooser, build

HEADER = """import math

import clauz3
from tools.gen.trusted import contracts as fam
from tools.gen.trusted.effects import (
    contacts, lock, note, pair, pay, read_big, read_flag, read_float, read_int, read_list, read_str, send, unlock,
)


"""

INTS = ("0", "1", "-1", "2", "7", "2 ** 53 + 1", "1 << 1100", "10 ** 400", "-(1 << 1100)", "True", 'read_int("k")',
        'read_big("b")', "len(read_str(\"s\"))")
FLOATS = ("0.0", "-0.0", "0.5", "1.5e308", "-1.6e308", "1e-308", "5e-324", "math.inf", "-math.inf",
          "math.inf - math.inf", "1e16", "2.675", 'read_float("f")', "9007199254740993.0")
STRS = ('""', '"a"', '"ab"', '"é"', '"😀"', '"0"', '"9"', '"12"', '" x "', '"1e5"', 'read_str("s")', '"nan"')
LISTS = ("[]", "[1]", "[1, 1]", "[5, 5, 7]", '[1, ["x"]]', '[1, "a"]', "[(1,), [1]]", "[[1], (1,)]",
         "[1.5, 2]", "[None, 1]", 'read_list("l")', "[{1}, {2}]", '[{"a": 1}]')
SETS = ("{1}", "{1, 1, 2}", "{5, 5, 7}", '{"a", "a", "b"}', "set([5, 5, 7])", "{(1, 2), (1, 2)}",
        "{math.inf - math.inf, 1}", "set()")
DICTS = ('{"a": 1, "a": 2, "b": 3}', "{1: 1, 1.0: 2, True: 3}", "{}", '{"k": [1]}', "{(1,): 2}")
ANY = INTS + FLOATS + STRS + LISTS + SETS + DICTS + ("None",)
BINOPS = ("+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^")
CMPS = ("<", "<=", ">", ">=", "==", "!=", "in", "not in")
DIGITS = ("-400", "-309", "-308", "-307", "-1", "0", "1", "2", "400")
SPECS = (".2f", ",", ">10", ".0f", "+.3e", "05d", "", "g", "%")


def snippet(rng: random.Random, k: int) -> list[str]:
    """One statement (a few lines) over edge values; ``k`` numbers its names."""
    pick = rng.choice
    x = f"v{k}"
    kind = rng.randrange(22)
    if kind == 0:
        return [f"{x} = {pick(INTS + FLOATS)} {pick(BINOPS)} {pick(INTS + FLOATS)}"]
    if kind == 1:
        return [f"{x} = round({pick(FLOATS + INTS)}, {pick(DIGITS)})"]
    if kind == 2:
        return [f"{x} = round({pick(FLOATS + INTS)})"]
    if kind == 3:
        return [f"for i, e in enumerate({pick(SETS + DICTS + LISTS + STRS)}):", "    pay(i)"]
    if kind == 4:
        return [f"if {pick(ANY)} {pick(CMPS)} {pick(ANY)}:", "    pay(1)"]
    if kind == 5:
        return [f"{x} = {{{pick(ANY)}: 1}}"]
    if kind == 6:
        return [f"{x} = set({pick(LISTS + SETS + STRS)})"]
    if kind == 7:
        return [f'{x} = f"{{{pick(INTS + FLOATS + STRS)}:{pick(SPECS)}}}"']
    if kind == 8:
        return [f"{x} = int({pick(STRS + FLOATS)})"]
    if kind == 9:
        return [f"{x} = {pick(STRS)}.split({pick(STRS)})"]
    if kind == 10:
        return [f"{x} = {pick(('min', 'max', 'sum', 'len', 'list', 'tuple', 'sorted'))}({pick(LISTS + SETS + DICTS)})"]
    if kind == 11:
        return [f"{x} = chr({pick(INTS)})"]
    if kind == 12:
        return [f"{x} = {pick(LISTS + STRS)}[{pick(INTS)}]"]
    if kind == 13:
        return [f"{x} = str({pick(ANY)})"]
    if kind == 14:
        return [f"{x} = float({pick(INTS + STRS)})"]
    if kind == 15:
        return [f"{x} = math.{pick(('floor', 'ceil', 'trunc', 'isinf', 'isnan'))}({pick(FLOATS + INTS)})"]
    if kind == 16:
        return [f"{x} = {pick(LISTS)} * {pick(INTS)}"]
    if kind == 17:
        return [f"{x} = {pick(SETS)}", f"{x}.add({pick(ANY)})"]
    if kind == 18:
        return [f"{x} = {pick(DICTS)}", f"{x}[{pick(ANY)}] = 1"]
    if kind == 19:
        return [f"{x} = [e for e in {pick(SETS + DICTS + LISTS)} if e {pick(CMPS)} {pick(ANY)}]"]
    if kind == 20:
        return [f"{x} = {pick(ANY)} if read_flag(\"c\") else {pick(ANY)}", f"pay(len(str({x})))"]
    return [f"note({pick(FLOATS)} {pick(BINOPS)} {pick(FLOATS + INTS)})"]


def hostile(rng: random.Random) -> str:
    lines: list[str] = []
    for k in range(rng.randint(1, 4)):
        lines += snippet(rng, k)
    if rng.random() < 0.5:
        lines.append("pay(1)")
    guarantee = rng.choice(("fam.max_pay(5)", 'fam.locked_at_end("d")', "fam.notes_are_numbers()"))
    return (HEADER + f"@clauz3.guarantee({guarantee})\ndef main() -> None:\n"
            + "".join(f"    {line}\n" for line in lines))


def programs(count: int, seed: int) -> list[str]:
    """``count`` programs: alternately a generated one and a hostile one."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        if k % 2 == 0:
            out.append(build(RandomChooser(random.Random(rng.randrange(2 ** 32)))).source())
        else:
            out.append(hostile(rng))
    return out


def write(count: int, seed: int, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for k, source in enumerate(programs(count, seed)):
        path = folder / f"fuzz_{seed}_{k:05d}.py"
        path.write_text(source)
        paths.append(path)
    return paths


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--programs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    for path in write(args.programs, args.seed, args.out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

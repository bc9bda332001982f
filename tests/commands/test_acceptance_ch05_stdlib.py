"""05 STD-2 / §11.1 acceptance: path scopes compare components, proved by `clauz3 prove` against the
bundled filesystem library (`only_write_under('output')` excludes `output2/x`, includes `./output/a`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import clauz3

LIBRARY = Path(clauz3.__file__).parent / "stdlib" / "filesystem"
TRUSTED = LIBRARY / "tools" / "filesystem" / "trusted"

PROGRAM = '''import clauz3
from tools.filesystem.trusted import contracts as filesystem
from tools.filesystem.trusted.effects import write_file


@clauz3.guarantee(filesystem.only_write_under(dir={scope!r}))
def main() -> None:
    write_file({path!r}, "x")
'''


def prove(tmp: Path, scope: str, path: str) -> subprocess.CompletedProcess[str]:
    program = tmp / "main.py"
    program.write_text(PROGRAM.format(scope=scope, path=path))
    env = dict(os.environ, CLAUZ3_HOME=str(tmp / "data"), CLAUZ3_CACHE=str(tmp / "cache"))
    return subprocess.run([sys.executable, "-m", "clauz3", "prove", "--no-cache", "--trusted-root", str(TRUSTED),
                           "--import-root", str(LIBRARY), str(program)],
                          capture_output=True, text=True, env=env, cwd=tmp, timeout=120)


@pytest.mark.parametrize(("scope", "path"), [("output", "./output/a"), ("output", "output/a"),
                                             ("output", "output/deeper/b.txt"), ("./output/", "output/a"),
                                             ("output/x", "./output/x/y")])
def test_paths_under_the_scope_prove(tmp_path: Path, scope: str, path: str) -> None:
    out = prove(tmp_path, scope, path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "main: proved guarantee filesystem.only_write_under(" in out.stdout


@pytest.mark.parametrize(("scope", "path"), [("output", "output2/x"), ("output", "outputx"),
                                             ("output", "./output2/a"), ("output/x", "output/xy/z"),
                                             ("output", "other/output/a")])
def test_component_prefixes_are_not_under(tmp_path: Path, scope: str, path: str) -> None:
    out = prove(tmp_path, scope, path)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "main: violated guarantee filesystem.only_write_under(" in out.stdout
    assert f'write_file(path="{path}", content="x")' in out.stdout

"""The bridge self-check before the first agent of a service starts (04 ACP-9).

``python -P -m clauz3.bridge --check`` must print exactly the six tool names within 10 s, in an
environment without any ``CLAUZ3_*`` variable; otherwise every provider is refused. It starts at
service start and runs in parallel with everything else (00 DEC-6).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys

from clauz3.sessions.launch.config import LaunchConfig

SIX = {"run", "status", "tools", "libraries", "list_skills", "read_skill"}
TIMEOUT = 10.0
FAILED = "the clauz3 tools failed their self-check"


class BridgeCheck:
    def __init__(self, config: LaunchConfig) -> None:
        self._skip = config.skip_bridge_check or bool(config.bridge_argv)
        self._task: asyncio.Task[bool] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="bridge.check")

    async def ok(self) -> bool:
        self.start()
        assert self._task is not None
        return await asyncio.shield(self._task)

    async def _run(self) -> bool:
        if self._skip:
            return True
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-I", "-m", "clauz3.bridge", "--check", stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, env=env, start_new_session=True)
        except OSError:
            return False
        try:
            out, _ = await asyncio.wait_for(proc.communicate(), TIMEOUT)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
            return False
        try:
            names = json.loads(out.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return False
        return proc.returncode == 0 and isinstance(names, list) and len(names) == 6 and set(names) == SIX

"""The real ``tilescore`` command as a subprocess, for tests that use it as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def tilescore(
    *args: object,
    stdin: str | None = None,
    timeout: float = 120,
    env: dict[str, str] | None = None,
    cwd: Path = REPO,
) -> subprocess.CompletedProcess[str]:
    """``tilescore ARGS`` run from ``cwd`` (the repository unless said), this checkout's code."""
    return subprocess.run(
        [sys.executable, "-m", "device.cli", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=os.environ | {"PYTHONPATH": str(REPO)} | (env or {}),
        timeout=timeout,
    )

"""Folders a command will write, checked before the work that fills them."""

from __future__ import annotations

import os
from pathlib import Path

from scoring.errors import TilescoreError


def check_writable(folder: Path, what: str) -> None:
    """One line where ``folder`` (made if missing, as the command will) cannot be written: a
    read-only one failed after a whole training run, or in a traceback at the end of an
    evaluation. ``what`` names the option or folder in the message."""
    if folder.is_symlink() and not folder.exists():
        raise TilescoreError(f"{what} {str(folder)!r} is a link to nothing")
    target = folder
    while not target.exists() and target != target.parent:
        target = target.parent  # made where it is missing: its nearest existing parent decides
    if not target.is_dir():
        raise TilescoreError(f"{what} {str(folder)!r} is not a folder")
    if not os.access(target, os.W_OK | os.X_OK):
        raise TilescoreError(f"cannot write {what} {str(folder)!r} (read-only)")

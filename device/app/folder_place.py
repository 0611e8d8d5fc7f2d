"""Where the folder camera is in its folder, kept in the app's settings: restarted, the app took
the first photo again, and a laptop demo scored its hands over from the start (each found again
as a hand recorded already)."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

from device.camera.base import CameraError
from device.store import Store

SETTING = "folder_camera"
"""``{"folder": the folder's resolved path, "next": the name of the photo to take next}``."""

log = logging.getLogger(__name__)


def resume(store: Store, camera: Any) -> None:
    """A folder camera just opened goes to the photo it was to take next when the app last
    moved it on, if it reads the same folder; any other camera, or none kept, stays as it is."""
    go_to = getattr(camera, "go_to", None)
    if go_to is None:
        return
    try:
        kept = store.get_setting(SETTING)
    except (ValueError, OSError, sqlite3.Error) as error:  # unreadable: the first photo
        log.warning("the folder camera's place cannot be read (%s): it starts at its first", error)
        return
    if not isinstance(kept, dict) or not isinstance(kept.get("next"), str):
        return
    if kept.get("folder") == _folder(camera):
        go_to(kept["next"])


def keep(store: Store, camera: Any) -> None:
    """The folder camera's place, kept after it moved on. A by-product of a hand already saved:
    one that cannot be written is said in the log, not as a failed score."""
    name = getattr(camera, "photo_name", None)
    if name is None:
        return
    try:
        store.set_setting(SETTING, {"folder": _folder(camera), "next": name()})
    except (OSError, sqlite3.Error, CameraError) as error:
        log.warning("the folder camera's place was not kept (%s)", error)


def _folder(camera: Any) -> str:
    return str(Path(camera.folder).resolve())

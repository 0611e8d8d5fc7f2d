"""Make ultralytics work with no network: no weight, font or asset downloads, no telemetry.

Import this module before ``ultralytics``. It points ultralytics at a settings folder of our own,
puts a font where ultralytics looks for Arial (it would download one to draw its plots), and turns
off syncing and auto-installs.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, cast

CONFIG_DIR = Path(
    os.environ.get("TILESCORE_YOLO_DIR", Path(tempfile.gettempdir()) / "tilescore-yolo")
)
FONT_NAMES = ("Arial.ttf", "Arial.Unicode.ttf")


def _font_source() -> Path | None:
    candidates = [
        Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    ]
    try:
        import matplotlib

        candidates.insert(0, Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf")
    except ImportError:
        pass
    return next((c for c in candidates if c.exists()), None)


def configure() -> Path:
    """Set the environment and settings; returns the ultralytics config folder."""
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "0"
    os.environ["YOLO_CONFIG_DIR"] = str(CONFIG_DIR)
    os.environ.setdefault("YOLO_VERBOSE", "1")
    CONFIG_DIR.mkdir(parents=True, exist_ok=True)
    # On a machine's first run ultralytics announces the settings file it creates, on stdout, as
    # it is imported: stdout is for a command's result alone (--json).
    with contextlib.redirect_stdout(sys.stderr):
        from ultralytics.utils import SETTINGS, USER_CONFIG_DIR
    # Where check_font looks before it asks github.com for Arial (for a detector's plots): its
    # own folder under YOLO_CONFIG_DIR (CONFIG_DIR/Ultralytics), not CONFIG_DIR itself, where
    # the fonts lay before and every detector run looked the font up on the network.
    source = _font_source()
    for name in FONT_NAMES:
        target = Path(USER_CONFIG_DIR) / name
        if source is not None and not target.exists():
            shutil.copyfile(source, target)

    # Only the keys this ultralytics version knows: an unknown key is an error there.
    wanted = {
        "sync": False,
        "clearml": False,
        "comet": False,
        "dvc": False,
        "mlflow": False,
        "neptune": False,
        "raytune": False,
        "tensorboard": False,
        "wandb": False,
        "vscode_msg": False,
        "openvino_msg": False,
    }
    # SETTINGS is a dict subclass whose update() (it checks the keys and saves) has no annotations.
    # Only what differs: each update rewrites the settings file, and two commands at once (a
    # fine-tune beside a build) read each other's half-written file as corrupt and reset it.
    changed = {k: v for k, v in wanted.items() if k in SETTINGS and SETTINGS[k] != v}
    if changed:
        cast(dict[str, Any], SETTINGS).update(changed)
    return CONFIG_DIR


configure()

"""ultralytics configured never to reach the network (vision/training/offline.py)."""

import pytest


def test_the_font_ultralytics_draws_with_is_found_without_a_download(tmp_path):
    # Every detector run asked github.com for Arial.ttf: the font lay one folder above where
    # ultralytics looks for it. A fresh settings folder, as on a new machine.
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import vision.training.offline\n"
        "from ultralytics.utils import checks, downloads\n"
        "def no_network(*args, **kwargs):\n"
        "    raise SystemExit(f'ultralytics reached for the network: {args}')\n"
        "downloads.is_url = downloads.safe_download = no_network\n"
        "for name in ('Arial.ttf', 'Arial.Unicode.ttf'):\n"
        "    print(checks.check_font(name))\n"
    )
    root = Path(__file__).resolve().parents[2]
    env = os.environ | {"PYTHONPATH": str(root), "TILESCORE_YOLO_DIR": str(tmp_path / "yolo")}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert run.returncode == 0, run.stderr[-2000:] + run.stdout
    found = [Path(line) for line in run.stdout.splitlines()]
    assert len(found) == 2 and all(f.exists() and tmp_path in f.parents for f in found), found


def test_settings_keep_syncing_off():
    from vision.training.offline import configure

    configure()  # before ultralytics is imported
    from ultralytics.utils import SETTINGS

    assert SETTINGS["sync"] is False


@pytest.mark.parametrize("name", ["YOLO_OFFLINE", "YOLO_AUTOINSTALL"])
def test_the_offline_switches_are_set(name):
    import os

    import vision.training.offline  # noqa: F401

    assert os.environ[name] == ("1" if name == "YOLO_OFFLINE" else "0")

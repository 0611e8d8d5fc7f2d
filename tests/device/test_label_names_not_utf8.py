"""``tilescore label`` with a photo whose name's bytes are not UTF-8 (Python holds it with lone
surrogates): its exports, import and report write it escaped, never raw, and never crash (the
Label Studio export and the import ended in a traceback, the crops export in a segfault)."""

import json
import os
import subprocess
import sys

import cv2
import numpy as np

from tests.cli_run import REPO

NAME = os.fsdecode(b"p\xff.png")  # "p\udcff.png"


def label(*args):
    # A strict UTF-8 stdout, as a UTF-8 locale other than C.UTF-8 gives.
    env = os.environ | {"PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "device.cli", "label", *map(str, args)],
        capture_output=True, cwd=REPO, env=env, timeout=60,
    )  # fmt: skip


def json_out(run):
    assert run.returncode == 0, run.stderr.decode(errors="replace")
    return json.loads(run.stdout.decode("utf-8"))  # strict: raw bytes would fail here


def test_a_photo_name_that_is_not_utf8_goes_through_every_export_and_the_import(tmp_path):
    photos, labels = tmp_path / "photos", tmp_path / "labels"
    photos.mkdir()
    labels.mkdir()
    for name in (NAME, "plain.png"):
        cv2.imencode(".png", np.full((200, 300, 3), 200, np.uint8))[1].tofile(photos / name)
        tiles = [{"code": "1m", "box": [50, 50, 100, 120], "face_down": False, "rotated": False}]
        label_file = labels / (name[:-4] + ".json")
        label_file.write_text(
            json.dumps({"image": name, "tiles": tiles, "status": "done"}), errors="surrogateescape"
        )

    report = json_out(label(photos, "--labels", labels, "--report", "--json"))
    assert report["photos"] == 2

    studio = tmp_path / "studio.json"
    exported = json_out(
        label(photos, "--labels", labels, "--export", "labelstudio", "--out", studio)
    )
    assert exported["exported"] == 2
    tasks = json.loads(studio.read_text("utf-8"))  # escaped (\udcff): valid UTF-8
    assert NAME in [task["data"]["image"] for task in tasks]

    crops = tmp_path / "crops"
    exported = json_out(label(photos, "--labels", labels, "--export", "crops", "--out", crops))
    assert exported["exported"] == 2
    assert any(path.name.startswith("p\udcff_") for path in crops.rglob("*.jpg"))

    out = json_out(label(photos, "--labels", labels, "--import", studio))
    assert out["imported"] == 2
    assert json.loads((labels / "p\udcff.json").read_text("utf-8"))["image"] == NAME

"""The label store, exports and imports, and the labelling page in real headless Chromium."""

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from datasets import label_export
from device.labels import LabelStore, validate_label
from scoring.errors import TilescoreError

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "photos"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture
def folder(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    for name in ("taiwan-pinghu", "taiwan-melds"):
        shutil.copy(EXAMPLES / f"{name}.jpg", photos / f"{name}.jpg")
        truth = json.loads((EXAMPLES / f"{name}.json").read_text())
        labels = tmp_path / "labels"
        labels.mkdir(exist_ok=True)
        label = {k: truth[k] for k in ("width", "height", "tiles")} | {"status": "done"}
        (labels / f"{name}.json").write_text(json.dumps(label))
    return tmp_path


def test_names_outside_the_folder_are_refused(folder):
    store = LabelStore(folder / "photos", folder / "labels")
    with pytest.raises(TilescoreError, match="no photo named"):
        store.label_path("../../etc/passwd")


def test_bad_labels_are_one_line_errors():
    with pytest.raises(TilescoreError, match="tile 0: box"):
        validate_label("x.jpg", {"tiles": [{"box": [1, 2]}]})
    with pytest.raises(TilescoreError, match="unknown tile code"):
        validate_label("x.jpg", {"tiles": [{"box": [0, 0, 5, 5], "code": "10m"}]})


def test_save_is_atomic_and_leaves_no_temporary_files(folder):
    store = LabelStore(folder / "photos", folder / "labels")
    label = store.load("taiwan-pinghu.jpg")
    label["tiles"][0]["code"] = "9p"
    store.save("taiwan-pinghu.jpg", label)
    assert store.load("taiwan-pinghu.jpg")["tiles"][0]["code"] == "9p"
    assert not list((folder / "labels").glob(".*.tmp"))


def test_yolo_and_crop_exports_split_by_photo(folder, tmp_path):
    store = LabelStore(folder / "photos", folder / "labels")
    done = [(store.photo_path(n), store.load(n)) for n in store.photo_names()]
    assert label_export.export_yolo(done, tmp_path / "yolo") == 2
    lines = sorted((tmp_path / "yolo" / "labels").rglob("*.txt"))
    assert len(lines) == 2 and "names:" in (tmp_path / "yolo" / "data.yaml").read_text()
    crops = label_export.export_crops(done, tmp_path / "crops")
    # Every tile gives a crop; a face-down one goes to "back", the classifier's face-down class.
    backs = sum(1 for _, label in done for t in label["tiles"] if t["face_down"])
    assert backs and crops == sum(len(label["tiles"]) for _, label in done)
    assert len(list((tmp_path / "crops").rglob("back/*.jpg"))) == backs
    # The split is by photo: every crop of one photo lands on the same side.
    for path, _ in done:
        sides = {c.parts[-3] for c in (tmp_path / "crops").rglob(f"{path.stem}_*.jpg")}
        assert sides == {label_export.split_of(path.name)}


def test_label_studio_round_trip(folder):
    store = LabelStore(folder / "photos", folder / "labels")
    done = [(store.photo_path(n), store.load(n)) for n in store.photo_names()]
    back = label_export.from_label_studio(label_export.to_label_studio(done))
    for path, label in done:
        again = back[path.name]
        assert [t["code"] for t in again["tiles"]] == [t["code"] for t in label["tiles"]]
        assert [t["rotated"] for t in again["tiles"]] == [t["rotated"] for t in label["tiles"]]
        for a, b in zip(again["tiles"], label["tiles"], strict=True):
            assert a["box"] == pytest.approx(b["box"], abs=0.01)


def test_report_counts_classes(folder):
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "device.cli",
            "label",
            str(folder / "photos"),
            "--labels",
            str(folder / "labels"),
            "--report",
            "--json",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    # 7p: the winning tile of one example and part of 567p in the other.
    assert report["photos"] == 2 and report["per_class"]["7p"] == 2


@pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed")
def test_fix_a_box_and_a_class_in_the_browser_then_export(folder, tmp_path):
    playwright = pytest.importorskip("playwright.sync_api")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "device.cli",
            "label",
            str(folder / "photos"),
            "--labels",
            str(folder / "labels"),
            "--port",
            str(port),
            "--models",
            str(tmp_path / "none"),
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/photos", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_function("document.querySelector('#status').textContent.endsWith('.jpg')")
            first = page.inner_text("#status")
            label = json.loads((folder / "labels" / first.replace(".jpg", ".json")).read_text())
            x1, y1, x2, y2 = label["tiles"][0]["box"]
            # Click the middle of the first box (canvas pixels -> page pixels).
            box = page.locator("#canvas").bounding_box()
            scale = box["width"] / label["width"]
            page.mouse.click(box["x"] + (x1 + x2) / 2 * scale, box["y"] + (y1 + y2) / 2 * scale)
            page.click("#classes button[data-code='9s']")
            page.keyboard.press("ArrowRight")
            page.wait_for_function(
                "document.querySelector('#status').textContent.startsWith('saved')"
            )
            time.sleep(0.5)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    saved = json.loads((folder / "labels" / first.replace(".jpg", ".json")).read_text())
    assert saved["tiles"][0]["code"] == "9s"
    assert saved["tiles"][0]["box"][0] == pytest.approx(x1 + 2, abs=0.2)
    out = tmp_path / "crops"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "device.cli",
            "label",
            str(folder / "photos"),
            "--labels",
            str(folder / "labels"),
            "--export",
            "crops",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    stem = first.replace(".jpg", "")
    assert list(out.rglob(f"9s/{stem}_0.jpg"))


def test_photos_load_when_the_folder_is_given_relative_to_the_working_folder(folder, monkeypatch):
    from device.label_web import create_label_app

    monkeypatch.chdir(folder)  # as `tilescore label photos` is typed
    client = create_label_app(LabelStore(Path("photos"), Path("labels")), None).test_client()
    response = client.get("/api/photos/taiwan-melds.jpg/image")
    assert response.status_code == 200
    assert response.data[:2] == b"\xff\xd8"  # the JPEG itself

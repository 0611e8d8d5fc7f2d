"""The label store, exports and imports, and the labelling page in real headless Chromium."""

import contextlib
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


def test_photos_that_would_share_a_label_file_are_refused_not_mixed(folder):
    # x.jpg and x.webp once read and wrote one x.json: saving one replaced the other's label.
    photos = folder / "photos"
    shutil.copy(photos / "taiwan-pinghu.jpg", photos / "taiwan-pinghu.webp")
    store = LabelStore(photos, folder / "labels")
    before = (folder / "labels" / "taiwan-pinghu.json").read_bytes()
    for name in ("taiwan-pinghu.jpg", "taiwan-pinghu.webp"):
        with pytest.raises(TilescoreError, match=r"would share the label file taiwan-pinghu\.json"):
            store.save(name, {"tiles": []})
    assert (folder / "labels" / "taiwan-pinghu.json").read_bytes() == before
    listed = {row["image"]: row["status"] for row in store.summary()}
    assert listed == {
        "taiwan-melds.jpg": "done",
        "taiwan-pinghu.jpg": "broken",
        "taiwan-pinghu.webp": "broken",
    }


def test_bad_labels_are_one_line_errors():
    with pytest.raises(TilescoreError, match="tile 1 has a bad box"):
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
    splits = label_export.split_photos(path.name for path, _ in done)
    assert sorted(splits.values()) == ["train", "val"]  # split_of puts both in train
    for path, _ in done:
        sides = {c.parts[-3] for c in (tmp_path / "crops").rglob(f"{path.stem}_*.jpg")}
        assert sides == {splits[path.name]}


def test_label_studio_round_trip(folder):
    store = LabelStore(folder / "photos", folder / "labels")
    done = [(store.photo_path(n), store.load(n)) for n in store.photo_names()]
    tasks = label_export.to_label_studio(done)
    back = label_export.from_label_studio(tasks, store.photo_names(), store.photo_size).labels
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


@contextlib.contextmanager
def label_page(folder, tmp_path):
    """The labelling page for ``folder`` in headless Chromium, on the first photo; every wait is
    generous (the machine may be busy)."""
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
        for _ in range(300):
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
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.set_default_timeout(60_000)
                page.goto(f"http://127.0.0.1:{port}/")
                page.wait_for_function(
                    "document.querySelector('#status').textContent.endsWith('.jpg')"
                )
                yield page
            finally:
                browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


def wait_saved(page):
    """Until every change made so far is on disk (saves go out one at a time)."""
    try:
        page.wait_for_function(
            "inflight === null && document.querySelector('#status').textContent.startsWith('saved')"
        )
    except Exception as error:  # playwright's TimeoutError: say what the page shows instead
        raise AssertionError(
            f"nothing saved; the page says {page.inner_text('#status')!r}"
        ) from error


def to_page(page, label, x, y):
    """Image pixels -> page pixels."""
    box = page.locator("#canvas").bounding_box()
    scale = box["width"] / label["width"]
    return box["x"] + x * scale, box["y"] + y * scale


def drag(page, start, end):
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=6)
    page.mouse.up()


@pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed")
def test_fix_a_box_and_a_class_in_the_browser_then_export(folder, tmp_path):
    with label_page(folder, tmp_path) as page:
        first = page.inner_text("#status")
        label = json.loads((folder / "labels" / first.replace(".jpg", ".json")).read_text())
        x1, y1, x2, y2 = label["tiles"][0]["box"]
        # Click the middle of the first box (canvas pixels -> page pixels).
        page.mouse.click(*to_page(page, label, (x1 + x2) / 2, (y1 + y2) / 2))
        page.click("#classes button[data-code='9s']")
        page.keyboard.press("ArrowRight")
        wait_saved(page)
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


def test_notes_are_kept_as_text_and_blank_notes_leave_the_old_shape():
    tiles = [{"box": [0, 0, 5, 5], "code": "5m"}]
    assert validate_label("x.jpg", {"tiles": tiles, "notes": "one cut off"})["notes"] == (
        "one cut off"
    )
    assert "notes" not in validate_label("x.jpg", {"tiles": tiles, "notes": "  \n"})
    assert "notes" not in validate_label("x.jpg", {"tiles": tiles, "notes": None})
    with pytest.raises(TilescoreError, match="notes must be text"):
        validate_label("x.jpg", {"tiles": tiles, "notes": ["a"]})


def test_the_real_labels_load_and_validate_unchanged():
    """The page saves what validate_label gives: for every real label (notes, tile sets) that is
    the file as it is, so opening and saving one changes nothing (the files are only read)."""
    files = sorted((REPO / "datasets" / "real" / "labels").glob("*.json"))
    assert files
    for path in files:
        label = json.loads(path.read_text("utf-8"))
        assert validate_label(label["image"], label) == label, path.name
    assert any("notes" in json.loads(p.read_text("utf-8")) for p in files)


def first_label(folder, page):
    path = folder / "labels" / page.inner_text("#status").replace(".jpg", ".json")
    return path, json.loads(path.read_text())


@pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed")
def test_resize_from_a_corner_and_an_edge_and_an_edge_press_draws_no_box(folder, tmp_path):
    with label_page(folder, tmp_path) as page:
        path, label = first_label(folder, page)
        count = len(label["tiles"])
        scale = page.locator("#canvas").bounding_box()["width"] / label["width"]
        x1, y1, x2, y2 = label["tiles"][0]["box"]  # the top-left tile: nothing left of it
        # Nothing selected: a press 2 px outside the left edge takes that edge.
        start = to_page(page, label, x1, (y1 + y2) / 2)
        drag(page, (start[0] - 2, start[1]), (start[0] - 22, start[1]))
        wait_saved(page)
        saved = json.loads(path.read_text())
        assert len(saved["tiles"]) == count
        left = saved["tiles"][0]["box"][0]
        assert left == pytest.approx(x1 - 20 / scale, abs=2.5)
        assert saved["tiles"][0]["box"][1:] == [y1, x2, y2]
        # The top-left corner handle of the (now selected) box.
        corner = to_page(page, label, left, y1)
        drag(page, corner, (corner[0] - 12, corner[1] - 10))
        wait_saved(page)
        saved = json.loads(path.read_text())
        bx1, by1, bx2, by2 = saved["tiles"][0]["box"]
        assert bx1 == pytest.approx(left - 12 / scale, abs=2.5)
        assert by1 == pytest.approx(y1 - 10 / scale, abs=2.5)
        assert (bx2, by2) == (x2, y2)
        # A press just above another box's top edge, dragged up and right far enough to draw a
        # box on empty photo: it moves that edge only.
        tx1, ty1, tx2, ty2 = label["tiles"][4]["box"]
        top = to_page(page, label, (tx1 + tx2) / 2, ty1)
        drag(page, (top[0], top[1] - 2), (top[0] + 25, top[1] - 27))
        wait_saved(page)
        saved = json.loads(path.read_text())
        assert len(saved["tiles"]) == count
        assert saved["tiles"][4]["box"][1] == pytest.approx(ty1 - 25 / scale, abs=2.5)
        assert [saved["tiles"][4]["box"][i] for i in (0, 2, 3)] == [tx1, tx2, ty2]
        assert page.inner_text("#selected").startswith("box 4:")


@pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed")
def test_undo_and_redo_a_delete_and_a_move_are_saved(folder, tmp_path):
    with label_page(folder, tmp_path) as page:
        path, label = first_label(folder, page)
        count = len(label["tiles"])
        x1, y1, x2, y2 = label["tiles"][3]["box"]
        page.mouse.click(*to_page(page, label, (x1 + x2) / 2, (y1 + y2) / 2))
        page.keyboard.press("Delete")
        wait_saved(page)
        tiles = json.loads(path.read_text())["tiles"]
        assert len(tiles) == count - 1 and [x1, y1, x2, y2] not in [t["box"] for t in tiles]

        def after(action):
            action()
            wait_saved(page)
            saved = json.loads(path.read_text())
            # what the file holds is what the page shows
            assert saved["tiles"] == page.evaluate("label.tiles")
            return saved["tiles"]

        tiles = after(lambda: page.keyboard.press("Control+z"))
        assert len(tiles) == count and tiles[3] == label["tiles"][3]
        assert page.inner_text("#selected").startswith("box 3:")
        tiles = after(lambda: page.keyboard.press("Control+Shift+z"))
        assert len(tiles) == count - 1 and tiles[3] == label["tiles"][4]
        tiles = after(lambda: page.click("#undo"))
        assert len(tiles) == count and tiles[3]["box"] == [x1, y1, x2, y2]
        tiles = after(lambda: page.keyboard.press("Control+y"))
        assert len(tiles) == count - 1
        tiles = after(lambda: page.click("#undo"))
        assert tiles == label["tiles"]
        # a move, undone: back where it was, saved
        page.mouse.click(*to_page(page, label, (x1 + x2) / 2, (y1 + y2) / 2))
        tiles = after(lambda: page.keyboard.press("ArrowDown"))
        assert tiles[3]["box"] == [x1, y1 + 2, x2, y2 + 2]
        tiles = after(lambda: page.click("#undo"))
        assert tiles == label["tiles"]
        tiles = after(lambda: page.click("#redo"))
        assert tiles[3]["box"] == [x1, y1 + 2, x2, y2 + 2]


@pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed")
def test_shift_tab_selects_the_previous_box(folder, tmp_path):
    with label_page(folder, tmp_path) as page:
        _, label = first_label(folder, page)
        x1, y1, x2, y2 = label["tiles"][5]["box"]
        page.mouse.click(*to_page(page, label, (x1 + x2) / 2, (y1 + y2) / 2))
        assert page.inner_text("#selected").startswith("box 5:")
        page.keyboard.press("Shift+Tab")
        assert page.inner_text("#selected").startswith("box 4:")
        page.keyboard.press("Shift+Tab")
        assert page.inner_text("#selected").startswith("box 3:")
        page.keyboard.press("Tab")
        assert page.inner_text("#selected").startswith("box 4:")
        page.keyboard.press("Escape")
        page.keyboard.press("Shift+Tab")
        last = len(label["tiles"]) - 1
        assert page.inner_text("#selected").startswith(f"box {last}:")


@pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed")
def test_notes_typed_are_saved_and_reload_and_keys_in_them_are_text(folder, tmp_path):
    with label_page(folder, tmp_path) as page:
        path, label = first_label(folder, page)
        x1, y1, x2, y2 = label["tiles"][2]["box"]
        page.mouse.click(*to_page(page, label, (x1 + x2) / 2, (y1 + y2) / 2))
        text = "Two tiles cut off; frn p\nsecond line"
        page.click("#notes")
        page.keyboard.type(text)
        page.keyboard.press("Control+z")  # the field's own undo, not the boxes'
        page.fill("#notes", text)
        page.keyboard.press("Tab")  # leaving the field saves it
        wait_saved(page)
        saved = json.loads(path.read_text())
        assert saved["notes"] == text
        # f, r, n, p typed into the notes did nothing to the box or the photo
        assert saved["tiles"] == label["tiles"]
        assert page.inner_text("#status") == f"saved {path.stem}.jpg"
        # a box edit and its undo keep the notes
        page.keyboard.press("f")
        wait_saved(page)
        assert json.loads(path.read_text())["tiles"][2]["face_down"] is True
        page.keyboard.press("Control+z")
        wait_saved(page)
        saved = json.loads(path.read_text())
        assert saved["tiles"] == label["tiles"] and saved["notes"] == text
        page.reload()
        page.wait_for_function("document.querySelector('#status').textContent.endsWith('.jpg')")
        assert page.input_value("#notes") == text


def test_every_place_that_lists_photos_takes_the_same_formats(tmp_path):
    """One list of photo formats (vision/labels.py): a TIFF the pipeline reads is a photo to the
    labelling page and to the folder camera too, and a text file is one to neither."""
    import cv2
    import numpy as np

    from device.camera.folder import FolderCamera

    for name in ("a.jpg", "b.tiff", "c.webp"):
        cv2.imwrite(str(tmp_path / name), np.full((40, 60, 3), 200, np.uint8))
    (tmp_path / "notes.txt").write_text("not a photo")
    store = LabelStore(tmp_path, tmp_path / "labels")
    assert store.photo_names() == ["a.jpg", "b.tiff", "c.webp"]
    camera = FolderCamera(tmp_path)
    names = []
    for _ in range(3):
        names.append(camera.current_path().name)
        camera.advance()
    assert sorted(names) == ["a.jpg", "b.tiff", "c.webp"]


@pytest.mark.skipif(not (REPO / "models" / "default.json").exists(), reason="no shipped models")
def test_a_large_photo_is_proposed_in_its_own_pixels(tmp_path):
    import cv2

    from device.label_web import create_label_app

    photos = tmp_path / "photos"
    photos.mkdir()
    photo = cv2.imread(str(EXAMPLES / "taiwan-pinghu.jpg"))  # 1600x1200
    cv2.imwrite(str(photos / "big.jpg"), cv2.resize(photo, (4800, 3600)))
    store = LabelStore(photos, tmp_path / "labels")
    with create_label_app(store, REPO / "models").test_client() as client:
        label = client.get("/api/photos/big.jpg/label").get_json()
    assert label["status"] == "proposed" and (label["width"], label["height"]) == (4800, 3600)
    truth = json.loads((EXAMPLES / "taiwan-pinghu.json").read_text())["tiles"]
    # Read at half size, the boxes come back in the photo's own pixels: on the tiles, times 3.
    lefts = sorted(t["box"][0] for t in label["tiles"])
    assert len(lefts) >= len(truth) - 1
    want = sorted(3 * t["box"][0] for t in truth)
    assert max(min(abs(x - w) for x in lefts) for w in want[1:-1]) < 60


def test_the_labelling_page_answers_every_error_in_json(folder):
    from device.label_web import create_label_app

    app = create_label_app(LabelStore(folder / "photos", folder / "labels"), None)
    with app.test_client() as client:
        for method, url, code in (
            ("get", "/api/nowhere", 404),
            ("delete", "/api/photos/taiwan-pinghu.jpg/label", 405),
            ("put", "/api/photos/nothing.jpg/label", 400),
        ):
            answer = getattr(client, method)(url, json={"tiles": []})
            assert answer.status_code == code and answer.is_json, (url, answer.data[:80])
            assert answer.get_json()["error"]


@pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed")
def test_a_broken_label_is_marked_in_the_list_with_its_error(folder, tmp_path):
    # It was listed "taiwan-pinghu.jpg (0)", as a photo nobody had labelled yet.
    (folder / "labels" / "taiwan-pinghu.json").write_text("{junk")
    other = folder / "labels" / "taiwan-melds.json"  # not done yet: Done marks it in the list
    other.write_text(json.dumps(json.loads(other.read_text()) | {"status": "proposed"}))
    with label_page(folder, tmp_path) as page:
        item = page.locator("#photo-list li[data-image='taiwan-pinghu.jpg']")
        assert item.inner_text() == "taiwan-pinghu.jpg (broken label)"
        assert "broken" in item.get_attribute("class")
        assert "taiwan-pinghu.json is not valid JSON" in item.get_attribute("title")
        fine = page.locator("#photo-list li[data-image='taiwan-melds.jpg']")
        assert fine.get_attribute("title") is None and "broken" not in fine.get_attribute("class")
        # Done on the other photo does not move on to the broken one (it would not open).
        page.keyboard.press("Enter")
        page.wait_for_function(
            "document.querySelector(\"#photo-list li[data-image='taiwan-melds.jpg']\")"
            ".classList.contains('done')"
        )
        assert page.inner_text("#status") == "saved taiwan-melds.jpg"
    assert (folder / "labels" / "taiwan-pinghu.json").read_text() == "{junk"

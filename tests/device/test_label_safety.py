"""The labelling page and exports keep what a person labelled, from a helper's probe: a save from
an older read is refused, a label of a photo since replaced is said, boxes are checked as they
are written, a saved file keeps its mode, and only checked labels go into training exports."""

import json
import stat

import cv2
import numpy as np
import pytest

from device.cli import main
from device.label_web import create_label_app
from device.labels import LabelStore
from tests.device.real_labels import label_cmd, labelling_folder, one_line_error


@pytest.fixture
def folder(tmp_path):
    return labelling_folder(tmp_path)


def client(folder):
    return create_label_app(LabelStore(folder / "photos", folder / "labels"), None).test_client()


def url(name="IMG_3085.jpg"):
    return f"/api/photos/{name}/label"


def test_a_save_from_an_older_read_is_refused_not_written_over_a_newer_one(folder):
    # Two tabs on one photo: the second tab's save wrote the whole label back as it read it.
    page = client(folder)
    first, second = page.get(url()).get_json(), page.get(url()).get_json()
    assert first["version"] == second["version"]
    first["tiles"] = first["tiles"][1:]  # tab A deletes a box
    saved = page.put(url(), json=first)
    assert saved.status_code == 200 and saved.get_json()["version"] != second["version"]
    second["tiles"][0]["code"] = "9s"  # tab B, from its older read
    stale = page.put(url(), json=second)
    assert stale.status_code == 409 and "open the photo again" in stale.get_json()["error"]
    on_disk = json.loads((folder / "labels" / "IMG_3085.json").read_text())
    assert len(on_disk["tiles"]) == len(first["tiles"])  # A's delete stands
    # A save that names no version (a script) is written as before.
    assert (
        page.put(url(), json={k: v for k, v in second.items() if k != "version"}).status_code == 200
    )


def test_a_label_of_a_photo_since_replaced_is_said(folder, capsys):
    # A reused camera file name: the old boxes were drawn, exported and taught on other pixels.
    cv2.imwrite(str(folder / "photos" / "IMG_3085.jpg"), np.full((512, 384, 3), 90, np.uint8))
    answer = client(folder).get(url())
    assert answer.status_code == 400 and "is of a 1536x2048 photo" in answer.get_json()["error"]
    out = folder / "yolo"
    assert main(label_cmd(folder, "--export", "yolo", "--out", out)) == 2
    one_line_error(capsys, "IMG_3085.jpg is 384x512", "replaced or resized")
    assert not out.exists()


def test_a_box_too_thin_to_write_is_refused(folder):
    # Rounded to a tenth of a pixel it had no width, and the file could not be read back.
    label = client(folder).get(url()).get_json()
    label["tiles"][0]["box"] = [1.0, 1.0, 1.04, 4.0]
    answer = client(folder).put(url(), json=label)
    assert answer.status_code == 400 and "thinner than a tenth" in answer.get_json()["error"]
    assert client(folder).get(url()).status_code == 200


def test_a_saved_label_keeps_its_files_mode(folder):
    # mkstemp made every saved label 0600: the service reading it as another user could not.
    path = folder / "labels" / "IMG_3085.json"
    path.chmod(0o644)
    page = client(folder)
    assert page.put(url(), json=page.get(url()).get_json()).status_code == 200
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    fresh = folder / "photos" / "new.jpg"
    cv2.imwrite(str(fresh), np.full((20, 20, 3), 90, np.uint8))
    label = {"width": 20, "height": 20, "status": "done", "tiles": []}
    assert page.put(url("new.jpg"), json=label).status_code == 200
    assert stat.S_IMODE((folder / "labels" / "new.json").stat().st_mode) == 0o644


def test_what_the_page_cannot_show_or_open(folder):
    cv2.imwrite(str(folder / "photos" / "scan.tif"), np.full((20, 30, 3), 90, np.uint8))
    (folder / "photos" / "album.jpg").mkdir()  # a folder with a photo's name is no photo
    page = client(folder)
    names = [p["image"] for p in page.get("/api/photos").get_json()["photos"]]
    assert "album.jpg" not in names and "scan.tif" in names
    shown = page.get("/api/photos/scan.tif/image")
    assert shown.mimetype == "image/png"  # no browser shows a TIFF
    assert cv2.imdecode(np.frombuffer(shown.data, np.uint8), 1).shape == (20, 30, 3)


def test_training_exports_leave_out_the_models_proposals(folder, capsys):
    # Opening a photo writes the models' proposal: browsed photos went into the training sets.
    for suffix in (".jpg", ".json"):  # a third photo: an export takes two done at least
        where = "photos" if suffix == ".jpg" else "labels"
        (folder / where / f"IMG_3087{suffix}").write_bytes(
            (folder / where / f"IMG_3085{suffix}").read_bytes()
        )
    path = folder / "labels" / "IMG_3086.json"
    path.write_text(json.dumps(json.loads(path.read_text()) | {"status": "proposed"}))
    out = folder / "yolo"
    assert main(label_cmd(folder, "--export", "yolo", "--out", out)) == 0
    assert "left out 1 label(s) nobody marked done" in capsys.readouterr().err
    exported = sorted(p.stem for p in out.rglob("*.txt"))
    assert exported == ["IMG_3085", "IMG_3087"]


def test_from_refuses_a_box_nobody_named_in_either_split(folder):
    # In a held-out photo it stopped the run; in a training one it was dropped without a word.
    from vision.labels import LabelError
    from vision.training.finetune import collect_labels

    for name in ("IMG_3085", "IMG_3086"):
        path = folder / "labels" / f"{name}.json"
        label = json.loads(path.read_text())
        label["tiles"].append({"code": None, "box": [10, 10, 100, 100], "face_down": False})
        path.write_text(json.dumps(label))
        with pytest.raises(LabelError, match="has no code and is not face down"):
            collect_labels(folder / "labels", folder / "photos", min_held_out=0)
        label["tiles"].pop()
        path.write_text(json.dumps(label))

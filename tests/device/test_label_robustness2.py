"""More bad input to the labelling commands and page: exports that would write over what the
user saved, request bodies that crashed the page, --port, a labels folder that cannot be one,
labels that the page took but evaluate refused, and Label Studio results imported in part."""

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from device import labels as device_labels
from device.cli import main
from device.label_web import create_label_app
from device.labels import LabelStore, validate_label
from tests.cli_run import tilescore
from tests.device.real_labels import REAL, label_cmd, labelling_folder, one_line_error
from vision.labels import LabelError, load_label

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def folder(tmp_path):
    return labelling_folder(tmp_path)


def everything(folder):
    return {
        p.relative_to(folder): p.read_bytes()
        for sub in ("photos", "labels")
        for p in sorted((folder / sub).rglob("*"))
        if p.is_file()
    }


def client(folder):
    return create_label_app(LabelStore(folder / "photos", folder / "labels"), None).test_client()


def put(folder, body, name="IMG_3086.jpg"):
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client(folder).put(
        f"/api/photos/{name}/label", data=data, content_type="application/json"
    )


def rectangle(label="1m", original=(1536, 2048), **value):
    box = {"x": 10, "y": 10, "width": 20, "height": 20} | value
    return {
        "type": "rectanglelabels",
        "original_width": original[0],
        "original_height": original[1],
        "value": box | {"rectanglelabels": [label]},
    }


def write_import(tmp_path, *results, name="IMG_3085"):
    path = tmp_path / "import.json"
    tasks = [{"data": {"image": f"{name}.jpg"}, "annotations": [{"result": list(results)}]}]
    path.write_text(json.dumps(tasks))
    return path


# --- 1. an export never writes over a label or a photo --------------------------------------


@pytest.mark.parametrize(
    ("kind", "where"),
    [
        ("labelstudio", "labels/IMG_3085.json"),  # was: the label replaced by the export list
        ("labelstudio", "photos/IMG_3085.jpg"),  # was: JSON written over the photo
        ("labelstudio", "labels/new.json"),
        ("labelstudio", "photos/labels.json"),
        ("yolo", "labels"),
        ("yolo", "photos"),
        ("crops", "photos/crops"),
        ("crops", "labels/sub"),
    ],
)
def test_an_export_into_the_photo_or_labels_folder_is_refused(folder, capsys, kind, where):
    before = everything(folder)
    out = folder / where
    assert main(label_cmd(folder, "--export", kind, "--out", out)) == 2
    one_line_error(capsys, out, "folder")
    assert everything(folder) == before


def test_an_export_through_a_relative_path_or_a_link_is_found(folder, capsys, monkeypatch):
    before = everything(folder)
    (folder / "link").symlink_to(folder / "labels")
    monkeypatch.chdir(folder / "photos")
    for out in ("../labels/IMG_3086.json", str(folder / "link" / "IMG_3086.json")):
        assert main(label_cmd(folder, "--export", "labelstudio", "--out", out)) == 2
        one_line_error(capsys, "labels folder")
    assert everything(folder) == before


@pytest.mark.parametrize("kind", ["yolo", "crops"])
def test_an_export_into_a_folder_with_files_in_it_is_refused(folder, tmp_path, capsys, kind):
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.txt").write_text("from before")
    assert main(label_cmd(folder, "--export", kind, "--out", out)) == 2
    one_line_error(capsys, out, "not empty")
    assert [p.name for p in out.iterdir()] == ["old.txt"]
    # A new folder, or an empty one, is written as before.
    (out / "old.txt").unlink()
    assert main(label_cmd(folder, "--export", kind, "--out", out)) == 0
    assert main(label_cmd(folder, "--export", kind, "--out", tmp_path / "new")) == 0


# --- 2. request bodies the page crashed on --------------------------------------------------


def test_a_deeply_nested_body_is_a_400_not_a_500(folder):
    before = everything(folder)
    response = put(folder, "[" * 50000)
    assert response.status_code == 400, response.data
    assert "nested too deeply" in response.get_json()["error"]
    assert everything(folder) == before


@pytest.mark.parametrize(
    ("body", "says"),
    [("[1]", "not a label file"), ('"x"', "not a label file"), ("{", "not valid JSON")],
)
def test_a_body_that_is_no_label_object_is_a_400(folder, body, says):
    response = put(folder, body)
    assert response.status_code == 400 and says in response.get_json()["error"]


def test_a_body_over_a_megabyte_is_a_413_in_json(folder):
    before = everything(folder)
    tiles = [{"code": "1m", "box": [0, 0, 10, 10]}] * 40000
    response = put(folder, {"tiles": tiles, "width": 1536, "height": 2048})
    assert response.status_code == 413 and "error" in response.get_json()
    assert everything(folder) == before


# --- 3. --port ------------------------------------------------------------------------------


@pytest.mark.parametrize("port", ["-1", "70000", "eighty"])
def test_a_port_out_of_range_is_refused_in_one_line(folder, port):
    run = tilescore(*label_cmd(folder, "--port", port), timeout=60)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert "is not a number from 0 to 65535" in run.stderr


def test_a_port_in_use_is_one_line(folder, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(label_cmd(folder, "--port", port)) == 2
    one_line_error(capsys, f"cannot listen on port {port}")


def test_port_0_prints_the_port_taken(folder):
    server = subprocess.Popen(
        [sys.executable, "-m", "device.cli", *label_cmd(folder, "--port", "0")],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert "http://localhost:" in line and ":0/" not in line, line
        port = int(line.rsplit(":", 1)[1].strip(" /\n"))
        for _ in range(50):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        else:
            pytest.fail(f"nothing listens on the port printed: {line}")
    finally:
        server.kill()
        server.communicate(timeout=30)


# --- 4. a labels folder that cannot be one --------------------------------------------------


@pytest.mark.parametrize("command", [["--report"], ["--import", "x.json"]])
def test_labels_given_as_a_file_is_one_line_and_the_file_is_kept(tmp_path, capsys, command):
    photos, not_a_folder = tmp_path / "photos", tmp_path / "passwd"
    photos.mkdir()
    not_a_folder.write_text("root:x:0:0")
    assert main(["label", str(photos), "--labels", str(not_a_folder), *command]) == 2
    one_line_error(capsys, not_a_folder, "is a file")
    assert not_a_folder.read_text() == "root:x:0:0"


def test_a_labels_folder_that_cannot_be_made_is_one_line(tmp_path, capsys):
    (tmp_path / "photos").mkdir()
    (tmp_path / "file").write_text("")
    labels = tmp_path / "file" / "labels"
    assert main(["label", str(tmp_path / "photos"), "--labels", str(labels), "--import", "x"]) == 2
    one_line_error(capsys, labels, "cannot make the labels folder")


def test_a_report_or_an_export_of_a_labels_folder_not_there_says_so(tmp_path, capsys):
    # A report made the folder it was given and counted nothing in it: "0 photos, 0 tiles".
    (tmp_path / "photos").mkdir()
    labels = tmp_path / "typo"
    for asked in (["--report"], ["--export", "yolo", "--out", str(tmp_path / "out")]):
        assert main(["label", str(tmp_path / "photos"), "--labels", str(labels), *asked]) == 2
        one_line_error(capsys, labels, "does not exist")
        assert not labels.exists()


def test_out_without_export_and_a_photo_for_a_folder_are_one_line(tmp_path, capsys):
    (tmp_path / "photos").mkdir()
    assert main(["label", str(tmp_path / "photos"), "--out", str(tmp_path / "out")]) == 2
    one_line_error(capsys, "--out is where --export writes")
    photo = tmp_path / "a.jpg"
    photo.write_bytes(b"")
    assert main(["label", str(photo), "--report"]) == 2
    one_line_error(capsys, "is a file, not a folder")


def test_an_import_into_a_read_only_labels_folder_is_one_line(
    folder, tmp_path, capsys, monkeypatch
):
    def read_only(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    # As root the test cannot make a folder read-only: the atomic write's temp file fails so.
    monkeypatch.setattr(device_labels.tempfile, "mkstemp", read_only)
    before = everything(folder)
    path = write_import(tmp_path, rectangle())
    assert main(label_cmd(folder, "--import", path)) == 2
    one_line_error(capsys, folder / "labels", "Permission denied", "0 of 1 labels imported")
    # The labels as they were; the copy of the one it meant to replace is kept aside too.
    kept = {k: v for k, v in everything(folder).items() if ".replaced" not in k.parts}
    assert kept == before


# --- 5. labels every reader takes, or none --------------------------------------------------


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"x": 150}, "x 150 is not a percentage"),
        ({"y": -40}, "y -40 is not a percentage"),
        ({"width": 300}, "width 300 is not a percentage"),
        ({"x": 90, "width": 50}, "off the 1536x2048 photo"),
    ],
)
def test_an_import_with_a_box_off_the_photo_is_refused(folder, tmp_path, capsys, change, says):
    before = everything(folder)
    path = write_import(tmp_path, rectangle(**change))
    assert main(label_cmd(folder, "--import", path)) == 2
    one_line_error(capsys, path, says)
    assert everything(folder) == before


@pytest.mark.parametrize(
    ("label", "says"),
    [
        ({"box": [2000, 0, 2100, 100]}, "off the 1536x2048 photo"),  # wholly right of it
        ({"box": [-300, -300, -100, -100]}, "off the 1536x2048 photo"),
        ({"box": [0, 0, 1e308, 1e308]}, "off the 1536x2048 photo"),
        ({"box": [-200, 0, 100, 100]}, "off the 1536x2048 photo"),  # far past the edge
        # no size given: the photo's own (it was written as 0, and no box was checked)
        ({"box": [0, 0, 1e308, 1e308], "size": None}, "off the 1536x2048 photo"),
        ({"box": [0, 0, 10, 10], "width": 1e30}, "more than 100000 pixels"),
        ({"box": [0, 0, 10, 10], "width": 100001}, "more than 100000 pixels"),
    ],
)
def test_the_page_refuses_a_box_off_the_photo_or_a_size_past_any_camera(folder, label, says):
    before = everything(folder)
    size = {} if "size" in label else {"width": label.get("width", 1536), "height": 2048}
    body = size | {"tiles": [{"code": "1m", "box": label["box"]}]}
    response = put(folder, body)
    assert response.status_code == 400, response.get_json()
    assert says in response.get_json()["error"]
    assert everything(folder) == before


def test_a_box_cut_by_the_edge_of_the_photo_is_kept(folder):
    body = {"width": 1536, "height": 2048, "tiles": [{"code": "1m", "box": [-20, 1990, 60, 2090]}]}
    response = put(folder, body)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["tiles"][0]["box"] == [-20, 1990, 60, 2090]


def test_a_face_up_tile_with_no_code_opens_to_be_named_and_the_metrics_refuse_it(folder, capsys):
    # The page saved a box drawn before its code was typed so, before it saved them as "other":
    # such a label must still open to be named, and no metric may count it as read.
    path = folder / "labels" / "IMG_3086.json"
    label = json.loads(path.read_text())
    label["tiles"][0] |= {"code": None, "face_down": False}
    path.write_text(json.dumps(label))
    assert main(label_cmd(folder, "--report")) == 0
    capsys.readouterr()
    with pytest.raises(LabelError, match="tile 1 has no code and is not face down"):
        load_label(path)  # evaluate and train --from read it so


def test_a_box_drawn_on_the_page_before_its_code_is_typed_is_kept_and_the_metrics_refuse_it(
    folder,
):
    """The page saves a box the moment it is drawn, with no code yet: it is kept (a refusal
    would take the box off the page), and until it is named no metric counts the label."""
    label = json.loads((folder / "labels" / "IMG_3086.json").read_text())
    drawn = {"code": None, "box": [10, 10, 60, 90], "face_down": False, "rotated": False}
    response = put(folder, label | {"tiles": [*label["tiles"], drawn]})
    assert response.status_code == 200
    assert response.get_json()["tiles"][-1] == drawn
    with pytest.raises(LabelError, match="has no code and is not face down"):
        load_label(folder / "labels" / "IMG_3086.json")


def test_a_tile_with_no_code_and_no_face_down_is_written_as_the_back_evaluate_reads(folder):
    clean = validate_label("x.jpg", {"tiles": [{"code": None, "box": [0, 0, 5, 5]}]})
    assert clean["tiles"][0]["face_down"] is True
    path = folder / "labels" / "IMG_3086.json"
    path.write_text(json.dumps(clean))
    assert load_label(path).tiles[0].face_down


def test_every_real_label_still_passes(folder):
    for path in sorted(REAL.glob("*.json")):
        label = json.loads(path.read_text())
        assert validate_label(label["image"], label) == label, path.name


# --- 6. what an import does not take is said ------------------------------------------------


def test_a_polygon_is_counted_and_said_not_dropped_in_silence(folder, tmp_path, capsys):
    polygon = {
        "type": "polygonlabels",
        "original_width": 1536,
        "original_height": 2048,
        "value": {"points": [[1, 1], [5, 1], [5, 5]], "polygonlabels": ["2m"]},
    }
    choice = {"type": "choices", "value": {"choices": ["blurred"]}}
    path = write_import(tmp_path, rectangle(), polygon, choice)
    assert main(label_cmd(folder, "--import", path)) == 0
    out = capsys.readouterr()
    assert json.loads(out.out) | {"copies": None} == {
        "imported": 1,
        "skipped": 0,
        "dropped": 1,
        "replaced": 1,
        "copies": None,
    }
    assert "IMG_3085.jpg: 1 region(s) not imported" in out.err
    assert len(json.loads((folder / "labels" / "IMG_3085.json").read_text())["tiles"]) == 1


def test_a_turned_rectangle_comes_in_upright_and_is_said(folder, tmp_path, capsys):
    # 10% x 5% of the 1536 x 2048 photo at (50%, 50%), turned 90 degrees clockwise about its
    # top-left corner (768, 1024): upright, it covers 102.4 pixels left of that corner (5% of
    # 2048) and 153.6 below it (10% of 1536).
    path = write_import(
        tmp_path, rectangle(original=(1536, 2048), x=50, y=50, width=10, height=5, rotation=90)
    )
    assert main(label_cmd(folder, "--import", path)) == 0
    assert "1 turned box(es) imported as the upright box" in capsys.readouterr().err
    box = json.loads((folder / "labels" / "IMG_3085.json").read_text())["tiles"][0]["box"]
    assert box == [665.6, 1024, 768, 1177.6]


def test_a_rotation_that_is_no_number_is_refused(folder, tmp_path, capsys):
    path = write_import(tmp_path, rectangle(rotation="45"))
    assert main(label_cmd(folder, "--import", path)) == 2
    one_line_error(capsys, path, "rotation must be a finite number")


def test_an_unnamed_box_goes_through_label_studio_still_unnamed(folder, tmp_path, capsys):
    # It went out as "other" and came back so: a tile the metrics leave aside, not one they
    # stop on until it is named.
    label = json.loads((folder / "labels" / "IMG_3086.json").read_text())
    drawn = {"code": None, "box": [10, 10, 60, 90], "face_down": False, "rotated": False}
    assert put(folder, label | {"tiles": [*label["tiles"], drawn]}).status_code == 200
    assert main(label_cmd(folder, "--report", "--json")) == 0
    assert json.loads(capsys.readouterr().out)["per_class"]["unnamed"] == 1
    out = tmp_path / "ls.json"
    assert main(label_cmd(folder, "--export", "labelstudio", "--out", out)) == 0
    assert main(label_cmd(folder, "--import", out)) == 0
    back = json.loads((folder / "labels" / "IMG_3086.json").read_text())["tiles"][-1]
    assert back["code"] is None and back["face_down"] is False
    with pytest.raises(LabelError, match="has no code and is not face down"):
        load_label(folder / "labels" / "IMG_3086.json")

"""Bad input to the labelling commands and page: one-line errors naming the file, nothing half
written, and a Label Studio round trip that gives back the labels it took out."""

import json
import shutil
from pathlib import Path

import pytest

from datasets import label_export
from device.cli import main
from device.label_web import create_label_app
from device.labels import LabelStore
from tests.cli_run import tilescore
from tests.device.real_labels import REAL, label_cmd, labelling_folder, one_line_error
from vision.labels import LabelError, load_label

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def folder(tmp_path):
    return labelling_folder(tmp_path)


def files(folder):
    return {p.name: p.read_bytes() for p in sorted((folder / "labels").iterdir())}


def task(name, label="1m", **value):
    box = {"x": 10, "y": 10, "width": 20, "height": 20} | value
    result = {"original_width": 1536, "original_height": 2048, "type": "rectanglelabels"}
    result["value"] = box | {"rectanglelabels": [label]}
    return {"data": {"image": f"{name}.jpg"}, "annotations": [{"result": [result]}]}


def write_import(tmp_path, tasks):
    path = tmp_path / "import.json"
    path.write_text(tasks if isinstance(tasks, str) else json.dumps(tasks))
    return path


# --- 1. the round trip --------------------------------------------------------------------


def test_a_label_studio_round_trip_keeps_notes_tile_set_and_status(folder, tmp_path, capsys):
    proposed = folder / "labels" / "IMG_3086.json"
    label = json.loads(proposed.read_text())
    proposed.write_text(json.dumps(label | {"status": "proposed"}, ensure_ascii=False, indent=1))
    before = files(folder)
    out = tmp_path / "ls.json"
    assert main(label_cmd(folder, "--export", "labelstudio", "--out", out)) == 0
    tasks = {Path(t["data"]["image"]).stem: t for t in json.loads(out.read_text())}
    # Nobody checked the proposed label: it goes out as a pre-annotation to correct there.
    assert set(tasks["IMG_3086"]) == {"data", "predictions"}
    assert set(tasks["IMG_3085"]) == {"data", "annotations"}
    assert main(label_cmd(folder, "--import", out)) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == {
        "imported": 1,
        "skipped": 1,
        "dropped": 0,
        "replaced": 0,  # the same label: nothing written, nothing copied aside
        "copies": None,
    }
    assert files(folder) == before  # byte for byte: notes, tile set, status, boxes
    # Into a fresh folder too: the task itself carries what the label had.
    shutil.rmtree(folder / "labels")
    assert main(label_cmd(folder, "--import", out)) == 0
    again = json.loads((folder / "labels" / "IMG_3085.json").read_text())
    checked = json.loads(before["IMG_3085.json"])
    assert again == checked  # notes, tile set, size, status and tiles
    assert not proposed.exists()  # only pre-annotated: nothing a person submitted
    # Corrected and submitted in Label Studio, the proposed label comes back done.
    tasks["IMG_3086"]["annotations"] = tasks["IMG_3086"].pop("predictions")
    assert main(label_cmd(folder, "--import", write_import(tmp_path, list(tasks.values())))) == 0
    again = json.loads(proposed.read_text())
    assert again["status"] == "done" and again["notes"] == label["notes"]
    assert again["tile_set"] == label["tile_set"] and again["tiles"] == label["tiles"]


def test_an_import_keeps_what_the_task_does_not_say_and_marks_new_labels_done(folder, tmp_path):
    path = folder / "labels" / "IMG_3085.json"
    old = json.loads(path.read_text())
    assert main(label_cmd(folder, "--import", write_import(tmp_path, [task("IMG_3085")]))) == 0
    new = json.loads(path.read_text())
    assert new["tiles"][0]["code"] == "1m" and len(new["tiles"]) == 1
    assert (new["notes"], new["tile_set"], new["status"]) == (old["notes"], old["tile_set"], "done")
    (folder / "labels" / "IMG_3086.json").unlink()
    assert main(label_cmd(folder, "--import", write_import(tmp_path, [task("IMG_3086")]))) == 0
    made = json.loads((folder / "labels" / "IMG_3086.json").read_text())
    assert made["status"] == "done" and "notes" not in made  # drawn in Label Studio: checked


# --- 2. a task without annotations ----------------------------------------------------------


@pytest.mark.parametrize("annotations", [None, [], [{"result": [], "was_cancelled": True}]])
def test_a_task_without_annotations_is_skipped_not_emptied(folder, tmp_path, capsys, annotations):
    before = files(folder)
    bare = {"data": {"image": "IMG_3085.jpg"}}
    if annotations is not None:
        bare["annotations"] = annotations
    assert main(label_cmd(folder, "--import", write_import(tmp_path, [bare]))) == 0
    out = capsys.readouterr()
    assert json.loads(out.out) == {
        "imported": 0,
        "skipped": 1,
        "dropped": 0,
        "replaced": 0,
        "copies": None,
    }
    assert "skipped IMG_3085.jpg" in out.err
    assert files(folder) == before


def test_an_annotation_with_no_boxes_empties_a_label_only_when_allowed(folder, tmp_path, capsys):
    # It was written, and only then said in a warning.
    empty = {"data": {"image": "IMG_3085.jpg"}, "annotations": [{"result": []}]}
    path = write_import(tmp_path, [task("IMG_3086"), empty])
    before = files(folder)
    assert main(label_cmd(folder, "--import", path)) == 2
    one_line_error(capsys, path, "no tiles in the label of IMG_3085.jpg (", "--allow-empty")
    assert files(folder) == before  # nor the other task's label
    assert main(label_cmd(folder, "--import", path, "--allow-empty")) == 0
    assert "IMG_3085.jpg is imported with no tiles" in capsys.readouterr().err
    assert json.loads((folder / "labels" / "IMG_3085.json").read_text())["tiles"] == []
    kept = next((folder / "labels" / ".replaced").iterdir())
    assert (kept / "IMG_3085.json").read_bytes() == before["IMG_3085.json"]


# --- 3. all or nothing ----------------------------------------------------------------------


def test_a_bad_task_leaves_every_label_as_it_was(folder, tmp_path, capsys):
    before = files(folder)
    path = write_import(tmp_path, [task("IMG_3085"), task("IMG_3086", "9z")])
    assert main(label_cmd(folder, "--import", path)) == 2
    one_line_error(capsys, path, "IMG_3086.jpg", "unknown tile code '9z'")
    assert files(folder) == before  # the good first task was not written either


# --- 4. numbers that are not numbers --------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "raw"),
    [("x", "NaN"), ("width", "Infinity"), ("y", "1e400"), ("x", '"ten"'), ("height", "true")],
)
def test_an_import_with_a_box_value_that_is_no_number_fails(folder, tmp_path, capsys, key, raw):
    before = files(folder)
    text = json.dumps([task("IMG_3085", **{key: "@"})]).replace('"@"', raw)
    path = write_import(tmp_path, text)
    assert main(label_cmd(folder, "--import", path)) == 2
    if raw in ("NaN", "Infinity"):  # no JSON number at all: the file is not JSON
        one_line_error(capsys, path, f"is not valid JSON: {raw} is not a JSON number")
    else:
        one_line_error(capsys, path, "task 1 (IMG_3085.jpg)", "finite numbers")
    assert files(folder) == before


@pytest.mark.parametrize(
    "body",
    [
        '{"tiles": [{"code": "1m", "box": [NaN, 0, 10, 10]}]}',
        '{"tiles": [{"code": "1m", "box": [0, 0, Infinity, 10]}]}',
        '{"tiles": [{"code": "1m", "box": [0, 0, 1e400, 10]}]}',
        '{"tiles": [], "width": "wide"}',
        '{"tiles": [], "width": 1e400}',
        '{"tiles": [], "height": NaN}',
        '{"tiles": [{"code": "1m", "box": [0, 0, 10, 10], "rotated": "no"}]}',
        '{"tiles": [{"code": 5, "box": [0, 0, 10, 10]}]}',
        '{"tiles": [], "tile_set": 4}',
    ],
)
def test_the_page_refuses_a_label_with_no_number_or_a_wrong_kind_as_json(folder, body):
    before = files(folder)
    client = create_label_app(LabelStore(folder / "photos", folder / "labels"), None).test_client()
    response = client.put(
        "/api/photos/IMG_3086.jpg/label", data=body, content_type="application/json"
    )
    assert response.status_code == 400 and "\n" not in response.get_json()["error"]
    assert files(folder) == before


# --- 5. junk to import ----------------------------------------------------------------------

JUNK = {
    "an object": ('{"a": 1}', "a JSON list of tasks"),
    "numbers": ("[1, 2]", "task 1 is not an object"),
    "no data": ('[{"annotations": []}]', "task 1 has no data.image"),
    "no image": ('[{"data": {}}]', "task 1 has no data.image"),
    "no result": (
        '[{"data": {"image": "IMG_3085.jpg"}, "annotations": [{}]}]',
        "has no result list",
    ),
    "annotations not a list": (
        '[{"data": {"image": "IMG_3085.jpg"}, "annotations": {"result": []}}]',
        "annotations must be a list",
    ),
    "no label": (
        json.dumps([task("IMG_3085")]).replace('["1m"]', "[]"),
        "rectanglelabels must name one label",
    ),
    "no value": (
        '[{"data": {"image": "IMG_3085.jpg"}, "annotations": [{"result": [{}]}]}]',
        "result 1: no value",
    ),
    "two tasks, one photo": (json.dumps([task("IMG_3085"), task("IMG_3085")]), "a second task"),
    "no such photo": (json.dumps([task("IMG_9999")]), "no photo named 'IMG_9999.jpg'"),
    "a tile set that is a number": (
        json.dumps([task("IMG_3085")]).replace('"data": {', '"data": {"tile_set": 4, '),
        "tile_set must be text",
    ),
    "not JSON": ("[{", "not valid JSON"),
}


@pytest.mark.parametrize("case", JUNK)
def test_junk_to_import_is_one_line_naming_the_file(folder, tmp_path, capsys, case):
    text, says = JUNK[case]
    before = files(folder)
    path = write_import(tmp_path, text)
    assert main(label_cmd(folder, "--import", path)) == 2
    one_line_error(capsys, path, says)
    assert files(folder) == before


def test_an_import_file_that_is_not_text_missing_or_a_folder(folder, tmp_path, capsys):
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe[\x00")
    for bad, says in (
        (path, "not UTF-8"),
        (tmp_path / "nope.json", "No such file"),
        (tmp_path, "Is a directory"),
    ):
        assert main(label_cmd(folder, "--import", bad)) == 2
        one_line_error(capsys, bad, says)


# --- 6. broken label files ------------------------------------------------------------------

BROKEN = {
    "not JSON": (b"{junk", "not valid JSON"),
    "a list": (b"[1]", "not a label file"),
    "tiles as text": (b'{"tiles": "abc"}', "not a label file"),
    "not UTF-8": (b'\xff{"tiles": []}', "not UTF-8"),
    "a tile not an object": (b'{"tiles": [1]}', "tile 1 is not an object"),
    "a code not text": (b'{"tiles": [{"code": 5, "box": [0, 0, 9, 9]}]}', "code must be text"),
    "three numbers": (b'{"tiles": [{"code": "1m", "box": [0, 0, 9]}]}', "tile 1 has a bad box"),
    "a NaN box": (b'{"tiles": [{"code": "1m", "box": [0, 0, NaN, 9]}]}', "NaN"),
    "an infinite box": (b'{"tiles": [{"code": "1m", "box": [0, 0, 1e400, 9]}]}', "bad box"),
    "a tile set not text": (b'{"tiles": [], "tile_set": 3}', "tile_set must be text"),
    "yes for true": (
        b'{"tiles": [{"code": "1m", "box": [0, 0, 9, 9], "face_down": "yes"}]}',
        "face_down must be true or false",
    ),
    "sideways as 1": (
        b'{"tiles": [{"code": "1m", "box": [0, 0, 9, 9], "rotated": 1}]}',
        "rotated must be true or false",
    ),
    "an unknown code": (
        b'{"tiles": [{"code": "9z", "box": [0, 0, 9, 9]}]}',
        "unknown tile code '9z'",
    ),
    "a width that is text": (b'{"tiles": [], "width": "w"}', "width must be a whole number"),
    "an unknown status": (b'{"tiles": [], "status": "finished"}', "status 'finished'"),
}


@pytest.mark.parametrize("case", BROKEN)
@pytest.mark.parametrize("command", [["--report"], ["--export", "labelstudio"]])
def test_a_broken_label_file_is_one_line_naming_it(folder, tmp_path, capsys, case, command):
    content, says = BROKEN[case]
    broken = folder / "labels" / "IMG_3086.json"
    broken.write_bytes(content)
    out = ["--out", tmp_path / "ls.json"] if "--export" in command else []
    assert main(label_cmd(folder, *command, *out)) == 2
    one_line_error(capsys, broken, says)
    assert not (tmp_path / "ls.json").exists()
    # evaluate and train --from read labels through the same checks
    with pytest.raises(LabelError, match=r"IMG_3086\.json(: | is )"):
        load_label(broken)
    with pytest.raises(LabelError, match=r"IMG_3086\.json(: | is )"):
        LabelStore(folder / "photos", folder / "labels").load("IMG_3086.jpg")


def test_the_page_lists_a_broken_label_and_opens_the_others(folder):
    (folder / "labels" / "IMG_3086.json").write_text("{junk")
    client = create_label_app(LabelStore(folder / "photos", folder / "labels"), None).test_client()
    listed = {p["image"]: p for p in client.get("/api/photos").get_json()["photos"]}
    assert listed["IMG_3085.jpg"]["status"] == "done"
    assert listed["IMG_3086.jpg"]["status"] == "broken"
    assert "IMG_3086.json is not valid JSON" in listed["IMG_3086.jpg"]["error"]
    response = client.get("/api/photos/IMG_3086.jpg/label")
    assert response.status_code == 400 and "IMG_3086.json" in response.get_json()["error"]
    assert (folder / "labels" / "IMG_3086.json").read_text() == "{junk"  # not proposed over


def test_every_real_label_passes_the_checks():
    for path in sorted(REAL.glob("*.json")):
        assert load_label(path).tiles


# --- 7. where exports go --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "where", "says"),
    [
        ("labelstudio", "folder", "is a folder"),
        ("labelstudio", "nowhere/x.json", "there is no folder"),
        ("yolo", "file", "is a file"),
        ("crops", "file", "is a file"),
        ("crops", "file/sub", "Not a directory"),
    ],
)
def test_an_export_to_a_wrong_place_is_one_line(folder, tmp_path, capsys, kind, where, says):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("in the way")
    out = tmp_path / where
    assert main(label_cmd(folder, "--export", kind, "--out", out)) == 2
    one_line_error(capsys, out, says)
    assert (tmp_path / "file").read_text() == "in the way"


def test_the_real_command_prints_no_traceback(folder, tmp_path):
    """As a user runs it: the error line, exit 2, and nothing else."""
    (folder / "labels" / "IMG_3086.json").write_text('{"tiles": [{"code": "1m", "box": "x"}]}')
    run = tilescore(*label_cmd(folder, "--report"))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("error: ") and run.stderr.count("\n") == 1, run.stderr
    assert "IMG_3086.json: tile 1 has a bad box" in run.stderr


def test_label_studio_tasks_carry_the_photo_size_when_the_label_has_none(folder):
    photo = folder / "photos" / "IMG_3085.jpg"
    label = {"tiles": [{"code": "1m", "box": [0, 0, 768, 1024]}]}  # hand-made: no width, height
    (result,) = label_export.to_label_studio([(photo, label)])[0]["annotations"][0]["result"]
    assert (result["original_width"], result["original_height"]) == (1536, 2048)
    assert (result["value"]["width"], result["value"]["height"]) == (50, 50)

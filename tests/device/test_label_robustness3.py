"""A tester's findings in `tilescore label`: hand-made labels without a size or a status, a page
save without a size, imports that wrote over a person's labels, Label Studio names and sizes,
a yolo export with nothing to validate on, and flags that cannot go together."""

import json
from pathlib import Path

import pytest

from datasets.label_export import match_photo, split_of, split_photos
from device.cli import main
from device.label_web import create_label_app
from device.labels import LabelStore
from tests.device.real_labels import label_cmd, labelling_folder, one_line_error
from vision.training.finetune import collect_labels

HAND_MADE = {"tiles": [{"code": "1m", "box": [100, 100, 200, 200]}]}


@pytest.fixture
def folder(tmp_path):
    return labelling_folder(tmp_path)


def client(folder):
    return create_label_app(LabelStore(folder / "photos", folder / "labels"), None).test_client()


def url(name="IMG_3086.jpg"):
    return f"/api/photos/{name}/label"


def hand_made(folder, label=HAND_MADE, name="IMG_3086"):
    path = folder / "labels" / f"{name}.json"
    path.write_text(json.dumps(label))
    return path


# --- a label without a size is of its own photo ----------------------------------------------


def test_a_hand_made_label_without_a_size_opens_reports_exports_and_trains(folder, capsys):
    # It was refused everywhere but evaluate as "of a NonexNone photo ... replaced or resized".
    hand_made(folder)
    answer = client(folder).get(url())
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["tiles"][0]["code"] == "1m"
    assert main(label_cmd(folder, "--report", "--json")) == 0
    assert json.loads(capsys.readouterr().out)["photos"] == 2
    out = folder / "yolo"
    assert main(label_cmd(folder, "--export", "yolo", "--out", out)) == 0
    assert sorted(p.stem for p in out.rglob("*.txt")) == ["IMG_3085", "IMG_3086"]
    found = collect_labels(folder / "labels", folder / "photos", min_held_out=0)
    assert len(found.train) + len(found.held_out) == 2


def test_a_size_that_is_there_and_differs_is_still_a_replaced_photo(folder, capsys):
    hand_made(folder, HAND_MADE | {"width": 768, "height": 1024})
    answer = client(folder).get(url())
    assert answer.status_code == 400 and "is of a 768x1024 photo" in answer.get_json()["error"]
    assert main(label_cmd(folder, "--report")) == 2
    one_line_error(capsys, "IMG_3086.jpg is 1536x2048", "replaced or resized")


@pytest.mark.parametrize(
    "size", [{}, {"width": 0, "height": 0}, {"width": None, "height": 2048}, {"height": 2048}]
)
def test_a_page_save_without_a_size_is_written_with_the_photos(folder, size):
    # A PUT without one was written "width": 0, and the label could not be opened again.
    answer = client(folder).put(url(), json=HAND_MADE | size)
    assert answer.status_code == 200, answer.get_json()
    saved = json.loads((folder / "labels" / "IMG_3086.json").read_text())
    assert (saved["width"], saved["height"]) == (1536, 2048)
    assert client(folder).get(url()).status_code == 200


def test_a_page_save_with_a_size_of_the_wrong_kind_is_still_refused(folder):
    before = (folder / "labels" / "IMG_3086.json").read_bytes()
    for size in ({"width": "wide"}, {"width": -5, "height": 2048}, {"width": False}):
        answer = client(folder).put(url(), json=HAND_MADE | size)
        assert answer.status_code == 400, size
        assert "\n" not in answer.get_json()["error"]
    assert (folder / "labels" / "IMG_3086.json").read_bytes() == before


def test_without_a_size_a_box_is_still_checked_against_any_photo():
    from vision.labels import LabelError, check_label

    with pytest.raises(LabelError, match="off any photo"):
        check_label({"tiles": [{"code": "1m", "box": [0, 0, 1e308, 1e308]}]})


# --- a label without a status is done, everywhere ----------------------------------------------


def test_a_label_without_a_status_is_done_on_the_page_as_in_the_exports(folder, capsys):
    # The page listed it "proposed" while --report, --export and --from counted it done.
    hand_made(folder)
    page = client(folder)
    listed = {p["image"]: p["status"] for p in page.get("/api/photos").get_json()["photos"]}
    assert listed["IMG_3086.jpg"] == "done"
    assert main(label_cmd(folder, "--report", "--json")) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["photos"] == 2 and "nobody marked done" not in out.err
    # Edited on the page (which sends back what it read, no status), it stays done.
    label = page.get(url()).get_json()
    assert "status" not in label
    label["tiles"][0]["code"] = "2m"
    assert page.put(url(), json=label).status_code == 200
    assert json.loads((folder / "labels" / "IMG_3086.json").read_text())["status"] == "done"


# --- Label Studio: boxes in the photo's own pixels, photos by their uploaded names -------------


def import_tasks(folder, tasks):
    path = folder / "import.json"
    path.write_text(json.dumps(tasks))
    return main(label_cmd(folder, "--import", path))


def rectangle(original, label="1m", x=10, y=10, width=20, height=20):
    return {
        "type": "rectanglelabels",
        "original_width": original[0],
        "original_height": original[1],
        "value": {"x": x, "y": y, "width": width, "height": height, "rectanglelabels": [label]},
    }


def annotated(image, *results, **data):
    return {"data": {"image": image, **data}, "annotations": [{"result": list(results)}]}


def test_label_studio_percentages_are_of_the_photo_whatever_size_a_result_gives(folder):
    # Each box was scaled by its own result's original size: one drawn on a half-size copy
    # came in at half its place; and a task whose results all gave another size was refused.
    results = [rectangle((1536, 2048)), rectangle((768, 1024), "2m"), rectangle((None, 1), "3m")]
    assert import_tasks(folder, [annotated("IMG_3085.jpg", *results, width=768)]) == 0
    label = json.loads((folder / "labels" / "IMG_3085.json").read_text())
    assert (label["width"], label["height"]) == (1536, 2048)
    assert [t["box"] for t in label["tiles"]] == [[153.6, 204.8, 460.8, 614.4]] * 3
    assert import_tasks(folder, [annotated("IMG_3086.jpg", rectangle((768, 1024)))]) == 0
    label = json.loads((folder / "labels" / "IMG_3086.json").read_text())
    assert label["tiles"][0]["box"] == [153.6, 204.8, 460.8, 614.4]


def test_a_box_drawn_on_a_photo_of_another_shape_is_refused(folder, capsys):
    # Percentages hold at any size of one photo, not on another photo put under its name: a
    # task drawn on a 1600x1200 photo came in on the 1536x2048 one without a word (a review).
    before = (folder / "labels" / "IMG_3085.json").read_bytes()
    assert import_tasks(folder, [annotated("IMG_3085.jpg", rectangle((1600, 1200)))]) == 2
    assert "drawn on a 1600x1200 photo, not one shaped as this 1536x2048" in capsys.readouterr().err
    assert (folder / "labels" / "IMG_3085.json").read_bytes() == before


@pytest.mark.parametrize("image", ["/data/upload/1/8f3a2b1c-IMG_3085.jpg", "8F3A2B1C-IMG_3085.jpg"])
def test_a_photo_uploaded_into_label_studio_is_found_by_its_own_name(folder, capsys, image):
    assert import_tasks(folder, [annotated(image, rectangle((1536, 2048), "9p"))]) == 0
    assert json.loads(capsys.readouterr().out)["imported"] == 1
    label = json.loads((folder / "labels" / "IMG_3085.json").read_text())
    assert [t["code"] for t in label["tiles"]] == ["9p"]
    assert not (folder / "labels" / "8f3a2b1c-IMG_3085.json").exists()


@pytest.mark.parametrize(
    ("image", "says"),
    [
        ("photo-IMG_3085.jpg", "no photo named 'photo-IMG_3085.jpg'"),  # no upload prefix
        ("8f3a2b1c-IMG_9999.jpg", "no photo named '8f3a2b1c-IMG_9999.jpg'"),
    ],
)
def test_a_name_that_is_no_upload_of_a_photo_here_is_refused(folder, capsys, image, says):
    assert import_tasks(folder, [annotated(image, rectangle((1536, 2048)))]) == 2
    one_line_error(capsys, says)


def test_an_upload_and_the_photo_itself_are_two_tasks_for_one_photo(folder, capsys):
    tasks = [
        annotated(name, rectangle((1536, 2048)))
        for name in ("IMG_3085.jpg", "8f3a2b1c-IMG_3085.jpg")
    ]
    assert import_tasks(folder, tasks) == 2
    one_line_error(capsys, "task 2: a second task for IMG_3085.jpg")


def test_an_uploaded_name_is_taken_only_where_the_photo_of_that_name_is_not_there():
    # A photo really named with such a prefix is its own.
    names = ["8f3a2b1c-IMG_3085.jpg", "IMG_3086.jpg"]
    assert match_photo("8f3a2b1c-IMG_3085.jpg", names) == "8f3a2b1c-IMG_3085.jpg"
    assert match_photo("0badcafe-IMG_3086.jpg", names) == "IMG_3086.jpg"
    assert match_photo("0badcafe-IMG_3087.jpg", names) is None


# --- an import never loses a label a person saved --------------------------------------------


def test_an_import_over_labels_edited_since_the_export_keeps_the_old_files(folder, capsys):
    # It wrote the exported labels over the page's later edits, without a word.
    out = folder / "ls.json"
    assert main(label_cmd(folder, "--export", "labelstudio", "--out", out)) == 0
    page = client(folder)
    edited = page.get(url("IMG_3085.jpg")).get_json()
    edited["tiles"][0]["code"] = "9s"
    assert page.put(url("IMG_3085.jpg"), json=edited).status_code == 200
    mine = (folder / "labels" / "IMG_3085.json").read_bytes()
    capsys.readouterr()
    assert main(label_cmd(folder, "--import", out)) == 0
    said = capsys.readouterr()
    summary = json.loads(said.out)
    copies = folder / "labels" / ".replaced"
    assert summary["replaced"] == 1 and summary["copies"].startswith(str(copies))
    assert f"replaced 1 label(s); the old files are in {summary['copies']}" in said.err
    kept = list(copies.rglob("*.json"))
    assert [p.name for p in kept] == ["IMG_3085.json"] and kept[0].read_bytes() == mine
    # IMG_3086 was the same in the export: neither written nor copied.
    assert json.loads((folder / "labels" / "IMG_3085.json").read_text())["tiles"][0]["code"] != "9s"


def test_the_copies_are_no_labels_to_any_reader(folder, capsys):
    from vision.labels import load_labels

    store = LabelStore(folder / "photos", folder / "labels")
    assert store.keep_copies(["IMG_3085.jpg", "IMG_3086.jpg"]) is not None
    hand_made(folder, HAND_MADE | {"status": "done"}, "IMG_3085")  # the copy differs now
    listed = client(folder).get("/api/photos").get_json()["photos"]
    assert [p["image"] for p in listed] == ["IMG_3085.jpg", "IMG_3086.jpg"]
    assert main(label_cmd(folder, "--report", "--json")) == 0
    assert json.loads(capsys.readouterr().out)["photos"] == 2
    out = folder / "yolo"
    assert main(label_cmd(folder, "--export", "yolo", "--out", out)) == 0
    assert len(list(out.rglob("*.txt"))) == 2
    found = collect_labels(folder / "labels", folder / "photos", min_held_out=0)
    assert len(found.train) + len(found.held_out) == 2
    # evaluate: one label a photo, not three of one
    names = sorted(label.label_path.name for label in load_labels(folder / "labels"))
    assert names == ["IMG_3085.json", "IMG_3086.json"]


def test_two_imports_in_one_second_keep_their_copies_apart(folder, monkeypatch):
    from device import labels

    monkeypatch.setattr(labels.time, "strftime", lambda _: "2026-01-01T000000")
    store = LabelStore(folder / "photos", folder / "labels")
    first = store.keep_copies(["IMG_3085.jpg"])
    second = store.keep_copies(["IMG_3085.jpg"])
    assert first is not None and second is not None and first != second
    assert second.name == "2026-01-01T000000-2" and (second / "IMG_3085.json").is_file()
    assert store.keep_copies([]) is None


def test_an_import_that_cannot_keep_the_old_files_writes_nothing(folder, capsys, monkeypatch):
    from device import labels

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(labels.shutil, "copy2", full)
    before = (folder / "labels" / "IMG_3085.json").read_bytes()
    assert import_tasks(folder, [annotated("IMG_3085.jpg", rectangle((1536, 2048), "9p"))]) == 2
    one_line_error(capsys, "cannot keep a copy", "No space left", "nothing imported")
    assert (folder / "labels" / "IMG_3085.json").read_bytes() == before


# --- flags that do not go together -----------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--export", "yolo", "--import", "x.json", "--out", "y"], "--export and --import"),
        (["--import", "x.json", "--report"], "--import and --report"),
        (["--export", "labelstudio", "--report", "--out", "y.json"], "--export and --report"),
        (["--report", "--allow-empty"], "--allow-empty is for --import"),
        # Taken and left out in silence (a browser re-probe):
        (["--report", "--seed", "3"], "--seed is --export's split"),
        (["--json"], "--json is for --report, --export and --import"),
        (["--export", "labelstudio", "--out", "y.json", "--port", "9"], "--port is the page's"),
    ],
)
def test_flags_that_do_not_go_together_are_one_line(folder, capsys, flags, says):
    # `--export yolo --import x.json` exported and left the import out without a word.
    before = sorted(p.relative_to(folder) for p in folder.rglob("*"))
    assert main(label_cmd(folder, *flags)) == 2
    one_line_error(capsys, says)
    assert sorted(p.relative_to(folder) for p in folder.rglob("*")) == before


# --- a training export has something to validate on ------------------------------------------


def test_a_yolo_export_of_two_photos_validates_on_one(folder):
    # split_of puts IMG_3085 and IMG_3086 both in train: data.yaml named an empty images/val.
    assert {split_of(name) for name in ("IMG_3085.jpg", "IMG_3086.jpg")} == {"train"}
    out = folder / "yolo"
    assert main(label_cmd(folder, "--export", "yolo", "--out", out)) == 0
    assert len(list((out / "images" / "val").iterdir())) == 1
    assert len(list((out / "images" / "train").iterdir())) == 1


def test_the_split_moves_one_photo_only_where_a_side_is_empty():
    many = [f"IMG_{n}.jpg" for n in range(40)]
    assert split_photos(many) == {name: split_of(name) for name in many}
    all_val = [n for n in (f"x{i}.jpg" for i in range(200)) if split_of(n) == "val"][:3]
    assert sorted(split_photos(all_val).values()) == ["train", "val", "val"]
    assert split_photos(["one.jpg"]) == {"one.jpg": split_of("one.jpg")}
    assert split_photos(["b.jpg", "a.jpg"], seed=3) == split_photos(["a.jpg", "b.jpg"], seed=3)


@pytest.mark.parametrize("kind", ["yolo", "crops"])
def test_a_training_export_of_fewer_than_two_done_photos_is_refused(folder, capsys, kind):
    path = folder / "labels" / "IMG_3086.json"
    path.write_text(json.dumps(json.loads(path.read_text()) | {"status": "proposed"}))
    out = folder / "out"
    assert main(label_cmd(folder, "--export", kind, "--out", out)) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith(f"error: --export {kind} needs at least 2 photos marked done")
    assert err[-1].endswith(": 1 is") and not out.exists()


def test_an_import_mends_a_label_file_that_cannot_be_read_and_keeps_its_bytes(folder, capsys):
    # A label cut short refused the whole import, the task that would mend it among it.
    broken = folder / "labels" / "IMG_3085.json"
    broken.write_bytes(b'{"tiles": [')
    assert import_tasks(folder, [annotated("IMG_3085.jpg", rectangle((1536, 2048), "9p"))]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["replaced"] == 1
    assert [t["code"] for t in json.loads(broken.read_text())["tiles"]] == ["9p"]
    assert (Path(summary["copies"]) / "IMG_3085.json").read_bytes() == b'{"tiles": ['

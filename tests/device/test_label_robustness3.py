"""A tester's findings in `tilescore label`: hand-made labels without a size or a status, a page
save without a size, imports that wrote over a person's labels, Label Studio names and sizes,
a yolo export with nothing to validate on, and flags that cannot go together."""

import json

import pytest

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

"""Matching predictions to labels, the metrics worked out by hand, and ``tilescore evaluate``."""

import json
import os
import shutil
import subprocess
import sys

import cv2
import pytest

from device.cli import main
from tests.cli_run import REPO, tilescore
from tests.vision.scene import scene_photo
from vision.detection import Detection
from vision.evaluate import EXTRA, MISSED, Evaluation, match_photo
from vision.labels import LabelError, LabelledPhoto, LabelledTile, load_label


def label(*tiles, ignored=()):
    return LabelledPhoto(None, "p.jpg", 100, 100, tuple(tiles), tuple(ignored), None)


def tile(code, x, face_down=False, rotated=False):
    return LabelledTile(code, (x, 0, x + 10, 14), face_down, rotated)


def seen(code, x, confidence=0.9, face_down=False, dy=0.0, asked=False):
    box = (x, dy, x + 10, 14 + dy)
    return Detection(code, box, confidence, confidence, 1.0, face_down, False, asked)


def test_matching_and_every_metric():
    truth = label(tile("1m", 0), tile("2m", 20), tile(None, 40, face_down=True), tile("3m", 60))
    predictions = [
        seen("1m", 1),  # right (IoU 0.82)
        seen("5m", 20),  # found, read wrong
        seen(None, 40, face_down=True),  # a back, right
        seen("9m", 80),  # on nothing: extra
        seen("3m", 60, dy=10),  # IoU 0.17 with 3m: a miss and an extra
    ]
    result = match_photo(truth, predictions)
    assert result.pairs == ((0, 0), (1, 1), (2, 2))
    assert result.missed == (3,) and result.extra == (3, 4)
    assert result.right == 2 and not result.all_right
    evaluation = Evaluation((result, match_photo(truth, [])))
    assert evaluation.tile_accuracy == pytest.approx(2 / 8)
    assert evaluation.photo_accuracy == 0
    assert evaluation.detection_recall == pytest.approx(3 / 8)
    assert evaluation.detection_precision == pytest.approx(3 / 5)
    assert evaluation.reading_accuracy == pytest.approx(2 / 3)
    confusion = evaluation.confusion()
    assert confusion["2m", "5m"] == 1 and confusion["1m", "1m"] == 1
    assert confusion["back", "back"] == 1 and confusion["3m", MISSED] == 2
    assert confusion[EXTRA, "9m"] == 1 and confusion[EXTRA, "3m"] == 1
    per_class = {c.name: c for c in evaluation.per_class()}
    assert (per_class["3m"].labelled, per_class["3m"].predicted, per_class["3m"].right) == (2, 1, 0)
    assert per_class["1m"].recall == 0.5 and per_class["1m"].precision == 1.0
    assert per_class["5m"].precision == 0.0 and per_class["5m"].recall is None
    assert result.misreads == [("2m", "5m")] and result.missed_names == ["3m"]


def test_accuracy_intervals_resample_whole_photos():
    right = match_photo(label(tile("1m", 0), tile("2m", 20)), [seen("1m", 0), seen("2m", 20)])
    wrong = match_photo(label(tile("1m", 0), tile("2m", 20)), [seen("1m", 0), seen("9m", 20)])
    same = Evaluation((right,) * 5).intervals()
    assert same == {"tile_accuracy": (1.0, 1.0), "photo_accuracy": (1.0, 1.0)}
    mixed = Evaluation((right, wrong) * 10)  # 30 of 40 tiles, 10 of 20 photos
    spread = mixed.intervals()
    low, high = spread["photo_accuracy"]
    assert 0.2 < low < 0.5 < high < 0.8
    low, high = spread["tile_accuracy"]
    assert 0.6 < low < 0.75 < high < 0.9
    assert spread == mixed.intervals()  # the same resamples every time
    assert mixed.to_json()["photo_accuracy_interval"] == list(spread["photo_accuracy"])
    assert Evaluation(()).intervals()["tile_accuracy"] is None


def test_what_had_nothing_to_count_is_not_a_number():
    # A labelled photo of an empty table reported "tile accuracy 0.0%": every tile missed.
    from vision.evaluate_cli import format_report

    empty = Evaluation((match_photo(label(), []),))
    report = empty.to_json()
    assert report["photo_accuracy"] == 1.0
    for name in ("tile_accuracy", "detection_recall", "detection_precision", "reading_accuracy"):
        assert report[name] is None, name
    assert report["tile_accuracy_interval"] is None
    assert "tile accuracy:            n/a" in format_report(empty)
    one_extra = Evaluation((match_photo(label(), [seen("1m", 0)]),))
    assert one_extra.detection_precision == 0 and one_extra.photo_accuracy == 0


def test_the_report_names_each_photos_mistakes():
    from vision.evaluate_cli import _what_went_wrong

    truth = label(tile("9s", 0), tile("9s", 20), tile("5z", 40), tile("1s", 60))
    result = match_photo(truth, [seen("6s", 0), seen("6s", 20), seen("8p", 60)])
    assert _what_went_wrong(result) == ": 9s read as 6s x2, 1s read as 8p, missed 5z"
    assert _what_went_wrong(match_photo(truth, [seen(c, x) for c, x in [("9s", 0)]])) == (
        ": missed 9s, missed 5z, missed 1s"
    )
    assert Evaluation((result,)).to_json()["per_photo"][0]["missed_tiles"] == ["5z"]


def test_questions_count_what_the_display_asks_and_what_it_lets_pass():
    truth = label(tile("9s", 0), tile("1s", 20), tile("5z", 40), tile("2p", 60))
    asked_wrong = seen("8p", 20, asked=True)
    everything_asked = [seen("9s", 0), asked_wrong, seen("5z", 40, asked=True), seen("2p", 60)]
    right_or_asked = match_photo(truth, [*everything_asked, seen("7z", 80, asked=True)])
    assert right_or_asked.right_or_asked and not right_or_asked.all_right
    assert (right_or_asked.asked, right_or_asked.asked_right) == (3, 1)  # 8p?, 5z?, the extra 7z?
    silent = match_photo(truth, [seen("6s", 0), asked_wrong, seen("5z", 40), seen("3s", 90)])
    assert (silent.unasked_misreads, silent.unasked_extra) == (1, 1)  # 6s and the extra 3s
    assert not silent.right_or_asked
    missed = match_photo(truth, everything_asked[:3])  # 2p not found: no flag can ask about it
    assert not missed.right_or_asked and missed.unasked_misreads == 0
    evaluation = Evaluation((right_or_asked, silent, missed))
    assert evaluation.right_or_asked_accuracy == pytest.approx(1 / 3)
    assert evaluation.questions() == {
        "asked": 3 + 1 + 2,
        "asked_right": 1 + 0 + 1,
        "unasked_misreads": 1,
        "unasked_extra": 1,
        "photos_right_or_asked": 1,
    }
    report = evaluation.to_json()
    assert report["questions"]["asked"] == 6
    assert [p["right_or_asked"] for p in report["per_photo"]] == [True, False, False]


def test_saved_predictions_keep_the_readers_flag():
    from vision.evaluate_cli import _saved_photo

    box = [0, 0, 10, 14]
    moved = {"code": "2m", "box": box, "confidence": 0.8, "low_confidence": True}
    unsure = {"code": "2m", "box": box, "confidence": 0.3}
    sure = {"code": "2m", "box": box, "confidence": 0.8}
    tiles, _ = _saved_photo({"tiles": [moved, unsure, sure]}, red_fives=True)
    # a read moved to fit the set is flagged at 0.8; JSON from before the flag: by confidence
    assert [t.low_confidence for t in tiles] == [True, True, False]


def test_each_label_is_matched_once_best_prediction_first():
    result = match_photo(label(tile("1m", 0)), [seen("2m", 0, 0.5), seen("1m", 0, 0.9)])
    assert result.pairs == ((0, 1),) and result.extra == (0,)


def test_predictions_on_tiles_labelled_other_count_neither_way():
    truth = label(tile("1m", 0), ignored=[(30, 0, 40, 14)])
    result = match_photo(truth, [seen("1m", 0), seen("7z", 30)])
    assert result.extra == () and result.all_right


def test_a_photo_is_right_only_with_nothing_extra():
    assert not match_photo(label(tile("1m", 0)), [seen("1m", 0), seen("2m", 50)]).all_right
    assert match_photo(label(), []).all_right


def test_label_files_are_checked(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"image": "x.jpg", "tiles": [{"code": "5x", "box": [0, 0, 1, 1]}]}))
    with pytest.raises(LabelError, match=r"x.json: unknown tile code '5x'"):
        load_label(path)
    path.write_text(json.dumps({"image": "x.jpg", "tiles": [{"code": "5m", "box": [5, 0, 1, 1]}]}))
    with pytest.raises(LabelError, match=r"tile 1 has a bad box"):
        load_label(path)
    path.write_text("[")
    with pytest.raises(LabelError, match=r"x.json is not valid JSON"):
        load_label(path)
    path.write_text(json.dumps({"image": "x.jpg", "tiles": [{"code": None, "box": [0, 0, 1, 1]}]}))
    assert load_label(path).tiles[0].face_down


def test_evaluate_command_on_the_known_scene(scene_models, tmp_path, capsys):
    photos, labels, out = tmp_path / "photos", tmp_path / "labels", tmp_path / "out"
    photos.mkdir()
    labels.mkdir()
    cv2.imwrite(str(photos / "good.png"), scene_photo())
    cv2.imwrite(str(photos / "bad.png"), scene_photo())
    good = [
        {"code": "5m", "box": [25, 50, 75, 125], "face_down": False, "rotated": False},
        {"code": "3s", "box": [100, 50, 200, 100], "face_down": False, "rotated": True},
        {"code": None, "box": [225, 50, 275, 125], "face_down": True, "rotated": False},
        {"code": "1r", "box": [300, 50, 350, 100], "face_down": False, "rotated": False},
        {"code": "7z", "box": [100, 125, 150, 175], "face_down": False, "rotated": False},
    ]
    bad = [dict(t) for t in good]
    bad[3]["code"] = "2r"  # the model says 1r
    bad[4]["code"] = "other"  # ignored
    for name, tiles in (("good", good), ("bad", bad)):
        (labels / f"{name}.json").write_text(
            json.dumps({"image": f"{name}.png", "width": 400, "height": 200, "tiles": tiles})
        )
    argv = ["evaluate", "--labels", str(labels), "--photos", str(photos)]
    argv += ["--models", str(scene_models), "--out", str(out), "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["labelled_tiles"] == 9
    assert report["tile_accuracy"] == pytest.approx(8 / 9, abs=1e-4)
    assert report["photo_accuracy"] == 0.5
    assert report["per_class"]["2r"] == {
        "labelled": 1,
        "predicted": 0,
        "right": 0,
        "precision": None,
        "recall": 0.0,
    }
    assert report["per_photo"][0]["wrong"] == [["2r", "1r"]]
    assert report["per_photo"][0]["missed_tiles"] == []
    assert cv2.imread(str(out / "confusion.png")).shape[0] > 100
    assert (out / "annotated" / "good.jpg").exists()
    saved = json.loads((out / "evaluation.json").read_text())
    assert saved["tile_accuracy"] == report["tile_accuracy"]
    assert main(argv[:-1]) == 0
    assert "tile accuracy:" in capsys.readouterr().out


def test_evaluate_with_a_missing_photo_is_one_error(scene_models, tmp_path, capsys):
    (tmp_path / "x.json").write_text(json.dumps({"image": "x.jpg", "tiles": []}))
    argv = ["evaluate", "--labels", str(tmp_path), "--photos", str(tmp_path)]
    assert main([*argv, "--models", str(scene_models)]) == 2
    assert "its photo 'x.jpg' is not in" in capsys.readouterr().err


def test_a_tile_set_without_red_fives_reads_red_painted_fives_as_fives(tmp_path, capsys):
    labels, saved = tmp_path / "set" / "labels", tmp_path / "saved"
    labels.mkdir(parents=True)
    saved.mkdir()
    box = [10, 10, 40, 50]
    (labels / "p.json").write_text(
        json.dumps(
            {
                "image": "p.jpg",
                "tile_set": "plain-fives",
                "tiles": [{"code": "5p", "box": box, "face_down": False, "rotated": False}],
            }
        )
    )
    (saved / "p.json").write_text(json.dumps({"tiles": [{"code": "0p", "box": box}]}))
    argv = ["evaluate", "--labels", str(labels), "--predictions", str(saved), "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["tile_accuracy"] == 0.0  # no facts: 0p is wrong
    facts = {"plain-fives": {"red_fives": False}}
    (tmp_path / "set" / "tile_sets.json").write_text(json.dumps(facts))
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    # unsaid: coloured, of no colour said
    told = {"plain-fives": {"red_fives": False, "coloured_backs": True, "back_colour": None}}
    assert (report["tile_accuracy"], report["tile_sets"]) == (1.0, told)
    assert main([*argv, "--tile-sets", "none"]) == 0
    assert json.loads(capsys.readouterr().out)["tile_accuracy"] == 0.0
    assert main([*argv, "--tile-sets", str(tmp_path / "nope.json")]) == 2
    assert "no such tile-set file" in capsys.readouterr().err


def test_evaluate_reads_with_the_variants_detector_and_records_in_it(tmp_path, capsys):
    from tests.vision.test_pipeline import _with_a_xiangqi_detector

    folder = _with_a_xiangqi_detector(tmp_path, {"xiangqi": {"detector": "xq.json"}})
    photos, labels = tmp_path / "photos", tmp_path / "labels"
    photos.mkdir()
    labels.mkdir()
    cv2.imwrite(str(photos / "scene.png"), scene_photo())
    tiles = [
        {"code": "5m", "box": [25, 50, 75, 125], "face_down": False, "rotated": False},
        {"code": "5m", "box": [225, 50, 275, 125], "face_down": False, "rotated": False},
    ]
    label = {"image": "scene.png", "width": 400, "height": 200, "tiles": tiles}
    (labels / "scene.json").write_text(json.dumps(label))
    argv = ["evaluate", "--labels", str(labels), "--photos", str(photos), "--models", str(folder)]
    assert main([*argv, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tile_accuracy"] == 0.5  # one tile found
    assert main([*argv, "--json", "--variant", "xiangqi", "--record", "real"]) == 0
    assert json.loads(capsys.readouterr().out)["tile_accuracy"] == 1.0  # its detector finds two
    metrics = {p.stem: json.loads(p.read_text()).get("metrics", {}) for p in folder.glob("*.json")}
    assert sorted(name for name, found in metrics.items() if "real" in found) == ["cls", "xq"]
    recorded = metrics["xq"]["real"]
    assert recorded["right_or_asked_accuracy"] == 1.0 and recorded["questions"]["asked"] >= 0
    assert main([*argv, "--variant", "go"]) == 2
    assert "unknown variant 'go'" in capsys.readouterr().err


def saved_photo(tmp_path, saved_tiles):
    """A labels folder with one labelled 5p and a predictions folder with ``saved_tiles``."""
    labels, saved = tmp_path / "set" / "labels", tmp_path / "saved"
    labels.mkdir(parents=True)
    saved.mkdir()
    tiles = [{"code": "5p", "box": [10, 10, 40, 50], "face_down": False, "rotated": False}]
    (labels / "p.json").write_text(json.dumps({"image": "p.jpg", "tiles": tiles}))
    (saved / "p.json").write_text(json.dumps({"tiles": saved_tiles}))
    return ["evaluate", "--labels", str(labels), "--predictions", str(saved)]


@pytest.mark.parametrize(
    "saved_tile, said",
    [
        ({"code": "5p", "box": "abcd"}, "tiles[0].box must be four numbers"),
        ({"code": "5p", "box": [10, 10, None, 50]}, "tiles[0].box must be four numbers"),
        ({"code": "5p", "box": [10, 10, 40, 50], "confidence": "high"}, "confidence must be"),
        ({"code": 5, "box": [10, 10, 40, 50]}, "tiles[0].code must be a tile code"),
        ({"code": "5p", "box": [10, 10, 40, 50], "face_down": "yes"}, "face_down must be true"),
        (7, "tiles[0] must be an object"),
    ],
)
def test_saved_predictions_are_checked_field_by_field(tmp_path, capsys, saved_tile, said):
    assert main(saved_photo(tmp_path, [saved_tile])) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "p.json: not detect JSON: " in err and said in err
    assert err.count("\n") == 1


def test_tile_set_facts_must_be_of_their_type(tmp_path, capsys):
    argv = saved_photo(tmp_path, [{"code": "5p", "box": [10, 10, 40, 50]}])
    facts = tmp_path / "set" / "tile_sets.json"
    for written, said in [
        ({"ours": {"red_fives": "no"}}, "set 'ours': red_fives must be true or false"),
        ({"ours": {"red_five": False}}, "set 'ours': unknown fact 'red_five'"),
        ({"ours": {"back_colour": 3}}, "back_colour must be a #rrggbb string"),
        ({"ours": []}, "set 'ours': its facts must be an object"),
        (["ours"], "not a tile-set file"),
    ]:
        facts.write_text(json.dumps(written))
        assert main(argv) == 2
        assert said in capsys.readouterr().err


def test_evaluate_checks_its_arguments_before_reading(tmp_path, capsys):
    argv = saved_photo(tmp_path, [{"code": "5p", "box": [10, 10, 40, 50]}])
    assert main([*argv, "--variant", "bogus"]) == 2
    assert "unknown variant 'bogus'" in capsys.readouterr().err
    (tmp_path / "report").write_text("mine")
    assert main([*argv, "--out", str(tmp_path / "report")]) == 2
    assert "a file, not a folder" in capsys.readouterr().err
    assert (tmp_path / "report").read_text() == "mine"
    # The labels' own folder: its evaluation.json would overwrite a label of that name.
    labels = tmp_path / "set" / "labels"
    assert main([*argv, "--out", str(labels / ".." / "labels")]) == 2
    assert "is the labels folder" in capsys.readouterr().err
    (tmp_path / "gone").symlink_to(tmp_path / "nowhere")  # a traceback after all the work
    assert main([*argv, "--out", str(tmp_path / "gone")]) == 2
    assert "is a link to nothing" in capsys.readouterr().err
    assert sorted(p.name for p in labels.iterdir()) == ["p.json"]
    assert main([*argv, "--variant", "Taiwan"]) == 0


def test_saved_json_nested_too_deeply_is_one_line(tmp_path, capsys):
    argv = saved_photo(tmp_path, [])
    (tmp_path / "saved" / "p.json").write_text("[" * 100000)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "p.json is nested too deeply to read" in err and err.count("\n") == 1
    (tmp_path / "saved" / "p.json").write_text(json.dumps({"tiles": []}))
    (tmp_path / "set" / "tile_sets.json").write_text('{"a":' * 5000)
    assert main(argv) == 2
    assert "tile_sets.json is nested too deeply to read" in capsys.readouterr().err


def test_a_photo_resized_since_it_was_labelled_is_judged_by_its_label(tmp_path, capsys):
    # The pinghu example and its label, the photo at half size: read at its size, its boxes
    # scaled to the label's, it scores as the photo it was. A label of another shape is
    # another photo's, said in one line (it scored 0%, every tile missed and every box extra).
    from tests.cli_run import REPO

    source = REPO / "examples" / "photos"
    labels, photos = tmp_path / "labels", tmp_path / "photos"
    labels.mkdir()
    photos.mkdir()
    label = json.loads((source / "taiwan-pinghu.json").read_text())
    (labels / "taiwan-pinghu.json").write_text(json.dumps(label))
    image = cv2.imread(str(source / "taiwan-pinghu.jpg"))
    argv = ["evaluate", "--labels", str(labels), "--photos", str(photos), "--json"]
    cv2.imwrite(str(photos / "taiwan-pinghu.jpg"), image)
    assert main(argv) == 0
    whole = json.loads(capsys.readouterr().out)
    cv2.imwrite(str(photos / "taiwan-pinghu.jpg"), cv2.resize(image, None, fx=0.5, fy=0.5))
    assert main(argv) == 0
    half = json.loads(capsys.readouterr().out)
    assert half["tile_accuracy"] == whole["tile_accuracy"] > 0.9
    cv2.imwrite(str(photos / "taiwan-pinghu.jpg"), image[:, : image.shape[1] // 2])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"its label is for a {label['width']}x{label['height']} photo, this one is" in err


def _example_labels(tmp_path):
    """Labels of both example photos, and a photos folder holding the pinghu one only; and
    where the examples are."""
    from tests.cli_run import REPO

    source = REPO / "examples" / "photos"
    labels, photos = tmp_path / "labels", tmp_path / "photos"
    labels.mkdir()
    photos.mkdir()
    for name in ("taiwan-pinghu", "taiwan-melds"):
        (labels / f"{name}.json").write_text((source / f"{name}.json").read_text())
    (photos / "taiwan-pinghu.jpg").write_bytes((source / "taiwan-pinghu.jpg").read_bytes())
    return labels, photos, source


def test_a_photo_that_cannot_be_read_is_said_and_the_others_judged(tmp_path, capsys):
    # It stopped the whole run at the first damaged photo; now that one is said on stderr,
    # left out of every figure, and the exit status says a photo was left out.
    labels, photos, source = _example_labels(tmp_path)
    (photos / "taiwan-melds.jpg").write_bytes((source / "taiwan-melds.jpg").read_bytes()[:5000])
    argv = ["evaluate", "--labels", str(labels), "--photos", str(photos), "--json"]
    assert main(argv) == 1
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["labelled_tiles"] == len(
        json.loads((source / "taiwan-pinghu.json").read_text())["tiles"]
    )
    assert [u["image"] for u in report["unreadable"]] == ["taiwan-melds.jpg"]
    assert err.count("\n") == 1 and "taiwan-melds.jpg: the image file is truncated" in err
    # None readable: the one line, as before.
    (photos / "taiwan-pinghu.jpg").write_bytes(b"")
    assert main(argv) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_record_is_written_only_for_the_whole_set(tmp_path, capsys):
    # A run that read some photos, or none, replaced the shipped files' real-photo figures.
    from tests.cli_run import REPO

    models = tmp_path / "models"
    shutil.copytree(REPO / "models", models, ignore=shutil.ignore_patterns("*.pt", "candidates"))
    before = {p.name: p.read_bytes() for p in models.glob("*.json")}
    labels, photos, source = _example_labels(tmp_path)
    argv = ["evaluate", "--labels", str(labels), "--photos", str(photos), "--models", str(models)]
    assert main([*argv, "--record", "mine"]) == 1  # a photo not there: nothing recorded
    assert "not recorded as mine: 1 of 2 photos were not read" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in models.glob("*.json")} == before
    (photos / "taiwan-melds.jpg").write_bytes((source / "taiwan-melds.jpg").read_bytes())
    assert main([*argv, "--record", "mine"]) == 0
    capsys.readouterr()
    recorded = [
        p.name
        for p in models.glob("*.json")
        if "mine" in json.loads(p.read_text()).get("metrics", {})
    ]
    assert "tile-classifier-second.json" in recorded and "tile-classifier.json" in recorded
    # Saved detections were read by no model of the folder: nothing of theirs to record.
    assert main([*argv, "--predictions", str(tmp_path), "--record", "x"]) == 2
    assert "with --predictions none of the folder's did" in capsys.readouterr().err


def test_two_labels_of_one_photo_are_refused(tmp_path, capsys):
    # A label copied over another's name judged one photo twice and left the other out.
    from tests.cli_run import REPO

    source = REPO / "examples" / "photos"
    labels = tmp_path / "labels"
    labels.mkdir()
    (labels / "taiwan-melds.json").write_text((source / "taiwan-pinghu.json").read_text())
    (labels / "taiwan-pinghu.json").write_text((source / "taiwan-pinghu.json").read_text())
    assert main(["evaluate", "--labels", str(labels), "--photos", str(source)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "labels the photo 'taiwan-pinghu.jpg'" in err


def test_json_gets_an_object_when_no_photo_could_be_read(tmp_path):
    # Every photo empty or not a photo: the one stderr line came, and stdout held nothing for a
    # --json caller to read. Now it holds one object saying why, as a failed hand's does.
    labels, photos = tmp_path / "labels", tmp_path / "photos"
    labels.mkdir()
    photos.mkdir()
    for name, content in (("empty", b""), ("garbage", b"not a photo at all")):
        (photos / f"{name}.jpg").write_bytes(content)
        (labels / f"{name}.json").write_text(json.dumps({"image": f"{name}.jpg", "tiles": []}))
    run = tilescore("evaluate", "--labels", labels, "--photos", photos, "--json")
    assert run.returncode == 2
    assert run.stderr.startswith("error: ") and run.stderr.count("\n") == 1, run.stderr
    report = json.loads(run.stdout)
    assert report["error"] == run.stderr.removeprefix("error: ").rstrip("\n")
    assert sorted(u["image"] for u in report["unreadable"]) == ["empty.jpg", "garbage.jpg"]


def test_a_photo_name_that_is_not_utf8_is_escaped_in_the_json(tmp_path):
    # A label naming a photo whose bytes are not UTF-8 ("\udcff" in the label's JSON, as a file
    # name reads in Python): the report went out with the raw byte (no UTF-8), or as a
    # UnicodeEncodeError traceback on a strict stdout. It is escaped now, as detect escapes it.
    labels, photos, _ = _example_labels(tmp_path)
    name = os.fsdecode(b"hand\xff.jpg")
    (photos / "taiwan-pinghu.jpg").rename(photos / name)
    (labels / "taiwan-melds.json").unlink()
    label = json.loads((labels / "taiwan-pinghu.json").read_text())
    (labels / "taiwan-pinghu.json").write_text(json.dumps({**label, "image": name}))
    argv = ["evaluate", "--labels", labels, "--photos", photos, "--json"]
    for stdout in ("utf-8", "utf-8:surrogateescape"):
        run = subprocess.run(
            [sys.executable, "-m", "device.cli", *map(str, argv)],
            capture_output=True, cwd=tmp_path, timeout=120,
            env=os.environ | {"PYTHONPATH": str(REPO), "PYTHONIOENCODING": stdout},
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        report = json.loads(run.stdout.decode("utf-8"))
        assert report["per_photo"][0]["image"] == name and report["tile_accuracy"] == 1.0

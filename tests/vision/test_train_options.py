"""What ultralytics is asked to train with: mosaics for the detector unless a run asks for whole
scenes, the rate and warm-up of a run that continues a checkpoint, and the classifier's crops."""

from pathlib import Path

import pytest

from tests.cli_run import tilescore
from vision.training.train import TrainSettings, train_options


def settings(task="detect", **changes):
    base = {
        "task": task,
        "data": Path("data.yaml"),
        "out_dir": Path("out"),
        "name": "tile-detector",
        "epochs": 3,
        "imgsz": 640,
        "batch": 16,
        "device": "cpu",
        "start_from": None,
    }
    return TrainSettings(**(base | changes))


def test_the_detector_learns_on_mosaics_unless_the_run_asks_for_whole_scenes():
    assert train_options(settings(), Path("runs"))["mosaic"] == 1.0
    assert train_options(settings(mosaic=False), Path("runs"))["mosaic"] == 0.0


def test_a_run_from_a_checkpoint_has_no_warm_up_and_its_own_rate_when_given():
    resumed = train_options(settings(start_from=Path("det.pt")), Path("runs"))
    assert (resumed["warmup_epochs"], resumed["lr0"]) == (0, 0.0005)
    chosen = train_options(settings(start_from=Path("det.pt"), lr0=0.0002), Path("runs"))
    assert chosen["lr0"] == 0.0002
    assert train_options(settings(), Path("runs"))["lr0"] == 0.001


def test_the_classifier_sees_its_crops_unmirrored_and_without_mosaics():
    options = train_options(settings("classify", imgsz=64), Path("runs"))
    assert (options["fliplr"], options["flipud"]) == (0.0, 0.0)
    assert "mosaic" not in options
    assert options["lr0"] == 0.002


def test_no_mosaic_is_for_the_detector_only(tmp_path):
    result = tilescore("train", "classifier", "--data", tmp_path, "--no-mosaic")
    assert result.returncode == 2, result.stderr
    assert (
        result.stderr == "error: --no-mosaic is for the detector: the classifier learns on crops\n"
    )


def test_a_data_yaml_whose_classes_or_boxes_no_model_can_learn_is_one_line(tmp_path, capsys):
    # Each failed inside ultralytics after torch and the data loaded, in a traceback.
    from device.cli import main

    for split in ("train", "val"):
        (tmp_path / "images" / split).mkdir(parents=True)
    data = tmp_path / "data.yaml"
    spec = "train: images/train\nval: images/val\nnames: "
    argv = ["train", "detector", "--data", str(data), "--out", str(tmp_path / "m")]
    for names, said in (
        ("5", "names: must list the classes"),
        ("{0: tile, 1: foo}", "class 'foo' is no tile code"),
        ("{0: tile, 1: back}", "no box labels folder"),
    ):
        data.write_text(spec + names)
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err
    for split in ("train", "val"):
        (tmp_path / "labels" / split).mkdir(parents=True)
    (tmp_path / "labels" / "train" / "a.txt").write_text("0 0.5 0.5 0.1 0.1\n7 0.2 0.2 0.1 0.1\n")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "a.txt line 2 names class '7'; the data.yaml has 2 (0 to 1)" in err, err
    assert not (tmp_path / "m").exists()
    # A merged build lists its folders (datasets.synth.merge): it was refused as not there.
    from vision.training.cli import _check_data_kind

    (tmp_path / "labels" / "train" / "a.txt").write_text("1 0.2 0.2 0.1 0.1\n")
    merged = tmp_path / "merged.yaml"
    merged.write_text(
        f"train: [{tmp_path / 'images' / 'train'}]\nval: [{tmp_path / 'images' / 'val'}]\n"
        "names: {0: tile, 1: back}\n"
    )
    _check_data_kind(merged, "detector")


def test_a_run_keeps_every_nth_epoch_only_when_asked():
    assert train_options(settings(save_period=3), Path("runs"))["save_period"] == 3
    assert "save_period" not in train_options(settings(), Path("runs"))


def test_a_save_period_below_one_epoch_is_refused_in_one_line(tmp_path):
    result = tilescore("train", "detector", "--data", tmp_path, "--save-period", "0")
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("error: tilescore train: argument --save-period: must be 1")


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--epochs", "0", "must be 1 or more, not 0"),  # trained 20 epochs, the default
        ("--epochs", "-1", "must be 1 or more, not -1"),
        ("--imgsz", "-32", "must be 1 or more, not -32"),  # replaced the shipped ONNX, broken
        ("--batch", "0", "must be 1 or more, not 0"),
        ("--fraction", "0", "must be more than 0, not 0"),
        ("--fraction", "5", "must be at most 1 (all the data), not 5"),
        ("--lr0", "-1", "must be more than 0, not -1"),
        ("--hours", "-1", "must be more than 0, not -1"),
        ("--hours", "nan", "must be more than 0, not nan"),
        ("--per-class", "-1", "must be 1 or more, not -1"),
        ("--workers", "-2", "must be 0 or more, not -2"),
    ],
)
def test_numbers_no_run_can_take_are_refused_in_one_line(tmp_path, option, value, said):
    result = tilescore("train", "classifier", "--data", tmp_path, option, value)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert f"argument {option}: {said}" in result.stderr


def test_training_data_of_the_wrong_kind_is_one_line(tmp_path, capsys):
    # ultralytics' own failure here is a page of traceback (AssertionError: Not a YAML file).
    from device.cli import main

    notes = tmp_path / "notes.txt"
    notes.write_text("not a data.yaml")
    assert main(["train", "detector", "--data", str(notes), "--out", str(tmp_path / "m")]) == 2
    assert "a detector trains on a YOLO data.yaml file" in capsys.readouterr().err
    assert main(["train", "classifier", "--data", str(notes), "--out", str(tmp_path / "m")]) == 2
    assert "a classifier trains on a folder with train/" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_a_data_yaml_that_names_no_images_is_one_line(tmp_path, capsys):
    # ultralytics finds these only after loading torch, in a page of traceback.
    from device.cli import main

    data = tmp_path / "data.yaml"
    for text, said in (
        ("train: [unclosed", "is not YAML text"),
        ("- a list", "must name train:, val: and names:"),
        ("val: images/val\nnames: {0: tile}", "must name train:, val: and names:"),
        ("train: images/train\nval: images/val\nnames: {0: tile}", "train images"),
    ):
        data.write_text(text)
        assert main(["train", "detector", "--data", str(data), "--out", str(tmp_path / "m")]) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err
    assert not (tmp_path / "m").exists()


def test_a_run_that_fails_while_exporting_leaves_the_shipped_files_as_they_were(
    tmp_path, monkeypatch
):
    # The ONNX file was written into --out first and the metadata last: a run that failed in
    # between (or was stopped) left the shipped classifier replaced and its metadata stale.
    import ultralytics.models

    from vision.training import train as train_module

    out = tmp_path / "models"
    out.mkdir()
    shipped = {name: f"shipped {name}".encode() for name in ("c.onnx", "c.json", "c.pt")}
    for name, data in shipped.items():
        (out / name).write_bytes(data)

    class Run:  # ultralytics' model, training nothing
        trainer = None

        def __init__(self, *args):
            pass

        def train(self, **options):
            weights = Path(options["project"]) / options["name"] / "weights"
            weights.mkdir(parents=True)
            (weights / "last.pt").write_bytes(b"weights")

    def failing_export(checkpoint, task, imgsz, folder, name):
        (folder / f"{name}.onnx").write_bytes(b"half an export")
        raise RuntimeError("export failed")

    monkeypatch.setattr(ultralytics.models, "YOLO", Run)
    monkeypatch.setattr(train_module, "export_onnx", failing_export)
    with pytest.raises(RuntimeError, match="export failed"):
        train_module.train(settings("classify", out_dir=out, name="c"), "tilescore train")
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == shipped
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == []  # no work folder


def test_classes_a_model_cannot_name_are_refused_before_training(tmp_path):
    data = tmp_path / "data"
    for split in ("train", "val"):
        (data / split / "1m").mkdir(parents=True)
        (data / split / "zz").mkdir()
    result = tilescore("train", "classifier", "--data", data, "--out", tmp_path / "m")
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "class 'zz' (a folder in train/) is no tile code" in result.stderr
    assert not (tmp_path / "m").exists()
    for folder in ("train/zz", "val/zz", "val/1m"):
        (data / folder).rmdir()
    empty = tilescore("train", "classifier", "--data", data)
    assert "(val/ holds none)" in empty.stderr


def test_a_gpu_the_machine_has_not_is_one_line(tmp_path):
    data = tmp_path / "data"
    for split in ("train", "valid"):  # a Roboflow export's validation folder is valid/
        (data / split / "1m").mkdir(parents=True)
    result = tilescore("train", "classifier", "--data", data, "--device", "7")
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "--device 7: no GPU 7 here" in result.stderr
    from vision.training.cli import _check_device

    for device in ("cpu", "CPU", "cuda:0", "mps", "-1"):  # ultralytics' own words: its to check
        _check_device(device)

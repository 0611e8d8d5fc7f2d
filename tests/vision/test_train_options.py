"""What ultralytics is asked to train with: mosaics for the detector unless a run asks for whole
scenes, the rate and warm-up of a run that continues a checkpoint, and the classifier's crops."""

from pathlib import Path

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


def test_a_run_keeps_every_nth_epoch_only_when_asked():
    assert train_options(settings(save_period=3), Path("runs"))["save_period"] == 3
    assert "save_period" not in train_options(settings(), Path("runs"))


def test_a_save_period_below_one_epoch_is_refused_in_one_line(tmp_path):
    result = tilescore("train", "detector", "--data", tmp_path, "--save-period", "0")
    assert result.returncode == 2, result.stderr
    assert result.stderr == "error: --save-period must be 1 or more epochs, not 0\n"


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

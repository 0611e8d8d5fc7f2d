"""``tilescore train classifier --soup``: checkpoints' weights averaged into one shipped model.

The checkpoints are real ultralytics ones: the tiny throwaway classifier (tests/vision/
tiny_classifier.py) and copies of it with every weight moved by a known amount, so the soup's
weights can be checked against the arithmetic.
"""

import json

import numpy as np
import pytest
import torch

from tests.cli_run import REPO, tilescore
from vision.training.soup import average


def test_average_is_weighted_and_keeps_counters():
    first = {"w": torch.tensor([0.0, 4.0]), "n": torch.tensor(7)}
    second = {"w": torch.tensor([4.0, 8.0]), "n": torch.tensor(9)}
    mean = average([first, second], (3.0, 1.0))
    assert torch.equal(mean["w"], torch.tensor([1.0, 5.0]))
    assert int(mean["n"]) == 7  # BatchNorm's batch counter is no weight: the first's stays


def shifted_copy(checkpoint, target, shift, names=None, ema_only=False):
    """The checkpoint with every float weight moved by ``shift`` (and other class names);
    ``ema_only`` saves it as ultralytics saves its own last.pt, the weights as "ema" alone."""
    saved = torch.load(checkpoint, map_location="cpu", weights_only=False)
    model = saved.get("ema") or saved["model"]
    with torch.no_grad():
        for tensor in model.state_dict().values():
            if tensor.is_floating_point():
                tensor += shift
    if names is not None:
        model.names = names
    saved.update(model=None, ema=model) if ema_only else saved.update(model=model, ema=None)
    torch.save(saved, target)
    return target


def float_weights(checkpoint):
    saved = torch.load(checkpoint, map_location="cpu", weights_only=False)
    model = (saved.get("ema") or saved["model"]).float()
    return {k: v for k, v in model.state_dict().items() if v.is_floating_point()}


def test_a_soup_is_the_weighted_mean_shipped_as_onnx(tmp_path, throwaway_checkpoint, capsys):
    from device.cli import main
    from vision.models import OnnxModel, load_info

    plus_one = shifted_copy(throwaway_checkpoint, tmp_path / "plus_one.pt", 1.0, ema_only=True)
    out = tmp_path / "models"
    arguments = ["train", "classifier", "--soup", throwaway_checkpoint, plus_one]
    arguments += ["--weights", "1", "3", "--out", out, "--json"]

    assert main([str(a) for a in arguments]) == 0

    meta = json.loads(capsys.readouterr().out)  # stdout is the metadata alone
    assert meta == json.loads((out / "tile-classifier.json").read_text())
    assert meta["input_size"] == [32, 32]  # the size the checkpoints trained at
    assert [(i["checkpoint"], i["weight"]) for i in meta["training"]["soup"]] == [
        (str(throwaway_checkpoint), 1.0),
        (str(plus_one), 3.0),
    ]
    assert "synthetic_val" not in meta["metrics"]  # nothing to measure on without --data
    before, soup = float_weights(throwaway_checkpoint), float_weights(out / "tile-classifier.pt")
    assert before.keys() == soup.keys()
    for key, weights in before.items():
        # three parts moved by one, one part not: moved by 0.75 (half precision, as saved)
        assert torch.allclose(soup[key], (weights + 0.75).half().float(), atol=1e-2), key

    model = OnnxModel(load_info(out / "tile-classifier.json"))
    batch = np.random.default_rng(0).random((3, 3, 32, 32), dtype=np.float32)
    scores = model.run(batch)
    assert scores.shape == (3, len(meta["classes"]))
    from vision.adaptation import load_folded, measure

    folded = load_folded(out / "tile-classifier.onnx")  # --adapt works on it without torch
    assert len(measure(out / "tile-classifier.measure.onnx", batch)) == len(folded.layers) > 0


def test_a_soup_measured_on_validation_data(tmp_path, throwaway_checkpoint):
    from tests.vision.tiny_classifier import write_synthetic

    data = write_synthetic(tmp_path / "synth", np.random.default_rng(5))
    copy = shifted_copy(throwaway_checkpoint, tmp_path / "copy.pt", 0.0)
    result = tilescore(
        "train", "classifier", "--soup", throwaway_checkpoint, copy, "--data", data,
        "--out", tmp_path / "models", "--name", "souped", timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "the average of 2 checkpoints" in result.stdout
    meta = json.loads((tmp_path / "models" / "souped.json").read_text())
    assert 0.0 <= meta["metrics"]["synthetic_val"]["metrics/accuracy_top1"] <= 1.0
    assert meta["training"]["data"] == str(throwaway_checkpoint.parents[4] / "synth")


def test_json_alone_on_stdout_on_a_machines_first_run(tmp_path, throwaway_checkpoint):
    """ultralytics announces the settings file it creates on its first import, on stdout; a
    fresh machine's first ``--json`` must still print the metadata alone, and a second run must
    not rewrite the settings (two commands at once would read each other's half-written file)."""
    import os

    fresh = tmp_path / "yolo-settings"
    env = {"TILESCORE_YOLO_DIR": str(fresh)}
    settings_file = fresh / "Ultralytics" / "settings.json"
    for run in range(2):
        result = tilescore(
            "train", "classifier", "--soup", throwaway_checkpoint, throwaway_checkpoint,
            "--out", tmp_path / "models", "--json", timeout=300, env=env,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["name"] == "tile-classifier"
        if run == 0:
            assert "Settings" in result.stderr  # the announcement happened, on stderr
            written = os.stat(settings_file).st_mtime_ns
    assert json.loads(settings_file.read_text())["sync"] is False
    assert os.stat(settings_file).st_mtime_ns == written


@pytest.fixture(scope="module")
def odd_checkpoints(tmp_path_factory, throwaway_checkpoint):
    root = tmp_path_factory.mktemp("odd")
    saved = torch.load(throwaway_checkpoint, map_location="cpu", weights_only=False)
    other_names = {i: f"class{i}" for i in (saved.get("ema") or saved["model"]).names}
    (root / "notes.pt").write_text("not a checkpoint")
    return {
        "root": root,
        "good": throwaway_checkpoint,
        "renamed": shifted_copy(throwaway_checkpoint, root / "renamed.pt", 0.0, other_names),
        "detector": REPO / "models" / "tile-detector.pt",
        "notes": root / "notes.pt",
    }


@pytest.mark.parametrize(
    ("case", "message"),
    [
        (["--soup", "{good}"], "a soup needs at least two checkpoints"),
        (["--soup", "{good}", "{root}/nowhere.pt"], "nowhere.pt' not found"),
        (["--soup", "{good}", "{good}", "--weights", "1"], "--weights gives 1 weights for 2"),
        (["--soup", "{good}", "{good}", "--weights", "1", "0"], "must all be numbers more than 0"),
        (["--soup", "{good}", "{good}", "--weights", "1", "nan"], "must all be numbers more"),
        (["--soup", "{good}", "{good}", "--weights", "inf", "1"], "must all be numbers more"),
        (["--soup", "{good}", "{good}", "--weights", "1e308", "1e308"], "add up to more than"),
        (["--soup", "{good}", "{notes}"], "notes.pt' cannot be read"),
        (["--soup", "{good}", "{renamed}"], "has other classes than"),
        (["--soup", "{good}", "{detector}"], "is a detect model, not a classify one"),
        (["--soup", "{good}", "{good}", "--data", "{root}/none"], "validation data"),
        (["--soup", "{good}", "{good}", "--rollback"], "--soup does not go with"),
        (["--weights", "1", "2"], "--weights goes with --soup"),
    ],
)
def test_errors_are_one_line_and_leave_the_models(odd_checkpoints, case, message):
    out = odd_checkpoints["root"] / "models"
    arguments = [a.format(**odd_checkpoints) for a in case]
    result = tilescore("train", "classifier", *arguments, "--out", out, timeout=300)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("error: ")
    assert result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr
    assert not out.exists()  # nothing written

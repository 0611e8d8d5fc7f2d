"""``tilescore train classifier --adapt PHOTOS``: the classifier's BatchNorm statistics measured
again on a table's unlabelled photos, installed with the old classifier kept for --rollback.

The command runs for real: the shipped models (copied to a tmp folder, never changed in the
repository) read the two example photos, and the adapted classifier is exported to ONNX.
"""

import hashlib
import json
import shutil

import numpy as np
import pytest
import torch

from tests.cli_run import REPO, tilescore
from vision.training import adapt

EXAMPLES = REPO / "examples" / "photos"
MODEL_FILES = ("default.json", "tile-detector.json", "tile-detector.onnx")
CLASSIFIER_FILES = ("tile-classifier.json", "tile-classifier.onnx", "tile-classifier.pt")


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def models(tmp_path):
    folder = tmp_path / "models"
    folder.mkdir()
    for name in MODEL_FILES + CLASSIFIER_FILES:
        shutil.copyfile(REPO / "models" / name, folder / name)
    return folder


# --- the statistics, on a tiny network -------------------------------------------------------


def tiny_network():
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 4, 3, bias=False), torch.nn.BatchNorm2d(4), torch.nn.ReLU()
    )


def test_statistics_move_the_share_of_the_way_to_the_photos():
    network = tiny_network()
    with torch.no_grad():
        network[1].running_mean.fill_(2.0)
        network[1].running_var.fill_(3.0)
    weights = network[0].weight.detach().clone()
    batch = np.random.default_rng(1).normal(0.5, 0.2, (9, 3, 8, 8)).astype(np.float32)
    with torch.no_grad():
        inputs = network[0](torch.from_numpy(batch))  # what the BatchNorm layer sees
    measured_mean = inputs.mean(dim=(0, 2, 3))
    measured_var = inputs.var(dim=(0, 2, 3), unbiased=True)

    assert adapt.adapt_batchnorm(network, batch, 0.25) == 1

    layer = network[1]
    assert torch.allclose(layer.running_mean, 0.25 * measured_mean + 0.75 * 2.0, atol=1e-5)
    assert torch.allclose(layer.running_var, 0.25 * measured_var + 0.75 * 3.0, atol=1e-5)
    assert torch.equal(network[0].weight, weights)  # no weight is trained
    assert not layer.training  # left ready to read


def test_batches_count_every_crop_once(monkeypatch):
    """A photo set larger than one forward pass: each batch weighs its share of the crops, so a
    last batch of one crop does not weigh as much as all the others (it did, at first)."""
    batch = np.random.default_rng(2).normal(0.5, 0.3, (7, 3, 8, 8)).astype(np.float32)
    whole, split = tiny_network(), tiny_network()
    adapt.adapt_batchnorm(whole, batch, 1.0)
    monkeypatch.setattr(adapt, "BATCH", 3)  # batches of 3, 3 and 1
    adapt.adapt_batchnorm(split, batch, 1.0)
    assert torch.allclose(split[1].running_mean, whole[1].running_mean, atol=1e-5)


# --- the command, with the shipped models ----------------------------------------------------


def test_adapt_installs_an_adapted_classifier_and_rollback_restores_it(models):
    from vision.models import OnnxModel, load_info
    from vision.pipeline import load_pipeline

    shipped = {name: digest(models / name) for name in CLASSIFIER_FILES}
    photos = sorted(EXAMPLES.glob("*.jpg"))
    from vision.images import load_image

    found = sum(len(load_pipeline(models).read(load_image(p)).tiles) for p in photos)

    result = tilescore(
        "train", "classifier", "--adapt", EXAMPLES, "--models", models, "--json", timeout=300
    )

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)  # stdout is the report alone
    assert report["photos"] == [p.name for p in photos]
    assert report["tiles"] == found >= adapt.MIN_CROPS
    assert report["share"] == adapt.SHARE
    assert 0 <= report["reads_changed"] <= found
    meta = json.loads((models / "tile-classifier.json").read_text())
    assert meta["adapted"]["tiles"] == found
    assert meta["min_read_confidence"] == 0.25  # the runtime facts stay
    assert "before_adapting" in meta["metrics"]
    assert digest(models / "tile-classifier.onnx") != shipped["tile-classifier.onnx"]
    for name in CLASSIFIER_FILES:  # the old classifier, byte for byte, for --rollback
        assert digest(models / "previous" / name) == shipped[name]

    # The adapted classifier is a working model: same classes, and it reads the photos.
    info = load_info(models / "tile-classifier.json")
    assert [c.name for c in info.classes] == [
        c.name for c in load_info(REPO / "models" / "tile-classifier.json").classes
    ]
    OnnxModel(info, 1)
    from vision.evaluate_cli import _model_name  # what evaluate reports it as

    assert _model_name(info) == f"tile-classifier (adapted to {found} tiles of 2 photos)"
    reread = sum(len(load_pipeline(models).read(load_image(p)).tiles) for p in photos)
    assert abs(reread - found) <= 4

    # Its BatchNorm statistics moved; its weights did not.
    def state(path):
        saved = torch.load(path, map_location="cpu", weights_only=False)
        return (saved.get("ema") or saved["model"]).float().state_dict()

    old, new = (
        state(models / "previous" / "tile-classifier.pt"),
        state(models / "tile-classifier.pt"),
    )
    means = [k for k in old if k.endswith("running_mean")]
    weights = [k for k in old if k.endswith(".weight")]
    assert any(not torch.allclose(old[k], new[k]) for k in means)
    assert all(torch.equal(old[k], new[k]) for k in weights)

    rolled = tilescore("train", "classifier", "--rollback", "--models", models)
    assert rolled.returncode == 0, rolled.stderr
    for name in CLASSIFIER_FILES:
        assert digest(models / name) == shipped[name]


def test_an_unreadable_photo_is_listed_and_the_others_count(models, tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    for photo in EXAMPLES.glob("*.jpg"):
        shutil.copyfile(photo, photos / photo.name)
    (photos / "broken.jpg").write_bytes(b"\xff\xd8 not a photo")

    result = tilescore(
        "train", "classifier", "--adapt", photos, "--models", models, "--json", timeout=300
    )

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert len(report["photos"]) == 2
    assert len(report["unreadable"]) == 1 and "broken.jpg" in report["unreadable"][0]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["classifier", "--adapt", "{one}"], "found 20 tiles in 1 readable photo"),
        (["classifier", "--adapt", "{tmp}/nowhere.jpg"], "nowhere.jpg' not found"),
        (["classifier", "--adapt", "{tmp}/empty"], "no photos in"),
        (["detector", "--adapt", "{one}"], "--adapt is for the classifier"),
        (["classifier", "--adapt", "{one}", "--rollback"], "--adapt does not go with"),
        (["classifier", "--adapt", "{one}", "--name", "x"], "--name does not go with --adapt"),
    ],
)
def test_errors_are_one_line_and_leave_the_models(models, tmp_path, arguments, message):
    (tmp_path / "empty").mkdir()
    before = {name: digest(models / name) for name in CLASSIFIER_FILES}
    values = {"one": EXAMPLES / "taiwan-melds.jpg", "tmp": tmp_path}
    result = tilescore(
        "train", *[a.format(**values) for a in arguments], "--models", models, timeout=300
    )
    assert result.returncode != 0
    assert message in result.stderr
    # Progress lines may come first; the error is one line of its own, the last.
    lines = result.stderr.strip().split("\n")
    assert lines[-1].startswith("error: ") and message in lines[-1], result.stderr
    assert sum("error" in line for line in lines) == 1
    assert "Traceback" not in result.stderr
    assert {name: digest(models / name) for name in CLASSIFIER_FILES} == before
    assert not (models / "previous").exists()

"""``tilescore train classifier --adapt PHOTOS``: the classifier's BatchNorm statistics measured
again on a table's unlabelled photos, installed with the old classifier kept for --rollback.

The command runs for real: the shipped models (copied to a tmp folder, never changed in the
repository) read the two example photos, and the adapted classifier is exported to ONNX.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
import torch

from tests.cli_run import REPO, tilescore
from vision.training import adapt

EXAMPLES = REPO / "examples" / "photos"
MODEL_FILES = (
    "default.json",
    "tile-detector.json",
    "tile-detector.onnx",
    "tile-detector.int8.onnx",
    "tile-classifier-second.json",  # default.json names the second opinion: --adapt leaves it
    "tile-classifier-second.onnx",
)
PIECE_FILES = (
    "piece-classifier.json",
    "piece-classifier.onnx",
    "piece-classifier.pt",
    "piece-classifier.measure.onnx",
    "piece-classifier.bn.npz",
)
CLASSIFIER_FILES = (
    "tile-classifier.json",
    "tile-classifier.onnx",
    "tile-classifier.pt",
    "tile-classifier.measure.onnx",
    "tile-classifier.bn.npz",
)


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def models(tmp_path):
    folder = tmp_path / "models"
    folder.mkdir()
    for name in MODEL_FILES + CLASSIFIER_FILES + PIECE_FILES:
        shutil.copyfile(REPO / "models" / name, folder / name)
    return folder


# --- the statistics, with onnxruntime alone ---------------------------------------------------


def torch_network(path):
    saved = torch.load(path, map_location="cpu", weights_only=False)
    return (saved.get("ema") or saved["model"]).float().eval()


def test_the_measuring_graph_gives_each_layers_statistics_as_training_does(models):
    """The shipped measuring graph (onnxruntime) against the checkpoint's network in torch, each
    BatchNorm layer normalising by its batch: every layer's input mean and unbiased variance."""
    from vision.adaptation import load_folded, measure

    folded = load_folded(models / "tile-classifier.onnx")
    batch = np.random.default_rng(0).random((37, 3, 64, 64)).astype(np.float32)
    measured = measure(models / "tile-classifier.measure.onnx", batch)

    network = torch_network(models / "tile-classifier.pt")
    inputs = {}
    for name, module in network.named_modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            module.train()
            module.register_forward_pre_hook(lambda m, x, name=name: inputs.setdefault(name, x[0]))
    with torch.no_grad():
        network(torch.from_numpy(batch))
    assert [layer.name for layer in folded.layers] == list(inputs)  # every layer, called order
    for layer, (mean, var) in zip(folded.layers, measured, strict=True):
        x = inputs[layer.name]
        np.testing.assert_allclose(mean, x.mean(dim=(0, 2, 3)).numpy(), rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(var, x.var(dim=(0, 2, 3)).numpy(), rtol=1e-4, atol=1e-4)


def test_the_written_onnx_reads_as_the_network_with_the_mixed_statistics(models):
    """Statistics moved a share of the way, written into the folded ONNX file's bytes, read as
    the torch network reads with those statistics as its running ones."""
    import onnxruntime as ort

    from vision.adaptation import adapted_bytes, load_folded

    folded = load_folded(models / "tile-classifier.onnx")
    rng = np.random.default_rng(1)
    measured = [
        (layer.mean + rng.normal(0, 0.3, layer.channels), layer.var * rng.uniform(0.5, 2.0))
        for layer in folded.layers
    ]
    data, moved = adapted_bytes(
        (models / "tile-classifier.onnx").read_bytes(), folded, measured, 0.25
    )
    assert len(data) == (models / "tile-classifier.onnx").stat().st_size
    first = moved.layers[0]
    expected = 0.25 * measured[0][0] + 0.75 * folded.layers[0].mean
    np.testing.assert_allclose(first.mean, expected, rtol=1e-5)

    network = torch_network(models / "tile-classifier.pt")
    modules = dict(network.named_modules())
    with torch.no_grad():
        for layer in moved.layers:
            modules[layer.name].running_mean.copy_(torch.from_numpy(layer.mean))
            modules[layer.name].running_var.copy_(torch.from_numpy(layer.var))
    batch = rng.random((5, 3, 64, 64)).astype(np.float32)
    with torch.no_grad():
        want = network(torch.from_numpy(batch))
    want = (want[0] if isinstance(want, (tuple, list)) else want).numpy()
    session = ort.InferenceSession(data, providers=["CPUExecutionProvider"])
    got = session.run(None, {session.get_inputs()[0].name: batch})[0]
    np.testing.assert_allclose(got, want, atol=2e-4)
    before = ort.InferenceSession(
        str(models / "tile-classifier.onnx"), providers=["CPUExecutionProvider"]
    )
    assert not np.allclose(
        before.run(None, {before.get_inputs()[0].name: batch})[0], got, atol=2e-4
    )


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
    assert not (models / "candidate").exists()  # installed: no empty folder left behind
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

    # Its BatchNorm statistics moved; its weights did not (torch is here: the checkpoint too).
    assert meta["adapted"]["checkpoint_adapted"] is True

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


@pytest.fixture
def no_torch(tmp_path):
    """An environment as on a Raspberry Pi: importing torch (or ultralytics, which needs it)
    fails, as where the train extra is not installed."""
    fake = tmp_path / "no-torch"
    (fake / "torch").mkdir(parents=True)
    (fake / "torch" / "__init__.py").write_text("raise ImportError('no torch here')\n")
    return {"PYTHONPATH": f"{fake}:{REPO}"}


def test_adapting_needs_only_onnxruntime_where_the_files_are_shipped(models, no_torch):
    shipped_checkpoint = digest(models / "tile-classifier.pt")
    arguments = ("train", "classifier", "--adapt", EXAMPLES, "--models", models, "--json")

    first = tilescore(*arguments, timeout=300, env=no_torch)

    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    assert report["checkpoint_adapted"] is False
    assert digest(models / "tile-classifier.pt") == shipped_checkpoint  # copied, not adapted
    assert digest(models / "tile-classifier.onnx") != digest(
        models / "previous" / "tile-classifier.onnx"
    )
    # Adapting again starts from the adapted statistics: the folded file follows the ONNX file.
    second = tilescore(*arguments, timeout=300, env=no_torch)
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["tiles"] == report["tiles"]
    meta = json.loads((models / "tile-classifier.json").read_text())
    assert meta["adapted"]["earlier"]["tiles"] == report["tiles"]  # the first one, kept
    assert list(meta["metrics"]) == ["before_adapting"]
    assert "before_adapting" not in meta["metrics"]["before_adapting"]


def test_without_the_files_and_without_torch_it_says_what_to_do(models, no_torch):
    (models / "tile-classifier.measure.onnx").unlink()
    before = digest(models / "tile-classifier.onnx")

    result = tilescore(
        "train", "classifier", "--adapt", EXAMPLES, "--models", models, timeout=300, env=no_torch
    )

    assert result.returncode != 0
    line = result.stderr.strip().split("\n")[-1]
    assert "has no adaptation files" in line and "where the train extra (torch)" in line
    assert digest(models / "tile-classifier.onnx") == before


def test_without_the_files_or_the_checkpoint_it_says_the_checkpoint_is_missing(models):
    # It said to install torch, which was installed: the checkpoint was what was missing.
    (models / "tile-classifier.measure.onnx").unlink()
    (models / "tile-classifier.pt").unlink()
    result = tilescore("train", "classifier", "--adapt", EXAMPLES, "--models", models, timeout=300)
    assert result.returncode != 0
    line = result.stderr.strip().split("\n")[-1]
    assert "its checkpoint (tile-classifier.pt) is not there" in line, line


def test_a_classifier_file_that_is_no_onnx_model_is_one_line(models):
    (models / "tile-classifier.measure.onnx").unlink()  # made again from the checkpoint
    (models / "tile-classifier.onnx").write_bytes(b"junk")
    result = tilescore("train", "classifier", "--adapt", EXAMPLES, "--models", models, timeout=300)
    assert result.returncode != 0 and "Traceback" not in result.stderr, result.stderr[-1500:]
    assert "tile-classifier.onnx is no ONNX model" in result.stderr.strip().splitlines()[-1]


def test_a_failed_adaptation_leaves_a_kept_candidate_as_it_was(models):
    # A fine-tune's candidate kept in candidate/ to look at was deleted by an adaptation that
    # then found too few tiles.
    kept = models / "candidate"
    kept.mkdir()
    for suffix in (".onnx", ".json"):
        shutil.copyfile(models / f"tile-classifier{suffix}", kept / f"tile-classifier{suffix}")
    result = tilescore(
        "train", "classifier", "--adapt", EXAMPLES / "taiwan-pinghu.jpg", "--models", models,
        timeout=300,
    )  # fmt: skip
    assert result.returncode != 0 and "adapting needs at least" in result.stderr
    assert sorted(p.name for p in kept.iterdir()) == [
        "tile-classifier.json",
        "tile-classifier.onnx",
    ]
    assert not [p for p in models.iterdir() if p.name.startswith(".adapt-")]


def test_stale_files_are_made_again_where_torch_is(models):
    """A classifier fine-tuned since its files were made (its ONNX file differs): with torch
    here, adapting makes them again from the checkpoint first."""
    folded = models / "tile-classifier.bn.npz"
    from vision.adaptation import Folded

    stale = Folded.load(folded)
    Folded("0" * 64, stale.measure_sha256, stale.layers).save(folded)

    result = tilescore(
        "train", "classifier", "--adapt", EXAMPLES, "--models", models, "--json", timeout=300
    )

    assert result.returncode == 0, result.stderr
    assert "preparing tile-classifier for adapting" in result.stderr
    from vision.adaptation import load_folded

    load_folded(models / "tile-classifier.onnx")  # the installed files describe the new ONNX


def test_a_checkpoint_that_is_not_the_folded_network_is_refused(models, no_torch):
    """Adapted on a Pi (the checkpoint left as it was), then the folded-layer file lost: made
    again from that checkpoint, it would scale the weights from the wrong statistics."""
    arguments = ("train", "classifier", "--adapt", EXAMPLES, "--models", models)
    assert tilescore(*arguments, timeout=300, env=no_torch).returncode == 0
    (models / "tile-classifier.bn.npz").unlink()
    adapted = digest(models / "tile-classifier.onnx")

    result = tilescore(*arguments, timeout=300)

    assert result.returncode != 0
    assert "is not the network folded into tile-classifier.onnx" in result.stderr
    assert digest(models / "tile-classifier.onnx") == adapted


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
        (["classifier", "--adapt", "{one}"], "found 20 tiles and 0 pieces in 1 readable photo"),
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
    assert not (models / "candidate").exists()  # not even an empty folder


def test_the_piece_reader_adapts_to_the_pieces_and_rolls_back_with_the_classifier(
    models, monkeypatch
):
    """Photos that show enough pieces adapt the piece reader too, on the pieces alone; both are
    installed together, and --rollback puts both back. Photos without them leave it (above)."""
    from vision.images import load_image
    from vision.pipeline import load_pipeline

    shipped = {name: digest(models / name) for name in CLASSIFIER_FILES + PIECE_FILES}
    real = adapt.table_crops(models, sorted(EXAMPLES.glob("*.jpg")), None, lambda _: None)
    assert real.piece_crops == () and len(real.crops) >= adapt.MIN_CROPS
    # The example photos hold no pieces: their tiles, turned, stand in for a table's pieces.
    pieces = tuple(np.ascontiguousarray(np.rot90(crop)) for crop in real.crops)
    monkeypatch.setattr(
        adapt,
        "table_crops",
        lambda *_: adapt.TableCrops(real.crops, real.photos_read, (), pieces),
    )

    report = adapt.adapt(adapt.AdaptSettings(photos=(EXAMPLES,), models_dir=models))

    assert [r["reader"] for r in report["readers"]] == ["classifier", "pieces"]
    assert report["tiles"] == len(real.crops) + len(pieces)
    assert report["skipped"] == []
    piece_meta = json.loads((models / "piece-classifier.json").read_text())
    assert piece_meta["adapted"]["tiles"] == len(pieces)
    for name in ("tile-classifier.onnx", "piece-classifier.onnx"):
        assert digest(models / name) != shipped[name]
        assert digest(models / "previous" / name) == shipped[name]
    load_pipeline(models).read(load_image(EXAMPLES / "taiwan-melds.jpg"))  # both load

    rolled = tilescore("train", "classifier", "--rollback", "--models", models, "--json")
    assert rolled.returncode == 0, rolled.stderr
    for name in CLASSIFIER_FILES + PIECE_FILES:
        assert digest(models / name) == shipped[name]


def test_a_fine_tune_after_adapting_rolls_back_to_the_adapted_classifier_only(models):
    """previous/ holds one generation: after an install of the classifier alone, a rollback
    swaps the classifier and leaves the piece reader as it is."""
    from vision.training.finetune import CANDIDATE_DIR, install, model_files

    (models / "previous").mkdir()
    for name in PIECE_FILES:  # an older piece reader, from an adaptation before
        shutil.copyfile(models / name, models / "previous" / name)
    (models / "previous" / "piece-classifier.json").write_text("{}")
    candidate = model_files(models / CANDIDATE_DIR, "tile-classifier")
    candidate[".json"].parent.mkdir()
    for suffix in (".onnx", ".json"):
        shutil.copyfile(models / f"tile-classifier{suffix}", candidate[suffix])
    pieces_before = {name: digest(models / name) for name in PIECE_FILES}

    install(models, "tile-classifier")

    assert not (models / "previous" / "piece-classifier.json").exists()
    rolled = tilescore("train", "classifier", "--rollback", "--models", models, "--json")
    assert rolled.returncode == 0, rolled.stderr
    assert json.loads(rolled.stdout)["readers"] == [str(models / "tile-classifier.json")]
    assert {name: digest(models / name) for name in PIECE_FILES} == pieces_before


def test_a_photo_name_that_is_not_utf8_is_escaped_in_the_report_and_the_metadata(models, tmp_path):
    # A strict UTF-8 stdout (PYTHONIOENCODING=utf-8): the JSON was written raw and the adapted
    # classifier's metadata ended in a traceback once the statistics were measured.
    photos = tmp_path / "photos"
    photos.mkdir()
    odd = os.fsdecode(b"a\xff.jpg")
    shutil.copyfile(EXAMPLES / "taiwan-melds.jpg", photos / odd)
    shutil.copyfile(EXAMPLES / "taiwan-pinghu.jpg", photos / "taiwan-pinghu.jpg")
    result = subprocess.run(
        [sys.executable, "-m", "device.cli", "train", "classifier", "--adapt", str(photos),
         "--models", str(models), "--json"],
        capture_output=True, cwd=REPO, timeout=300,
        env=os.environ | {"PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    report = json.loads(result.stdout.decode("utf-8"))  # strict: raw bytes would fail
    assert odd in report["photos"]
    meta = json.loads((models / "tile-classifier.json").read_text("utf-8"))
    assert odd in meta["adapted"]["photos"]

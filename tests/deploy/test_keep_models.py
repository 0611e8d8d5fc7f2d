"""deploy/keep_models.sh: a reinstall or an uninstall keeps the models a table fitted or taught
(in the data folder) before the installed models folder is replaced or removed."""

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "deploy" / "keep_models.sh"


def keep(installed, shipped, data):
    return subprocess.run(
        ["bash", str(SCRIPT), str(installed), str(shipped), str(data)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


@pytest.fixture
def folders(tmp_path):
    shipped = tmp_path / "src" / "models"
    shipped.mkdir(parents=True)
    (shipped / "tile-classifier.onnx").write_bytes(b"shipped")
    (shipped / "default.json").write_text("{}")
    installed = tmp_path / "opt" / "models"
    shutil.copytree(shipped, installed)
    return shipped, installed, tmp_path / "data"


def test_the_shipped_models_as_installed_are_not_copied(folders):
    shipped, installed, data = folders
    assert keep(installed, shipped, data) == ""
    assert keep(installed, "-", data) == ""  # uninstall: no fit or fine-tune was installed
    assert not data.exists()


def test_a_fitted_classifier_is_kept_before_a_reinstall_or_an_uninstall(folders):
    shipped, installed, data = folders
    (installed / "tile-classifier.onnx").write_bytes(b"fitted to this table's set")
    (installed / "previous").mkdir()
    (installed / "previous" / "tile-classifier.onnx").write_bytes(b"shipped")
    said = keep(installed, shipped, data)
    (kept,) = data.iterdir()
    assert kept.name.startswith("models-kept-") and str(kept) in said
    assert (kept / "tile-classifier.onnx").read_bytes() == b"fitted to this table's set"
    assert (kept / "previous" / "tile-classifier.onnx").read_bytes() == b"shipped"
    assert str(data) in keep(installed, "-", data)  # uninstall keeps it too
    assert len(list(data.iterdir())) == 2  # beside the first copy, even in the same second


def test_no_installed_models_is_nothing_to_keep(tmp_path):
    assert keep(tmp_path / "none", tmp_path / "none", tmp_path / "data") == ""

"""scripts/train_gpu.sh travel-light / travel-restore on a throwaway git repository: the models a
detector lease does not read leave git's index (never the disk) and come back, and the exclude
file is as it was."""

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_gpu.sh"


def git(repo, *args):
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture
def repo(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    (tmp_path / "scripts").mkdir()
    shutil.copy(SCRIPT, tmp_path / "scripts" / "train_gpu.sh")
    (tmp_path / "models").mkdir()
    for name in ("tile-detector.pt", "tile-detector.onnx", "tile-classifier.onnx", "default.json"):
        (tmp_path / "models" / name).write_bytes(name.encode() * 100)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "models")
    (tmp_path / ".git" / "info" / "exclude").write_text("/.whl/\n/.carry/\n")
    return tmp_path


def travel(repo, verb):
    return subprocess.run(
        ["bash", "scripts/train_gpu.sh", verb], cwd=repo, capture_output=True, text=True, check=True
    ).stdout


def test_travel_light_leaves_only_the_detector_checkpoint_in_the_index(repo):
    out = travel(repo, "travel-light")
    assert "3 model files" in out and "would travel:" in out
    assert git(repo, "ls-files", "models").split() == ["models/tile-detector.pt"]
    # The others stay on disk, and git neither lists them as untracked nor as anything to add.
    assert len(list((repo / "models").iterdir())) == 4
    assert git(repo, "ls-files", "--others", "--exclude-standard") == ""
    assert "already light" in travel(repo, "travel-light")  # twice is harmless


def test_travel_restore_puts_the_index_and_the_exclude_file_back(repo):
    travel(repo, "travel-light")
    travel(repo, "travel-restore")
    assert len(git(repo, "ls-files", "models").split()) == 4
    assert git(repo, "status", "--short") == ""
    assert (repo / ".git" / "info" / "exclude").read_text() == "/.whl/\n/.carry/\n"

"""scripts/train_gpu.sh lease-classifier rehearsed on the CPU with a handful of scenes: the whole
call a lent GPU runs (scenes and keys drawn side by side, merged with grey crops, the classifier
trained on, its snapshots packed) must work here first, or a lease's minutes go into finding out.
"""

import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from datasets.synth import faces

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not faces.cjk_fonts(), reason="needs fonts-noto-cjk")


def test_the_classifier_lease_runs_end_to_end_and_packs_its_snapshots(tmp_path):
    fonts = tmp_path / "fonts"  # as .carry/fonts holds them on the GPU machine
    fonts.mkdir()
    for font in faces.cjk_fonts() + faces.cjk_fonts(brush=True):
        link = fonts / Path(font).name
        if not link.exists():
            link.symlink_to(font)
    out = tmp_path / "out"
    env = {
        **os.environ,
        "PYTHON": sys.executable,
        "DEVICE": "cpu",
        "TILESCORE_GPU_WORK": str(tmp_path / "work"),
        "TILESCORE_CJK_FONTS": str(fonts),
        "TILESCORE_SHARED_DATA": str(tmp_path / "no-shared-data"),
        "SCENES": "4",
        "KEYS": "8",
        "KEY_JOBS": "2",
        "TAIL_SECONDS": "0",
        "TRAIN_OPTIONS": "--epochs 1",
    }
    run = _lease("lease-classifier", "130", out, env)
    assert "training ended (status 0)" in run.stdout, run.stdout + run.stderr
    # Each epoch was kept as it was saved (a call killed at its limit returns those), and the
    # early copies went once the snapshots were packed.
    assert "kept early: epoch0.pt" in run.stdout
    assert {p.name for p in out.iterdir()} == {
        "tile-classifier.pt",
        "tile-classifier.json",
        "logs.tgz",
        "snapshots0.tar",
    }
    with tarfile.open(out / "snapshots0.tar") as snapshots:
        assert snapshots.getnames() == ["epoch0.pt", "last.pt"]
    # Both key-drawing processes drew their share, and it was merged in beside the scenes.
    work = tmp_path / "work"
    for n in (0, 1):
        assert any((work / f"keys{n}").rglob("*.jpg")) or any((work / f"keys{n}").rglob("*.png"))
    assert "merged at" in run.stdout

    # The second call on the still warm machine trains on from that run, on the same crops.
    more = tmp_path / "more"
    run = _lease("lease-classifier-more", "60", more, env)
    assert "training ended (status 0)" in run.stdout, run.stdout + run.stderr
    assert {"tile-classifier.pt", "tile-classifier.json", "logs.tgz", "snapshots0.tar"} <= {
        p.name for p in more.iterdir()
    }
    with tarfile.open(more / "logs.tgz") as logs:
        assert "classifier-more.log" in logs.getnames()


def test_training_on_needs_the_first_calls_run(tmp_path):
    env = {**os.environ, "TILESCORE_GPU_WORK": str(tmp_path / "empty")}
    run = _lease("lease-classifier-more", "60", tmp_path / "more", env)
    assert "no lease-classifier run in" in run.stdout


def _lease(mode: str, seconds: str, out: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """``scripts/train_gpu.sh MODE SECONDS OUT`` as the lent machine runs it."""
    return subprocess.run(
        ["bash", "scripts/train_gpu.sh", mode, seconds, str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )

"""scripts/gpu_snapshots.py: a lent GPU call killed at its limit still returns the epochs its run
saved (``follow``), and a call that ends well returns them once (``pack`` drops the early tars)."""

import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKPOINT = ROOT / "models" / "tile-classifier.pt"  # an ultralytics checkpoint, as a run saves


def test_follow_keeps_each_saved_epoch_and_skips_one_half_written(tmp_path):
    weights, out = _run_folder(tmp_path, epochs=2)
    (weights / "epoch2.pt").write_bytes(CHECKPOINT.read_bytes()[:1000])  # killed while saving
    run = _snapshots("follow", weights, out, "9", str(_ended_pid()))
    assert run.returncode == 0, run.stderr
    assert "epoch2.pt not read yet" in run.stderr
    assert _names(out) == {"early0.tar"}
    with tarfile.open(out / "early0.tar") as tar:
        assert tar.getnames() == ["epoch0.pt", "epoch1.pt"]


def test_follow_keeps_at_most_so_many_spread_over_the_run(tmp_path):
    # Every epoch of a long run is more than the 8 files a call returns.
    weights, out = _run_folder(tmp_path, epochs=7)
    run = _snapshots("follow", weights, out, "3", str(_ended_pid()))
    assert run.returncode == 0, run.stderr
    assert "kept early: epoch0.pt, epoch3.pt, epoch6.pt" in run.stdout
    with tarfile.open(out / "early0.tar") as tar:
        assert tar.getnames() == ["epoch0.pt", "epoch3.pt", "epoch6.pt"]


def test_pack_spreads_the_snapshots_and_drops_the_early_tars(tmp_path):
    weights, out = _run_folder(tmp_path, epochs=5)
    shutil.copyfile(CHECKPOINT, weights / "last.pt")
    (out / "early0.tar").write_bytes(b"")
    run = _snapshots("pack", weights, out, "3")
    assert run.returncode == 0, run.stderr
    assert _names(out) == {"snapshots0.tar"}
    with tarfile.open(out / "snapshots0.tar") as tar:
        assert tar.getnames() == ["epoch0.pt", "epoch2.pt", "epoch4.pt", "last.pt"]


def test_a_wrong_command_says_how_to_call_it(tmp_path):
    for args in (("unpack", tmp_path, tmp_path, "1"), ("follow", tmp_path, tmp_path, "1")):
        run = _snapshots(*args)
        assert run.returncode == 2
        assert "gpu_snapshots.py follow WEIGHTS OUT MOST PID" in run.stderr


def _run_folder(tmp_path: Path, epochs: int) -> tuple[Path, Path]:
    weights = tmp_path / "runs" / "tile-classifier" / "weights"
    weights.mkdir(parents=True)
    for n in range(epochs):
        shutil.copyfile(CHECKPOINT, weights / f"epoch{n}.pt")
    out = tmp_path / "out"
    out.mkdir()
    return weights, out


def _ended_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def _names(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def _snapshots(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "scripts/gpu_snapshots.py", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )

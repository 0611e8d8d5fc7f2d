"""A training run's snapshots, made small enough to come back from a lent GPU machine.

    python scripts/gpu_snapshots.py pack WEIGHTS OUT MOST         # at the end of a call
    python scripts/gpu_snapshots.py follow WEIGHTS OUT MOST PID   # beside the training

At most 8 files of at most 16 MiB come back from a call (64 MiB in all), so each snapshot is
stripped of its optimizer state (the EMA weights in half precision, as best.pt ships: 3.3 MB for
the classifier, 5.5 MB for the detector) and as many go into one tar as stay under 15 MiB.

``follow`` exists because a call that runs past its limit is killed before ``pack`` runs, and
then nothing came back (session 35: two epochs of a classifier run were saved on the machine and
lost with it). It strips each epoch as it is saved and keeps them in OUT/early*.tar, rewritten
whole and swapped in, so a kill leaves the tars of the epochs before it; ``pack`` removes them.
"""

from __future__ import annotations

import os
import sys
import tarfile
import time
from pathlib import Path

from ultralytics.utils.torch_utils import strip_optimizer

TAR_BYTES = 15 * 2**20
SETTLED_SECONDS = 3.0  # a snapshot untouched this long is written whole (torch.save takes <1 s)
POLL_SECONDS = 3.0


def stripped(path: Path) -> Path:
    """``path`` without its optimizer state, beside it; one made already is taken again."""
    target = path.parent / f"strip-{path.name}"
    if target.exists() and target.stat().st_mtime >= path.stat().st_mtime:
        return target  # follow stripped it: pack's tail has no seconds to spare
    target.unlink(missing_ok=True)
    strip_optimizer(path, str(target))  # it warns and writes nothing for a file it cannot load
    if not target.exists():
        raise ValueError("not a whole checkpoint")
    return target


def write_tars(paths: list[Path], out: Path, prefix: str) -> list[Path]:
    """``paths`` as few tars in ``out`` as fit, each under TAR_BYTES; each swapped in whole."""
    if not paths:
        return []
    per_file = max(1, TAR_BYTES // max(p.stat().st_size for p in paths))
    tars = []
    for n in range(0, len(paths), per_file):
        tar_path = out / f"{prefix}{n // per_file}.tar"
        partial = out / f".{tar_path.name}.partial"
        with tarfile.open(partial, "w") as tar:
            for path in paths[n : n + per_file]:
                tar.add(path, arcname=path.name.removeprefix("strip-"))
        os.replace(partial, tar_path)
        tars.append(tar_path)
    return tars


def epochs(weights: Path) -> list[Path]:
    return sorted(weights.glob("epoch*.pt"), key=_epoch_number)


def _epoch_number(path: Path) -> int:
    return int(path.stem[5:])  # epoch12.pt: 12


def spread(paths: list[Path], most: int) -> list[Path]:
    """At most ``most`` of ``paths`` spread evenly, the first and the last among them."""
    if len(paths) <= most:
        return paths
    if most <= 1:
        return paths[-1:]
    return list(dict.fromkeys(paths[round(i * (len(paths) - 1) / (most - 1))] for i in range(most)))


def pack(weights: Path, out: Path, most: int) -> None:
    """Up to ``most`` snapshots spread evenly over the run, and its last weights."""
    keep = spread(epochs(weights), most)
    if (weights / "last.pt").exists():
        keep.append(weights / "last.pt")
    # follow's tars go first: killed while these are written, the call still returns no more
    # files than may come back.
    for early in out.glob("early*.tar"):
        early.unlink()
    write_tars([stripped(p) for p in keep], out, "snapshots")
    print("snapshots:", ", ".join(p.name for p in keep))


def follow(weights: Path, out: Path, most: int, pid: int) -> None:
    """Each epoch snapshot stripped as it is saved, until ``pid`` ends, and OUT/early*.tar
    rewritten with at most ``most`` of them spread over the run (a long run's every epoch is
    more than 8 files of 16 MiB)."""
    done: dict[Path, Path] = {}
    while True:
        running = _alive(pid)
        now = time.time()
        # Once the run has ended nothing is being written: its last snapshot need not settle.
        fresh = [
            p
            for p in epochs(weights)
            if p not in done and (not running or now - p.stat().st_mtime > SETTLED_SECONDS)
        ]
        for path in fresh:
            try:
                done[path] = stripped(path)
            except Exception as error:  # a snapshot still being written: read it next poll
                print(f"follow: {path.name} not read yet ({error})", file=sys.stderr)
        if fresh:
            kept = spread(sorted(done, key=_epoch_number), most)
            for stale in out.glob("early*.tar"):
                stale.unlink()  # fewer tars than before once the spread thins them
            write_tars([done[p] for p in kept], out, "early")
            print("kept early:", ", ".join(p.name for p in kept), flush=True)
        if not running:
            return
        time.sleep(POLL_SECONDS)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def main(argv: list[str]) -> int:
    if len(argv) != {"pack": 4, "follow": 5}.get(argv[0] if argv else "", -1):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    weights, out, most = Path(argv[1]), Path(argv[2]), int(argv[3])
    if argv[0] == "pack":
        pack(weights, out, most)
    else:
        follow(weights, out, most, int(argv[4]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Train on several builds at once: one classify folder of hard links, one detection data.yaml.

    python -m datasets.synth.merge --out datasets/build/all234 \
        datasets/build/synth2 datasets/build/synth3 datasets/build/synth4

ultralytics reads a classifier's data from one folder, so ``OUT/classify/{train,val}/CLASS``
gathers every build's crops as hard links (no second copy on disk; a plain copy where links are
not possible). ``OUT/detect.yaml`` lists every build's detection training folder and validates on
the last build's. Build names are kept in the file names, so two builds never collide. A build of
crops alone (``datasets.synth.key_crops``) joins the classify folder only.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from datasets.synth.build import DETECTOR_CLASSES


def merge_classify(builds: list[Path], out: Path) -> int:
    """Link every build's classify crops into ``out``; returns how many files it holds."""
    count = 0
    for build in builds:
        for source in sorted((build / "classify").glob("*/*/*.jpg")):
            split, label = source.parent.parent.name, source.parent.name
            link_or_copy(source, out / split / label / source.name)
            count += 1
    return count


def link_or_copy(source: Path, target: Path) -> None:
    """``target`` as a hard link to ``source`` (a copy where links are not possible), its folder
    made; a target already there is kept."""
    if target.exists():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def detect_yaml(builds: list[Path], out: Path) -> Path | None:
    builds = [b for b in builds if (b / "detect").is_dir()]
    if not builds:
        return None
    train = ", ".join(str((b / "detect" / "images" / "train").resolve()) for b in builds)
    val = (builds[-1] / "detect" / "images" / "val").resolve()
    names = "\n".join(f"  {i}: {name}" for i, name in enumerate(DETECTOR_CLASSES))
    path = out / "detect.yaml"
    path.write_text(f"train: [{train}]\nval: [{val}]\nnames:\n{names}\n")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("builds", type=Path, nargs="+", help="datasets.synth output folders")
    args = parser.parse_args()
    for build in args.builds:
        if not (build / "classify").is_dir():
            print(f"error: {build} is not a datasets.synth build (no classify/)", file=sys.stderr)
            return 2
    args.out.mkdir(parents=True, exist_ok=True)
    crops = merge_classify(args.builds, args.out / "classify")
    yaml = detect_yaml(args.builds, args.out)
    print(f"{crops} crops in {args.out / 'classify'}; detection data: {yaml or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Train on several builds at once: one classify folder of hard links, one detection data.yaml.

    python -m datasets.synth.merge --out datasets/build/all234 \
        datasets/build/synth2 datasets/build/synth3 datasets/build/synth4

ultralytics reads a classifier's data from one folder, so ``OUT/classify/{train,val}/CLASS``
gathers every build's crops as hard links (no second copy on disk; a plain copy where links are
not possible). ``OUT/detect.yaml`` lists every build's detection training folder and validates on
the last build's (with ``--fresh-xiangqi``, ``OUT/detect`` holds hard links to every build's
scenes and the real xiangqi photos once, labelled afresh: ``merge_detect``). Build names are kept
in the file names, so two builds never collide. A build of
crops alone (``datasets.synth.key_crops``) joins the classify folder only.

``--grey-share F`` writes that share of the training crops of tiles told apart by their drawing
alone as grey copies instead of links (``grey_crop_classes``): the classifier learnt to tell a
9s from a 6s by the red of the 9s' middle column (made grey, 28% of its own validation 9s read
right against 88% in colour, and none of the real photos' nine), which a set that inks its
bamboo otherwise defeats. Grey copies make it read the drawing (docs/training.md, session 23).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from datasets.synth.build import DETECTOR_CLASSES, XIANGQI_PREFIX
from scoring.tiles import FLOWERS, MAHJONG_TILES, Suit


def grey_crop_classes() -> frozenset[str]:
    """The classes a grey crop still names: the mahjong tiles and flowers, less those whose
    colour is what tells them apart (a five from a red five, a blank 白 from a back). Xiangqi
    pieces stay in colour too: a red piece and a black one may carry the same character."""
    fives = {t.code for t in MAHJONG_TILES if t.suit is not Suit.HONOR and t.number == 5}
    return frozenset(t.code for t in (*MAHJONG_TILES, *FLOWERS)) - fives - {"5z"}


def turns_grey(name: str, share: float) -> bool:
    """Whether the crop file ``name`` is one of the ``share`` made grey: fixed by its name, so a
    merge made again makes the same ones grey."""
    return zlib.crc32(name.encode()) / 2**32 < share


def merge_classify(builds: list[Path], out: Path, grey_share: float = 0.0) -> int:
    """Link every build's classify crops into ``out``, ``grey_share`` of the training crops of
    ``grey_crop_classes`` as grey copies; returns how many files it holds."""
    count = 0
    greyable = grey_crop_classes()
    for build in builds:
        for source in sorted((build / "classify").glob("*/*/*.jpg")):
            split, label = source.parent.parent.name, source.parent.name
            target = out / split / label / source.name
            if split == "train" and label in greyable and turns_grey(source.name, grey_share):
                write_grey(source, target)
            else:
                link_or_copy(source, target)
            count += 1
    return count


def write_grey(source: Path, target: Path) -> None:
    """A grey copy of the crop ``source`` at ``target`` (three equal channels, as the network
    takes colour); a target already there is kept, and a crop OpenCV cannot read is linked as
    it is (ultralytics will say which file is broken)."""
    if target.exists():
        return
    image = cv2.imread(str(source))
    if image is None:
        link_or_copy(source, target)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(target), to_grey(image), [cv2.IMWRITE_JPEG_QUALITY, 95])


def to_grey(image: np.ndarray) -> np.ndarray:
    """A BGR image in grey, still three channels (the network takes colour): what the grey
    training crops are, and what benchmarks/colour_reliance.py reads."""
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


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


def merge_detect(
    builds: list[Path], out: Path, add_xiangqi: Callable[[Path], int] | None = None
) -> Path | None:
    """One detection folder, ``OUT/detect``, of hard links to every build's scenes, with the
    real xiangqi photos added once, afresh (``add_xiangqi``, by default build.add_real_xiangqi):
    builds made before session 19 carry them labelled the wrong way (1,552 empty board points
    as pieces), and each later build carries its own copy of all 398. Returns its data.yaml
    (``OUT/detect.yaml`` names it too), or None when no build has scenes."""
    from datasets.synth.build import add_real_xiangqi, prepare

    builds = [b for b in builds if (b / "detect").is_dir()]
    if not builds:
        return None
    prepare(out)
    for build in builds:
        for split in ("train", "val"):
            for image in sorted((build / "detect" / "images" / split).glob("*")):
                if image.name.startswith(XIANGQI_PREFIX):
                    continue
                name = f"{build.name}_{image.stem}"
                link_or_copy(image, out / "detect" / "images" / split / f"{name}{image.suffix}")
                labels = build / "detect" / "labels" / split / f"{image.stem}.txt"
                if labels.exists():
                    link_or_copy(labels, out / "detect" / "labels" / split / f"{name}.txt")
    (add_xiangqi or add_real_xiangqi)(out)
    data = out / "detect" / "data.yaml"
    (out / "detect.yaml").write_text(data.read_text())
    return data


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("builds", type=Path, nargs="+", help="datasets.synth output folders")
    parser.add_argument(
        "--fresh-xiangqi",
        action="store_true",
        help="link the builds' scenes into OUT/detect and add the real xiangqi photos once, "
        "labelled as datasets/synth/sources.py reads them now (for builds made before "
        "session 19, or to keep one copy of them)",
    )
    parser.add_argument(
        "--grey-share",
        type=float,
        default=0.0,
        metavar="F",
        help="write this share (0-1) of the training crops of tiles told apart by their drawing "
        "as grey copies, so the classifier reads the drawing, not the ink's colour",
    )
    args = parser.parse_args()
    if not 0.0 <= args.grey_share <= 1.0:
        print(f"error: --grey-share {args.grey_share} is not between 0 and 1", file=sys.stderr)
        return 2
    for build in args.builds:
        if not (build / "classify").is_dir():
            print(f"error: {build} is not a datasets.synth build (no classify/)", file=sys.stderr)
            return 2
    args.out.mkdir(parents=True, exist_ok=True)
    crops = merge_classify(args.builds, args.out / "classify", args.grey_share)
    if args.fresh_xiangqi:
        yaml = merge_detect(args.builds, args.out)
    else:
        yaml = detect_yaml(args.builds, args.out)
    print(f"{crops} crops in {args.out / 'classify'}; detection data: {yaml or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

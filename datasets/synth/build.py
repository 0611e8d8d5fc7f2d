"""Write the two training sets from synthetic scenes: YOLO detection and per-class upright crops.

    python -m datasets.synth --out datasets/build/synth --scenes 600 --seed 1

Deterministic by seed: scene ``i`` always comes from ``Random(seed * 1_000_003 + i)``.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import shutil
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from datasets.synth.faces import (
    DEFAULT_HOLLOW_SHARE,
    DEFAULT_MIX,
    DEFAULT_REAL_SHARE,
    DEFAULT_REGRID_SHARE,
    DEFAULT_REINK_SHARE,
    DEFAULT_WAISTED_SHARE,
    HOLLOW_SHARE,
    REINK_SHARE,
    WAISTED_SHARE,
    FaceLibrary,
    FaceMix,
)
from datasets.synth.scene import MAHJONG_CODES, WHITE_DRAGON_SHARE, Favoured, PlacedTile, SceneMaker
from datasets.synth.sources import shared_data, xiangqi_labels
from scoring.tiles import ALL_TILES
from vision.boxes import iou_matrix

DETECTOR_CLASSES = ("tile", "tile_rotated", "back", "back_rotated", "piece")
# "back": a face-down tile. The classifier sees it at full resolution and tells a plain white
# blank 白 from a tile's back better than the detector's 30 pixels can.
CLASSIFIER_CLASSES = tuple(t.code for t in ALL_TILES) + ("not_a_tile", "back")
# The single-stage baseline's detector reads the code itself: every tile code, plus a face-down back.
CODE_DETECTOR_CLASSES = tuple(t.code for t in ALL_TILES) + ("back",)
CROP_SIZE = 96
DETECT_MAX_SIDE = 800


def upright_crop(
    image: np.ndarray, box: tuple[float, float, float, float], rotated: bool, size: int = CROP_SIZE
) -> np.ndarray:
    """The crop the runtime gives the classifier: the box, turned a quarter if the tile lies
    sideways, squeezed to a square."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    x1, y1, x2, y2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
    crop = image[y1:y2, x1:x2]
    if crop.size == 0:
        crop = np.zeros((size, size, 3), np.uint8)
    if rotated:
        crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA)


def _jitter(box: tuple[float, float, float, float], rng: random.Random, amount: float = 0.08):  # type: ignore[no-untyped-def]
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    return (
        x1 + rng.uniform(-amount, amount) * w,
        y1 + rng.uniform(-amount, amount) * h,
        x2 + rng.uniform(-amount, amount) * w,
        y2 + rng.uniform(-amount, amount) * h,
    )


def _progress(done: int, total: int, started: float, label: str) -> None:
    width = 30
    filled = int(width * done / max(total, 1))
    rate = done / max(time.time() - started, 1e-6)
    sys.stderr.write(
        f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} {rate:.1f}/s"
    )
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _yolo_line(cls: int, box: tuple[float, float, float, float], w: int, h: int) -> str:
    x1, y1, x2, y2 = max(box[0], 0), max(box[1], 0), min(box[2], w), min(box[3], h)
    return f"{cls} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}"


def write_scene(
    image: np.ndarray, tiles: list[PlacedTile], name: str, out: Path, split: str, rng: random.Random
) -> int:
    """Write one scene to both datasets; returns the number of crops written."""
    h, w = image.shape[:2]
    scale = DETECT_MAX_SIDE / max(h, w)
    small = cv2.resize(image, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)
    cv2.imwrite(
        str(out / "detect" / "images" / split / f"{name}.jpg"),
        small,
        [cv2.IMWRITE_JPEG_QUALITY, 92],
    )
    lines = [_yolo_line(t.detector_class(), t.box(), w, h) for t in tiles]
    (out / "detect" / "labels" / split / f"{name}.txt").write_text("\n".join(lines) + "\n")
    code_lines = [_yolo_line(_code_class(t.code), t.box(), w, h) for t in tiles]
    _write_codes_copy(out, split, name, code_lines)
    crops = 0
    for i, tile in enumerate(tiles):
        code = tile.code if tile.code is not None else "back"
        if code == "back" and rng.random() < 0.4:
            continue  # backs are common: keep fewer
        crop = upright_crop(image, _jitter(tile.box(), rng), tile.rotated and not tile.piece)
        if rng.random() < 0.5:  # seen from across the table
            crop = cv2.rotate(crop, cv2.ROTATE_180)
        cv2.imwrite(str(out / "classify" / split / code / f"{name}_{i}.jpg"), crop)
        crops += 1
    tile_boxes = np.array([t.box() for t in tiles], np.float64).reshape(-1, 4)
    for j, patch in enumerate(background_patches(w, h, tile_boxes, rng)):
        crop = upright_crop(image, patch, False)
        cv2.imwrite(str(out / "classify" / split / "not_a_tile" / f"{name}_bg{j}.jpg"), crop)
    return crops


PATCHES = 2  # "not a tile" patches cut from each scene
PATCH_TRIES = 10
PATCH_OVERLAP_LIMIT = 0.35
"""A patch overlapping a tile's box this much (IoU) is that tile cut a little off, as the jittered
tile crops are (``_jitter``: IoU 0.7 and up), and is drawn again rather than taught as no tile:
about 4% of patches were (5 of 120 over 60 scenes had IoU 0.4 or more)."""


def background_patches(
    width: int, height: int, tile_boxes: np.ndarray, rng: random.Random
) -> list[tuple[float, float, float, float]]:
    """Up to ``PATCHES`` boxes of background, table clutter or parts of tiles ("not a tile"),
    none of them near enough one tile's box to be that tile (``PATCH_OVERLAP_LIMIT``)."""
    patches = []
    for _ in range(PATCHES):
        for _ in range(PATCH_TRIES):
            size = rng.randint(40, 160)
            x, y = rng.randrange(0, max(1, width - size)), rng.randrange(0, max(1, height - size))
            patch = (float(x), float(y), x + size * rng.uniform(0.6, 1.0), float(y + size))
            overlap = iou_matrix(np.array([patch]), tile_boxes).max() if len(tile_boxes) else 0.0
            if overlap < PATCH_OVERLAP_LIMIT:
                patches.append(patch)
                break
    return patches


def _code_class(code: str | None) -> int:
    return CODE_DETECTOR_CLASSES.index(code if code is not None else "back")


def _write_codes_copy(out: Path, split: str, name: str, lines: list[str]) -> None:
    """The same photo for the single-stage set: a hard link (no second copy on disk), its own
    labels. Ultralytics finds labels by the image's path, so the image needs a path of its own."""
    image = out / "detect" / "images" / split / f"{name}.jpg"
    linked = out / "detect-codes" / "images" / split / f"{name}.jpg"
    linked.unlink(missing_ok=True)
    try:
        linked.hardlink_to(image)
    except OSError:
        shutil.copyfile(image, linked)
    (out / "detect-codes" / "labels" / split / f"{name}.txt").write_text("\n".join(lines) + "\n")


def fill_empty_classes(out: Path) -> None:
    """Ultralytics needs every class in both splits: copy a crop across where one is empty."""
    for code in CLASSIFIER_CLASSES:
        folders = {split: out / "classify" / split / code for split in ("train", "val")}
        files = {split: sorted(folder.glob("*.jpg")) for split, folder in folders.items()}
        for split, other in (("val", "train"), ("train", "val")):
            if not files[split] and files[other]:
                source = files[other][0]
                shutil.copyfile(source, folders[split] / f"copy_{source.name}")


XIANGQI_PREFIX = "xq_"
"""The real xiangqi photos' file names in a build's detection folders start so."""


def add_real_xiangqi(out: Path, limit: int | None = None) -> int:
    """The real xiangqi photos, every piece as ``piece`` (the empty board points one labelling
    boxed are left out: datasets/synth/sources.py ``xiangqi_labels``). The train and valid photos
    train, less the turned copies of test photos; the test photos and those copies validate, so
    no photo is on both sides (the set's own split puts copies of 26 test photos in train)."""
    from datasets.xiangqi_real import photos, training_photos

    root = shared_data() / "xiangqi-pieces"
    trained = {photo.image for photo in training_photos(root)}
    written = 0
    for photo in photos(root)[:limit]:
        split = "train" if photo.image in trained else "val"
        stem = f"{XIANGQI_PREFIX}{photo.labels.stem}"
        lines, code_lines = [], []
        for piece in xiangqi_labels(photo.labels.read_text()):
            box = " ".join(f"{v:g}" for v in piece.box)
            lines.append(f"4 {box}")
            code_lines.append(f"{_code_class(piece.code)} {box}")
        shutil.copyfile(photo.image, out / "detect" / "images" / split / f"{stem}.jpg")
        (out / "detect" / "labels" / split / f"{stem}.txt").write_text("\n".join(lines) + "\n")
        _write_codes_copy(out, split, stem, code_lines)
        written += 1
    return written


def prepare(out: Path) -> None:
    for split in ("train", "val"):
        (out / "detect" / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "detect" / "labels" / split).mkdir(parents=True, exist_ok=True)
        for code in CLASSIFIER_CLASSES:
            (out / "classify" / split / code).mkdir(parents=True, exist_ok=True)
    for folder, classes in (("detect", DETECTOR_CLASSES), ("detect-codes", CODE_DETECTOR_CLASSES)):
        for kind in ("images", "labels"):
            for split in ("train", "val"):
                (out / folder / kind / split).mkdir(parents=True, exist_ok=True)
        names = "\n".join(f"  {i}: {n}" for i, n in enumerate(classes))
        (out / folder / "data.yaml").write_text(
            f"path: {(out / folder).resolve()}\ntrain: images/train\nval: images/val\n"
            f"names:\n{names}\n"
        )


def contact_sheet(out: Path, images: list[np.ndarray], columns: int = 4, width: int = 400) -> Path:
    tiles = []
    for image in images:
        scale = width / image.shape[1]
        small = cv2.resize(image, (width, int(image.shape[0] * scale)))
        canvas = np.zeros((width, width, 3), np.uint8)
        canvas[: min(width, small.shape[0]), :] = small[:width]
        tiles.append(canvas)
    while len(tiles) % columns:
        tiles.append(np.zeros((width, width, 3), np.uint8))
    rows = [np.hstack(tiles[i : i + columns]) for i in range(0, len(tiles), columns)]
    path = out / "contact_sheet.png"
    cv2.imwrite(str(path), np.vstack(rows))
    return path


def draw_labels(image: np.ndarray, tiles: list[PlacedTile]) -> np.ndarray:
    out = image.copy()
    colours = [(0, 255, 0), (0, 200, 255), (255, 0, 0), (255, 0, 255), (0, 0, 255)]
    for t in tiles:
        x1, y1, x2, y2 = (int(v) for v in t.box())
        cv2.rectangle(out, (x1, y1), (x2, y2), colours[t.detector_class()], 2)
        cv2.putText(
            out,
            t.code or "back",
            (x1, max(12, y1 - 3)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.5,
            (0, 0, 255),
            1,
        )
    return out


def rolled(
    image: np.ndarray, tiles: list[PlacedTile], quarters: int
) -> tuple[np.ndarray, list[PlacedTile]]:
    """The scene as a camera rolled ``quarters`` quarter turns clockwise would give it: the
    pixels turned exactly, every tile's corners with them (so a tile lying across the frame
    becomes a sideways one, ``PlacedTile.rotated``, and its detector class follows)."""
    for _ in range(quarters % 4):
        height = image.shape[0]
        image = np.ascontiguousarray(np.rot90(image, -1))  # clockwise: pixel (x, y) to (h-1-y, x)

        def turn(points: np.ndarray, height: int = height) -> np.ndarray:
            # Corners are continuous coordinates (pixel x spans x to x + 1): y becomes h - y.
            return np.stack([height - points[:, 1], points[:, 0]], axis=1)

        tiles = [
            dataclasses.replace(t, quad=turn(t.quad), face_quad=turn(t.face_quad)) for t in tiles
        ]
    return image, tiles


def _build_range(
    out: Path,
    first: int,
    stop: int,
    seed: int,
    val_share: float,
    mix: FaceMix,
    white_dragon_share: float = WHITE_DRAGON_SHARE,
    roll_share: float = 0.0,
    favoured: Favoured = (),
) -> tuple[int, list[np.ndarray]]:
    """Scenes ``first``..``stop-1``; returns the crops written and up to 12 labelled samples."""
    maker = SceneMaker(FaceLibrary(mix=mix), white_dragon_share, favoured)
    started = time.time()
    crops = 0
    samples: list[np.ndarray] = []
    for i in range(first, stop):
        rng = random.Random(seed * 1_000_003 + i)
        image, tiles = maker.make(rng)
        # Drawn only when asked, so builds without it stay what their seed made before.
        if roll_share and rng.random() < roll_share:
            image, tiles = rolled(image, tiles, rng.choice((1, 2, 3)))
        split = "val" if rng.random() < val_share else "train"
        crops += write_scene(image, tiles, f"s{seed}_{i:05d}", out, split, rng)
        if len(samples) < 12:
            samples.append(draw_labels(image, tiles))
        if first == 0:  # one progress bar: the first worker's
            _progress(i + 1, stop, started, "scenes")
    return crops, samples


def build(
    out: Path,
    scenes: int,
    seed: int,
    val_share: float = 0.1,
    real_xiangqi: bool = True,
    jobs: int = 1,
    mix: FaceMix = DEFAULT_MIX,
    white_dragon_share: float = WHITE_DRAGON_SHARE,
    roll_share: float = 0.0,
    favoured: Favoured = (),
) -> dict[str, int]:
    """Scene ``i`` depends only on ``seed`` and ``i``, so ``jobs`` processes give the same set.
    ``mix`` says how the faces are drawn (real, reinked, hollow bones); ``white_dragon_share``
    how many mahjong tiles are white dragons outright (``scene.mahjong_code``), ``favoured``
    which other codes are drawn outright and how often; ``roll_share`` how many scenes are seen
    by a camera rolled a quarter, a half or three quarters (``rolled``)."""
    prepare(out)
    step = -(-scenes // max(1, jobs))
    ranges = [
        (
            out,
            a,
            min(a + step, scenes),
            seed,
            val_share,
            mix,
            white_dragon_share,
            roll_share,
            favoured,
        )
        for a in range(0, scenes, step)
    ]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.starmap(_build_range, ranges)
    else:
        parts = [_build_range(*r) for r in ranges]
    contact_sheet(out, parts[0][1] if parts else [])
    fill_empty_classes(out)
    xiangqi = add_real_xiangqi(out) if real_xiangqi else 0
    return {"scenes": scenes, "crops": sum(p[0] for p in parts), "xiangqi_photos": xiangqi}


def _share(text: str) -> float:
    """A share from 0 to 1, or a one-line usage error."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a share from 0 to 1")
    return value


def _favour(text: str) -> tuple[str, float]:
    """``CODE=SHARE``: a mahjong tile's code and the share of picks drawn as it outright."""
    code, equals, share = text.partition("=")
    if code not in MAHJONG_CODES or not equals:
        raise argparse.ArgumentTypeError(f"{text!r} is not CODE=SHARE with a mahjong tile's code")
    return code, _share(share)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("datasets/build/synth"))
    parser.add_argument("--scenes", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-xiangqi", action="store_true")
    parser.add_argument("--jobs", type=int, default=1, help="processes to draw scenes with")
    parser.add_argument(
        "--real-share",
        type=_share,
        default=DEFAULT_REAL_SHARE,
        help=f"share of faces cut from real crops and art, not rendered (default {DEFAULT_REAL_SHARE})",
    )
    parser.add_argument(
        "--reink-share",
        type=_share,
        default=DEFAULT_REINK_SHARE,
        help=f"share of those real faces painted in another ink (suggested {REINK_SHARE})",
    )
    parser.add_argument(
        "--hollow-share",
        type=_share,
        default=DEFAULT_HOLLOW_SHARE,
        help=f"share of rendered dog bones drawn in outline (suggested {HOLLOW_SHARE})",
    )
    parser.add_argument(
        "--waisted-share",
        type=_share,
        default=DEFAULT_WAISTED_SHARE,
        help="share of rendered bamboo faces in outlined bones barred at the waist "
        f"(suggested {WAISTED_SHARE})",
    )
    parser.add_argument(
        "--regrid-share",
        type=_share,
        default=DEFAULT_REGRID_SHARE,
        help="share of the real faces of 4s, 6s and 9s that are another of them re-laid "
        "(datasets/synth/regrid.py; default 0)",
    )
    parser.add_argument(
        "--white-dragon-share",
        type=_share,
        default=WHITE_DRAGON_SHARE,
        help="share of mahjong tiles drawn as the white dragon outright, half of its rendered "
        f"faces blank (default {WHITE_DRAGON_SHARE}; blank 白 are the real tiles the detector "
        "misses most)",
    )
    parser.add_argument(
        "--favour",
        type=_favour,
        action="append",
        default=[],
        metavar="CODE=SHARE",
        help="draw this tile outright this share of the mahjong picks, after the white dragon's "
        "(repeatable; e.g. 1s=0.04 for the bird the real photos' classifier reads worst)",
    )
    parser.add_argument(
        "--roll-share",
        type=_share,
        default=0.0,
        help="share of scenes seen by a camera rolled a quarter, a half or three quarters turn "
        "(default 0: the far side of the table at the top, as people hold a phone; a detector "
        "that learnt no rolled scenes reads real photos turned a quarter far worse, "
        "benchmarks/turned_photos.py)",
    )
    args = parser.parse_args(argv)
    if args.white_dragon_share + sum(share for _, share in args.favour) > 1.0:
        parser.error("--white-dragon-share and the --favour shares add up to more than 1")
    counts = build(
        args.out,
        args.scenes,
        args.seed,
        real_xiangqi=not args.no_xiangqi,
        jobs=args.jobs,
        mix=FaceMix(
            args.real_share,
            args.reink_share,
            args.hollow_share,
            args.waisted_share,
            args.regrid_share,
        ),
        white_dragon_share=args.white_dragon_share,
        roll_share=args.roll_share,
        favoured=tuple(args.favour),
    )
    print(counts)
    return 0

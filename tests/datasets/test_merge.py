"""Merging builds: every crop linked once, detection training lists every build."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from datasets.synth.merge import detect_yaml, grey_crop_classes, merge_classify

ROOT = Path(__file__).resolve().parents[2]


def _fake_build(root: Path, seed: int) -> Path:
    for split in ("train", "val"):
        (root / "detect" / "images" / split).mkdir(parents=True)
        for label in ("1m", "not_a_tile"):
            folder = root / "classify" / split / label
            folder.mkdir(parents=True)
            (folder / f"s{seed}_00000_0.jpg").write_bytes(f"{seed}{split}{label}".encode())
    return root


def test_merge_links_every_crop_and_lists_every_training_folder(tmp_path: Path) -> None:
    a, b = _fake_build(tmp_path / "a", 1), _fake_build(tmp_path / "b", 2)
    out = tmp_path / "out"
    assert merge_classify([a, b], out / "classify") == 8
    merged = out / "classify" / "train" / "1m" / "s2_00000_0.jpg"
    assert merged.read_bytes() == b"2train1m"
    assert (
        merged.stat().st_ino == (b / "classify" / "train" / "1m" / "s2_00000_0.jpg").stat().st_ino
    )
    assert merge_classify([a, b], out / "classify") == 8  # again: nothing doubled
    text = detect_yaml([a, b], out).read_text()
    assert (
        f"train: [{(a / 'detect/images/train').resolve()}, {(b / 'detect/images/train').resolve()}]"
        in text
    )
    assert f"val: [{(b / 'detect/images/val').resolve()}]" in text
    assert "  2: back\n" in text


def test_merge_refuses_a_folder_that_is_not_a_build(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "datasets.synth.merge", "--out", str(tmp_path / "o"), str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "is not a datasets.synth build" in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_build_of_crops_alone_joins_the_classify_folder_only(tmp_path: Path) -> None:
    scenes = _fake_build(tmp_path / "scenes", 1)
    keys = tmp_path / "keys"
    (keys / "classify" / "train" / "not_a_tile").mkdir(parents=True)
    (keys / "classify" / "train" / "not_a_tile" / "key18_00001.jpg").write_bytes(b"key")
    out = tmp_path / "out"
    assert merge_classify([scenes, keys], out / "classify") == 5
    assert (out / "classify/train/not_a_tile/key18_00001.jpg").read_bytes() == b"key"
    yaml = detect_yaml([scenes, keys], out)
    assert yaml is not None
    assert f"val: [{(scenes / 'detect/images/val').resolve()}]" in yaml.read_text()
    assert "keys" not in yaml.read_text()
    assert detect_yaml([keys], tmp_path / "only_keys") is None


def test_fresh_xiangqi_links_the_scenes_and_adds_the_real_photos_once(tmp_path: Path) -> None:
    from datasets.synth.merge import merge_detect

    builds = []
    for name in ("a", "b"):
        build = _fake_build(tmp_path / name, 1)
        for stem in ("s1_00000", "xq_old"):  # a scene, and a real xiangqi photo as built then
            (build / "detect/images/train" / f"{stem}.jpg").write_bytes(f"{name}{stem}".encode())
            (build / "detect/labels/train").mkdir(parents=True, exist_ok=True)
            (build / "detect/labels/train" / f"{stem}.txt").write_text("4 0.5 0.5 0.1 0.1\n")
        builds.append(build)
    added = []

    def add_xiangqi(out: Path) -> int:
        added.append(out)
        (out / "detect/images/train/xq_new.jpg").write_bytes(b"new")
        return 1

    out = tmp_path / "out"
    data = merge_detect(builds, out, add_xiangqi)
    assert data is not None and added == [out]
    train = sorted(p.name for p in (out / "detect/images/train").iterdir())
    assert train == ["a_s1_00000.jpg", "b_s1_00000.jpg", "xq_new.jpg"]
    assert sorted(p.name for p in (out / "detect/labels/train").iterdir()) == [
        "a_s1_00000.txt",
        "b_s1_00000.txt",
    ]
    assert (out / "detect/images/train/b_s1_00000.jpg").read_bytes() == b"bs1_00000"
    assert "train: images/train" in data.read_text()
    assert (out / "detect.yaml").read_text() == data.read_text()


def _coloured_build(root: Path) -> Path:
    """A build of real JPEG crops: a red-and-blue face for each of a few classes, both splits."""
    face = np.zeros((24, 16, 3), np.uint8)
    face[:, :8] = (40, 40, 220)
    face[:, 8:] = (200, 60, 30)
    for split in ("train", "val"):
        for label in ("9s", "5s", "0s", "5z", "back", "1r", "not_a_tile"):
            folder = root / "classify" / split / label
            folder.mkdir(parents=True)
            for n in range(20):
                cv2.imwrite(str(folder / f"s7_{n:05d}_0.jpg"), face)
    return root


def _is_grey(path: Path) -> bool:
    image = cv2.imread(str(path)).astype(int)
    return bool(np.abs(image - image.mean(axis=2, keepdims=True)).max() <= 2)


def test_grey_share_greys_only_training_crops_whose_drawing_names_them(tmp_path: Path) -> None:
    build = _coloured_build(tmp_path / "b")
    out = tmp_path / "out" / "classify"
    assert merge_classify([build], out, grey_share=1.0) == 280
    assert all(_is_grey(p) for p in (out / "train" / "9s").glob("*.jpg"))
    # Colour is what tells these apart: a five from a red five, a blank 白 from a back, a red
    # piece from a black one; clutter stays as it was too. They stay links to the build's crops.
    for label in ("5s", "0s", "5z", "back", "1r", "not_a_tile"):
        kept = out / "train" / label / "s7_00000_0.jpg"
        assert kept.stat().st_ino == (build / "classify/train" / label / kept.name).stat().st_ino
    assert not any(_is_grey(p) for p in (out / "val" / "9s").glob("*.jpg"))  # judged as taken


def test_a_crop_opencv_cannot_read_is_linked_as_it_is(tmp_path: Path) -> None:
    build = _fake_build(tmp_path / "b", 3)  # its 1m crops are a few bytes, no JPEG
    out = tmp_path / "out" / "classify"
    assert merge_classify([build], out, grey_share=1.0) == 4
    assert (out / "train/1m/s3_00000_0.jpg").read_bytes() == b"3train1m"


def test_grey_share_picks_the_same_crops_each_time(tmp_path: Path) -> None:
    build = _coloured_build(tmp_path / "b")
    greys = []
    for n in (1, 2):
        out = tmp_path / f"out{n}" / "classify"
        merge_classify([build], out, grey_share=0.4)
        greys.append({p.name for p in (out / "train" / "9s").glob("*.jpg") if _is_grey(p)})
    assert greys[0] == greys[1] and 0 < len(greys[0]) < 20
    assert "9s" in grey_crop_classes() and "6z" in grey_crop_classes()


def test_a_grey_share_out_of_range_is_one_line_of_error(tmp_path: Path) -> None:
    build = _coloured_build(tmp_path / "b")
    result = subprocess.run(
        [sys.executable, "-m", "datasets.synth.merge", "--out", str(tmp_path / "o"),
         "--grey-share", "1.5", str(build)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr == "error: --grey-share 1.5 is not between 0 and 1\n"
    assert not (tmp_path / "o").exists()

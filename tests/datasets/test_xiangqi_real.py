"""The real xiangqi labels read either way they were written, turned copies found, crops cut."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np

from datasets.synth.sources import XIANGQI_CLASSES, xiangqi_labels
from datasets.xiangqi_real import (
    CROP_SIZE,
    build,
    held_out_split,
    near_duplicates,
    photos,
    training_photos,
    turned_crop,
)

BOX = "0.5 0.5 0.1 0.1"


def test_the_declared_labelling_reads_every_id_as_data_yaml_names_it() -> None:
    text = "\n".join(f"{class_id} {BOX}" for class_id in range(14))
    codes = [piece.code for piece in xiangqi_labels(text)]
    assert codes == [XIANGQI_CLASSES[i] for i in range(14)]
    assert codes[7:] == ["2r", "6r", "4r", "3r", "1r", "5r", "7r"]


def test_a_file_with_class_14_is_the_shifted_labelling_and_its_board_points_are_no_pieces() -> None:
    text = "\n".join(f"{class_id} {BOX}" for class_id in range(15))
    codes = [piece.code for piece in xiangqi_labels(text)]
    # Black pieces as declared; 7 (an empty board point) left out; 8-14 the red pieces.
    assert codes[:7] == [XIANGQI_CLASSES[i] for i in range(7)]
    assert codes[7:] == ["2r", "6r", "4r", "3r", "1r", "5r", "7r"]
    assert len(codes) == 14


def test_labels_keep_their_boxes_and_skip_rows_that_are_not_boxes() -> None:
    pieces = xiangqi_labels("4 0.25 0.5 0.125 0.0625\n\nnot a row\n3 0.1 0.2\n")
    assert [(p.code, p.box) for p in pieces] == [("1b", (0.25, 0.5, 0.125, 0.0625))]


def _board(rng: np.random.Generator) -> np.ndarray:
    return rng.integers(0, 255, (80, 80, 3), dtype=np.uint8)


def _write_set(root: Path) -> dict[str, np.ndarray]:
    """A tiny set: a train photo, its turned (and slightly lighter) copy in test, and a photo
    of its own in test and in valid."""
    rng = np.random.default_rng(0)
    boards = {"a": _board(rng), "b": _board(rng), "c": _board(rng)}
    layout = {
        ("train", "a_jpg.rf.1"): boards["a"],
        ("test", "a_jpg.rf.2"): np.clip(np.rot90(boards["a"]).astype(int) + 6, 0, 255).astype(
            np.uint8
        ),
        ("test", "b_jpg.rf.3"): boards["b"],
        ("valid", "c_jpg.rf.4"): boards["c"],
    }
    for (split, stem), image in layout.items():
        (root / split / "images").mkdir(parents=True, exist_ok=True)
        (root / split / "labels").mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(root / split / "images" / f"{stem}.jpg"), image)
        # One black horse and, in the shifted labelling, a board point and a red soldier.
        (root / split / "labels" / f"{stem}.txt").write_text(
            "5 0.5 0.5 0.4 0.4\n7 0.2 0.2 0.2 0.2\n14 0.8 0.8 0.3 0.3\n"
        )
    return boards


def test_a_turned_copy_in_test_is_found_and_only_it(tmp_path: Path) -> None:
    _write_set(tmp_path)
    every = photos(tmp_path)
    test = [p for p in every if p.split == "test"]
    copies = near_duplicates(test, [p for p in every if p.split != "test"])
    assert [p.name for p in copies] == ["a_jpg.rf.2.jpg"]
    clean, copied = held_out_split(tmp_path)
    assert [p.image.name for p in clean] == ["b_jpg.rf.3.jpg"]
    assert [p.image.name for p in copied] == ["a_jpg.rf.2.jpg"]
    # The train photo the test photo copies is not trained on; the valid photo is.
    assert [p.image.name for p in training_photos(tmp_path)] == ["c_jpg.rf.4.jpg"]


def test_crops_are_cut_from_unseen_photos_only_with_their_codes(tmp_path: Path) -> None:
    _write_set(tmp_path / "set")
    written = build(tmp_path / "out", copies=2, seed=0, root=tmp_path / "set")
    # Only the valid photo (to val, once): a horse and a red soldier, no board point.
    assert written == {"val/5b": 1, "val/7r": 1}
    crop = cv2.imread(str(next((tmp_path / "out" / "val" / "5b").glob("*.jpg"))))
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3)


def test_a_turned_crop_shows_the_piece_it_was_cut_round() -> None:
    image = np.full((200, 200, 3), 40, np.uint8)
    cv2.circle(image, (100, 100), 30, (255, 255, 255), -1)
    rng = random.Random(1)
    for _ in range(5):
        crop = turned_crop(image, (70, 70, 130, 130), rng)
        assert crop is not None
        middle = crop[CROP_SIZE // 3 : -CROP_SIZE // 3, CROP_SIZE // 3 : -CROP_SIZE // 3]
        assert middle.mean() > 240  # the piece's middle, however turned and moved
        assert crop.mean() < 230  # with the board in the corners
    assert turned_crop(image, (0, 0, 8, 40), rng) is None


def test_the_other_classes_join_from_a_synthetic_folder_and_its_pieces_stay_out(
    tmp_path: Path,
) -> None:
    from datasets.xiangqi_real import add_tiles

    synthetic = tmp_path / "synthetic"
    for split, code in (("train", "5m"), ("train", "not_a_tile"), ("val", "5m"), ("train", "3r")):
        (synthetic / split / code).mkdir(parents=True, exist_ok=True)
        (synthetic / split / code / f"s_{code}.jpg").write_bytes(b"crop")
    linked = add_tiles(tmp_path / "out", synthetic)
    assert linked == {"train/5m": 1, "train/not_a_tile": 1, "val/5m": 1}
    assert not (tmp_path / "out" / "train" / "3r").exists()
    assert (tmp_path / "out" / "val" / "5m" / "s_5m.jpg").read_bytes() == b"crop"


def test_a_cap_a_class_samples_the_other_classes_and_keeps_more_clutter(tmp_path: Path) -> None:
    from datasets.xiangqi_real import NOT_A_TILE_WEIGHT, VAL_SHARE, add_tiles

    synthetic = tmp_path / "synthetic"
    for split in ("train", "val"):
        for code in ("5m", "not_a_tile"):
            (synthetic / split / code).mkdir(parents=True)
            for n in range(100):
                (synthetic / split / code / f"{n}.jpg").write_bytes(b"crop")
    linked = add_tiles(tmp_path / "out", synthetic, per_class=16, seed=3)
    assert linked == {
        "train/5m": 16,
        "train/not_a_tile": 16 * NOT_A_TILE_WEIGHT,
        "val/5m": 16 // VAL_SHARE,
        "val/not_a_tile": 16 // VAL_SHARE * NOT_A_TILE_WEIGHT,
    }
    again = add_tiles(tmp_path / "again", synthetic, per_class=16, seed=3)
    assert again == linked
    assert sorted(p.name for p in (tmp_path / "out" / "train" / "5m").iterdir()) == sorted(
        p.name for p in (tmp_path / "again" / "train" / "5m").iterdir()
    )

"""A real, tiny ultralytics classifier for the training tests: plain-colour crops of four tiles,
one epoch at 32 pixels, over every class the shipped classifier has."""

import cv2
import numpy as np

from tests.vision.onnx_fixtures import CLASSIFIER_NAMES

COLOURS = {"1m": (200, 30, 30), "5p": (30, 30, 200), "9s": (30, 200, 30), "7z": (230, 230, 40)}


def plain_crop(rgb, rng, size=32):
    noise = rng.integers(-12, 13, (size, size, 3))
    return np.clip(np.array(rgb[::-1]) + noise, 0, 255).astype(np.uint8)  # BGR


def write_synthetic(folder, rng, train=8, val=2):
    """A classify folder with every class folder; crops for the four coloured codes only."""
    for split, count in (("train", train), ("val", val)):
        for name in CLASSIFIER_NAMES:
            (folder / split / name).mkdir(parents=True)
        for code, rgb in COLOURS.items():
            for i in range(count):
                cv2.imwrite(str(folder / split / code / f"{code}_{i}.png"), plain_crop(rgb, rng))
    return folder


def train_throwaway(root):
    """Train the tiny classifier in ``root``; returns its ultralytics checkpoint."""
    from vision.training import finetune
    from vision.training.train import TrainSettings, train

    data = write_synthetic(root / "synth", np.random.default_rng(1))
    settings = TrainSettings(
        task="classify",
        data=data,
        out_dir=root / "out",
        name="throwaway",
        epochs=1,
        imgsz=32,
        batch=16,
        device="cpu",
        start_from=None,
        workers=0,
    )
    with finetune.chatter_to_stderr():
        train(settings, "test")
    weights = root / "out" / "runs" / "throwaway" / "weights"
    return weights / "best.pt" if (weights / "best.pt").exists() else weights / "last.pt"

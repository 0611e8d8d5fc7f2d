"""Table surfaces drawn from noise: felt, wood, plain tables, cloth."""

from __future__ import annotations

import random

import cv2
import numpy as np

FELT = [(60, 110, 40), (40, 90, 30), (120, 70, 30), (90, 50, 20), (50, 50, 140)]
WOOD = [(40, 80, 150), (60, 110, 180), (30, 60, 110), (80, 130, 190)]
PLAIN = [(235, 235, 235), (200, 200, 200), (150, 150, 150), (90, 90, 90), (215, 225, 230)]
CLOTH = [(160, 140, 130), (120, 110, 150), (200, 170, 150), (80, 80, 80)]


def _noise(rng: np.random.Generator, width: int, height: int, scale: float) -> np.ndarray:
    small = rng.normal(0, 1, (max(2, int(height / scale)), max(2, int(width / scale)))).astype(
        np.float32
    )
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)


def background(rng: random.Random, width: int, height: int) -> np.ndarray:
    kind = rng.choice(("felt", "wood", "plain", "cloth"))
    gen = np.random.default_rng(rng.randrange(2**31))
    base = np.array(
        rng.choice({"felt": FELT, "wood": WOOD, "plain": PLAIN, "cloth": CLOTH}[kind]), np.float32
    )
    base = base * rng.uniform(0.8, 1.2)
    if kind == "felt":
        texture = _noise(gen, width, height, 2) * 6 + _noise(gen, width, height, 40) * 8
    elif kind == "wood":
        ys = np.linspace(0, rng.uniform(20, 60), height)[:, None]
        grain = (
            np.sin(ys + _noise(gen, width, height, 80) * 3) * 18 + _noise(gen, width, height, 3) * 5
        )
        texture = grain
        if rng.random() < 0.5:
            texture = (
                texture.T[:height, :width]
                if width <= height
                else cv2.resize(texture.T, (width, height))
            )
    elif kind == "plain":
        texture = _noise(gen, width, height, 60) * 5 + _noise(gen, width, height, 2) * 2
    else:
        xs = np.arange(width)[None, :]
        ys = np.arange(height)[:, None]
        period = rng.uniform(6, 20)
        texture = (np.sin(xs / period) * np.sin(ys / period)) * 10 + _noise(
            gen, width, height, 50
        ) * 15
    image = base[None, None, :] + texture[:, :, None]
    return np.clip(image, 0, 255).astype(np.uint8)

"""The labelled real photos read in other light: darker, brighter, a lamp's colour, a shadow, soft.

    PYTHONPATH=. python benchmarks/light_photos.py [--models models] [--threads 2]
        [--labels datasets/real/labels] [--photos ../shared/data/real-photos-unlabeled]

The 30 real photos were taken in one room's light. A table is lit by a ceiling lamp, a window or
a phone's torch, and a Pi camera sets its exposure and white balance less well than a phone: this
relights each photo the way a camera would have recorded the scene in other light, and reads it
again. Light is changed in linear values (the sRGB curve undone and redone), as it adds up in the
scene, so a stop darker halves the light, not the pixel values. Geometry is untouched: the labels
judge every row as they judge the photo as taken (boxes are where they were). The noise is drawn
from a fixed seed, the same for every model.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.threshold_sweep import add_photo_arguments  # noqa: E402
from benchmarks.turned_photos import Change, print_table, unmoved  # noqa: E402

NOISE_SEED = 25


def to_linear(image: np.ndarray) -> np.ndarray:
    """8-bit sRGB (any channel order) to linear light in 0-1."""
    values = image.astype(np.float32) / 255.0
    return np.where(values <= 0.04045, values / 12.92, ((values + 0.055) / 1.055) ** 2.4)


def to_srgb(linear: np.ndarray) -> np.ndarray:
    values = np.clip(linear, 0.0, 1.0)
    encoded = np.where(values <= 0.0031308, values * 12.92, 1.055 * values ** (1 / 2.4) - 0.055)
    return np.clip(encoded * 255.0 + 0.5, 0, 255).astype(np.uint8)


def relit(change: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
    """A change of the light in linear values, applied to an 8-bit BGR photo."""
    return lambda image: to_srgb(change(to_linear(image)))


def stops(exposure: float) -> Callable[[np.ndarray], np.ndarray]:
    return relit(lambda light: light * 2.0**exposure)


def cast(blue: float, green: float, red: float) -> Callable[[np.ndarray], np.ndarray]:
    """The light's colour as a camera that did not correct it records it (BGR gains)."""
    gains = np.array([blue, green, red], np.float32)
    return relit(lambda light: light * gains)


def dim_and_noisy(image: np.ndarray) -> np.ndarray:
    """Two stops under, and the sensor noise a dim room adds (drawn from NOISE_SEED)."""
    dark = to_srgb(to_linear(image) * 0.25).astype(np.float32)
    noise = np.random.default_rng(NOISE_SEED).normal(0.0, 5.0, dark.shape).astype(np.float32)
    return np.clip(dark + noise, 0, 255).astype(np.uint8)


def shadow_across(image: np.ndarray) -> np.ndarray:
    """A shadow falling across the table: full light at the left, a fifth of it at the right."""
    width = image.shape[1]
    ramp = np.linspace(1.0, 0.2, width, dtype=np.float32)[None, :, None]
    return relit(lambda light: light * ramp)(image)


def soft_focus(image: np.ndarray) -> np.ndarray:
    """Slightly out of focus: a blur a thousandth of the photo's long side across."""
    sigma = max(image.shape[:2]) / 1000.0
    return cv2.GaussianBlur(image, (0, 0), sigma)


def lights() -> list[Change]:
    made = [
        ("as taken", lambda image: image),
        ("a stop darker", stops(-1.0)),
        ("two stops darker, noisy", dim_and_noisy),
        ("a stop brighter", stops(1.0)),
        ("warm lamp (about 2,700 K, not corrected)", cast(0.5, 0.78, 1.0)),
        ("cool shade (about 8,000 K, not corrected)", cast(1.0, 0.9, 0.72)),
        ("a shadow across", shadow_across),
        ("soft focus", soft_focus),
    ]
    return [Change(name, apply, unmoved) for name, apply in made]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    parser.add_argument("--threads", type=int, default=2)
    add_photo_arguments(parser)
    print_table(parser.parse_args(), lights(), "light")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

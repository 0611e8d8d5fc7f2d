"""The table app with a reader that finds what a test says (no models, no inference), so a hand
is typed in as a correction, as a player would after a bad photo (one tile read, by default)."""

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from device.app.web import create_app

PHOTOS = Path(__file__).resolve().parents[2] / "examples" / "photos"
MELDS_HAND = {  # a Taiwan winning hand with a pon, a chi, a concealed kong and two flowers
    "hand": "234m567p33s",
    "win_tile": "3s",
    "melds": ["pon:777z", "chi:678s", "concealed_kong:9999m"],
    "flowers": "25f",
}


def one_tile() -> list[dict[str, Any]]:
    """What a reader finds in a photo of a hand it read badly: one tile, face down (a tile of
    every rule set's). A photo in which it finds none records no hand, so there would be
    nothing to type the hand into."""
    return [{"code": None, "box": [100.0, 500.0, 160.0, 580.0], "face_down": True,
             "rotated": False, "confidence": 0.95}]  # fmt: skip


def app_reading(
    tmp_path: Path,
    reads: Callable[[], list[Any]] = one_tile,
    photo: Path | None = PHOTOS / "taiwan-melds.jpg",
) -> Any:
    """The app on a real SQLite store under ``tmp_path/data``, the folder camera holding
    ``photo`` (none: the folder as it is), and a reader that finds ``reads()``."""
    camera = tmp_path / "camera"
    camera.mkdir(exist_ok=True)
    if photo is not None:
        shutil.copy(photo, camera / "hand.jpg")
    app = create_app(tmp_path / "data", tmp_path / "no-models", f"dir:{camera}")
    app.config["STATE"].reader.read = lambda image, red_fives=True, variant=None: reads()
    return app


def typed(client: Any, hand: dict[str, Any]) -> dict[str, Any]:
    """A hand scored from the camera (the reader finds what the test says) and then typed in as
    a correction, as a player would; the corrected hand's JSON."""
    scored = client.post("/api/score")
    assert scored.status_code == 200, scored.get_json()
    fixed = client.post(f"/api/hands/{scored.get_json()['id']}/fix", json=hand)
    assert fixed.status_code == 200, fixed.get_json()
    return fixed.get_json()  # type: ignore[no-any-return]

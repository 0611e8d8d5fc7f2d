"""Scoring on its own when the camera sees a still hand: the motion test on preview frames, and
what a still scene must be before the app records it as a hand.

The detector is fed ``(frame, time)`` and keeps no clock and no camera of its own, so tests drive
it with synthetic frames. It fires once when the scene has changed, then stayed still for
``still_s``, and differs from the scene it last fired on (or the one the app last scored): a hand
left on the table, or an empty one, is read once, not again and again.

Firing only means "read this": the app then scores the full-resolution still without saving it,
and records it only when ``not_a_win`` finds nothing missing.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from device.app.service import tiles_in
from vision.layout.problems import LACKING


@dataclass(frozen=True)
class StillSettings:
    """Grey levels are 0-255, measured on a small blurred grey picture of the frame."""

    width: int = 160
    height: int = 120
    """The picture compared: under a millisecond to make on a Pi, and a tile is still about 7 x
    10 of its pixels when the hand fills the frame's width. A fixed grid whatever the frame's
    shape: a Pi's 4:3 preview stream is the whole sensor squashed, and a full-resolution still
    squashed the same way lines up with it."""
    blur: int = 5
    """Gaussian kernel: smooths sensor noise, JPEG blocks and a camera's jitter of a pixel."""
    motion: float = 2.0
    """Mean absolute difference between consecutive frames above which the scene is moving (so is
    a change of ``scene_area`` between them, below).
    Sensor noise after the downscale and the blur is well under 1 level, and auto-exposure
    hunting about 1; an arm over the table changes a fifth of the picture by tens of levels
    (5 and more)."""
    still_s: float = 1.6
    """How long the scene must stay still after it changed: a player lays a hand in bursts, and
    the tiles are read only once the hands have left the table for a breath."""
    scene_pixel: int = 30
    scene_area: float = 0.002
    """A still scene differs from the one last read when more than ``scene_area`` of the picture
    (0.2 %: about half a tile, a tile being 0.37 % when the hand fills the frame's width) changed
    by more than ``scene_pixel`` levels, both brought to one mean brightness first (a lamp
    lightens every pixel). Not the mean difference: one tile added to a hand is too small a part
    of the frame to move the mean."""
    max_gap_s: float = 3.0
    """Frames further apart than this (the page was on another screen): no telling whether the
    scene stayed still in between, so the still time is counted again."""


def signature(frame: np.ndarray, settings: StillSettings) -> np.ndarray:
    """The small blurred grey picture frames are compared by (int16, so differences can go
    below 0)."""
    small = cv2.resize(frame, (settings.width, settings.height), interpolation=cv2.INTER_AREA)
    if small.ndim == 3:
        small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    blurred = cv2.GaussianBlur(small, (settings.blur, settings.blur), 0)
    return blurred.astype(np.int16)


def motion(a: np.ndarray, b: np.ndarray) -> float:
    """Mean absolute difference of two signatures, in grey levels."""
    return float(np.mean(np.abs(a - b)))


def changed_area(a: np.ndarray, b: np.ndarray, settings: StillSettings) -> float:
    """The part of the picture (0-1) that changed by more than ``scene_pixel`` levels, once both
    are brought to one mean brightness: a lamp switched on lightens every pixel, and read so the
    scene there since watching began was recorded as new."""
    return float(np.mean(np.abs(_levelled(a) - _levelled(b)) > settings.scene_pixel))


LEVEL = 128
"""The mean grey level pictures are moved to before they are compared for a new scene: a lamp
switched on or off lightens or darkens every pixel alike. Moved, not stretched: stretched to one
spread, a table with a dark floor in view squeezed the last tile laid below the threshold."""


def _levelled(picture: np.ndarray) -> np.ndarray:
    moved: np.ndarray = picture - np.int16(round(float(picture.mean()))) + np.int16(LEVEL)
    return moved


class StillDetector:
    """Motion on preview frames, fed one at a time with the time it was taken."""

    def __init__(self, settings: StillSettings | None = None) -> None:
        self.settings = settings or StillSettings()
        self.phase = "watching"
        """watching (nothing to do), moving, or settling (still, not for long enough yet)."""
        self._previous: np.ndarray | None = None
        self._previous_at = 0.0
        self._reference: np.ndarray | None = None
        """The scene last read (scored or rejected); at first, the scene when watching began."""
        self._changed = False
        self._still_since: float | None = None
        self._before: np.ndarray | None = None  # the reference before the last firing

    def feed(self, frame: np.ndarray, now: float) -> bool:
        """True once when the scene has gone still after a change and is a new scene."""
        settings = self.settings
        current = signature(frame, settings)
        previous, previous_at = self._previous, self._previous_at
        self._previous, self._previous_at = current, now
        if previous is None:
            # What lay there when watching began is not news: only a change is.
            if self._reference is None:
                self._reference = current
            self._still_since = now
            return False
        # Moving: the mean difference, or a small part changed a lot (a tile put down between
        # two frames, the arm never seen: too little of the picture to move the mean).
        if motion(current, previous) > settings.motion or self.differs(current, previous):
            self._changed = True
            self._still_since = None
            self.phase = "moving"
            return False
        if now - previous_at > settings.max_gap_s:
            self._still_since = now  # no telling what happened in between: from now on
        elif self._still_since is None:
            self._still_since = previous_at  # the scene has looked so since the last frame
        if not self._changed:
            self.phase = "watching"
            return False
        if now - self._still_since < settings.still_s:
            self.phase = "settling"
            return False
        self._changed = False
        self.phase = "watching"
        if self._reference is not None and not self.differs(current, self._reference):
            return False  # a hand waved over the table, and the same tiles lie there
        self._before, self._reference = self._reference, current
        return True

    def retry(self) -> None:
        """The last firing could not be acted on (the app was busy): fire again on the next
        frame if the scene is still the same."""
        self._reference = self._before
        self._changed = True
        self.phase = "settling"

    def differs(self, a: np.ndarray, b: np.ndarray) -> bool:
        return changed_area(a, b, self.settings) > self.settings.scene_area

    def handled(self, image: np.ndarray) -> None:
        """The scene in this image (a full-resolution still will do) was scored by a tap on
        Score: the scene settling now is that one, and is not read again."""
        self._reference = signature(image, self.settings)
        self._changed = False


@dataclass
class StillWatch:
    """The app's side: on or off, the detector, and what the last still scene came to (a note,
    or the hand it recorded) for the page to show. Fed from several request threads at once."""

    settings: StillSettings = field(default_factory=StillSettings)
    enabled: bool = False
    note: str | None = None
    reading: bool = False
    seq: int = 0
    """Hands recorded by themselves so far: a page that sees it grow opens ``hand``."""
    hand: int | None = None
    detector: StillDetector = field(init=False)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        self.detector = StillDetector(self.settings)

    def switch(self, enabled: bool) -> None:
        """On or off; either way watching starts afresh from the next frame."""
        with self.lock:
            self.enabled = enabled
            self.detector = StillDetector(self.settings)
            self.note = None

    def feed(self, frame: np.ndarray, now: float) -> bool:
        """True when the scene should be read now; nothing is done while switched off."""
        if not self.enabled:
            return False
        with self.lock:
            fired = self.detector.feed(frame, now)
            if self.detector.phase == "moving":
                self.note = None  # the table is changing: the last note is old news
            if fired:
                self.reading = True
            return fired

    def handled(self, image: np.ndarray) -> None:
        if not self.enabled:
            return
        with self.lock:
            self.detector.handled(image)
            self.note = None

    def busy(self) -> None:
        """``feed`` asked for a read the app could not start now: ask again on the next frame."""
        with self.lock:
            self.reading = False
            self.detector.retry()

    def again(self, note: str) -> None:
        """The still could not be taken (the camera failed): said, and the scene read again
        once the camera gives frames again, as ``busy`` does. Marked read, a winning hand left
        lying untouched was never read again, and its note blamed a camera back long since."""
        with self.lock:
            self.reading = False
            self.detector.retry()
            self.note = f"still hand: {note}; read again when the camera is back"

    def done(self, hand_id: int | None = None, note: str | None = None) -> None:
        """The read that ``feed`` asked for is over: a hand recorded, or a note why not."""
        with self.lock:
            self.reading = False
            if hand_id is not None:
                self.seq += 1
                self.hand = hand_id
            self.note = None if note is None else f"still hand: {note}"

    def to_json(self) -> dict[str, Any]:
        with self.lock:
            phase = "reading" if self.reading else self.detector.phase
            return {
                "enabled": self.enabled,
                "phase": phase if self.enabled else "off",
                "note": self.note,
                "seq": self.seq,
                "hand": self.hand,
            }


BLOCKING_PROBLEMS = LACKING | {
    "no_tiles",
    "count",
    "bad_meld",
    "face_down",
    "stray",
    "overlap",
    "no_win_tile",
    "placed",
    "sideways_in_row",
}
"""Layout problems that say the tiles are not (yet) a laid-down hand: too few or too many, a
tile apart or on top of another, face down outside a kong, a group that is no meld, a hand a
tile short that one tile alone would make a winning hand (a hand still being laid down reads so,
its last tile still in the player's hand: a tap on Score records it, a still scene not; so
too a tile the detector missed and the layout read in its place, which a person checks). Not
here: a low-confidence read, a winning tile not set apart, a gap in the row: the Score button
records such a hand for the player to check on the Result screen, and so does a still hand."""


def not_a_win(
    reading: dict[str, Any],
    problem_kinds: Sequence[str],
    result: dict[str, Any],
    expected: int | None,
) -> str | None:
    """Why a read still scene is not a complete winning hand, in a few words for the preview;
    None when it is one (the scorer gave a total, no layout problem says it is not a hand, and
    there are as many tiles as the rule set's hand has)."""
    count = tiles_in(reading)
    if count == 0:
        return "no tiles seen"
    if expected is not None and count < expected:
        return f"not a winning hand yet ({count} tiles)"
    messages = list(reading.get("problems") or [])
    for kind, message in zip(problem_kinds, messages, strict=False):
        if kind in BLOCKING_PROBLEMS:
            return f"not scored: {message}"
    if result.get("error"):
        return f"not scored: {result['error']}"
    if not result.get("winning") or result.get("total") is None:
        # The few reads of one tile that would make it win, said where the player looks.
        named = [m for k, m in zip(problem_kinds, messages, strict=False) if k == "would_win_as"]
        return named[0] if named else f"not a winning hand ({count} tiles)"
    return None


HAND_KEYS = ("hand", "win_tile", "melds", "flowers")
SAME_READS = 0.8
"""The share of a scene's boxes read as the same tiles for two photos to be one hand: a hand
corrected after it was scored differs from a new read of it in a tile or two."""


TELLING_TILES = 13
"""The fewest tiles of a hand for the same tiles twice running to be the same hand: two hands
of 14 to 17 tiles are never laid alike, two of xiangqi's five pieces may well be."""


def same_hand(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """The same hand read from two photos: its concealed tiles, winning tile, melds and flowers.
    Two mahjong hands running are never the same tiles laid alike; the same photo's tiles moved
    half a tile (the row straightened, the camera bumped) are, where ``same_layout`` says no."""
    if tiles_in(a) < TELLING_TILES:
        return False
    return all(a.get(key) == b.get(key) for key in HAND_KEYS)


def same_scene(a: Sequence[dict[str, Any]], b: Sequence[dict[str, Any]]) -> bool:
    """The same tiles where they lay, most read alike: the hand scored last read again after a
    tile of it was corrected (its reading is then no longer the new read's)."""
    pairs = _paired(a, b)
    if pairs is None or len(pairs) < TELLING_TILES:  # xiangqi's five pieces may repeat
        return False
    alike = sum(x.get("code") == y.get("code") for x, y in pairs)
    return bool(alike >= SAME_READS * len(pairs))


def same_layout(
    a: Sequence[dict[str, Any]], b: Sequence[dict[str, Any]], overlap: float = 0.5
) -> bool:
    """The same tiles in the same places: as many boxes, each overlapping one of the other's
    (intersection over union). A scored hand left on the table under a new light reads so."""
    return _paired(a, b, overlap) is not None


def _paired(
    a: Sequence[dict[str, Any]], b: Sequence[dict[str, Any]], overlap: float = 0.5
) -> list[tuple[dict[str, Any], dict[str, Any]]] | None:
    """Each box of ``a`` with the box of ``b`` it overlaps most, or None where the two are not
    as many boxes each overlapping one of the other's."""
    if len(a) != len(b) or not a:
        return None
    left = list(b)
    pairs = []
    for tile in a:
        best = max(range(len(left)), key=lambda i: _iou(tile["box"], left[i]["box"]), default=None)
        if best is None or _iou(tile["box"], left[best]["box"]) < overlap:
            return None
        pairs.append((tile, left.pop(best)))
    return pairs


def _iou(a: Sequence[float], b: Sequence[float]) -> float:
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    if width <= 0 or height <= 0:
        return 0.0
    inner = width * height
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inner
    return inner / union if union > 0 else 0.0

"""Colour checks against the photo's own faces: a plain white 白 or the back of a tile, and a
face that is not the set's.

Many sets paint nothing on the white dragon, and a blank white face and the back of a tile are
both one flat colour: the classifier, which learnt white and ivory backs too, calls some blank
白 backs (21 of its 83 misreads on the real photos). But nearly every set's backs are coloured
(yellow, green, blue) while its faces are white or ivory, and the face-up tiles in the same photo
show what white looks like under this light. So a tile read as a back whose middle has almost
no colour beside the faces' is a blank 白, and a tile read as 白 whose middle is mostly coloured is
a back. A set with white backs says so (``coloured_backs: false`` in tile_sets.json) and is left
to the classifier: there, only the tile's thickness tells them apart.

The same white tells a weakly read face from clutter: every face of a set is painted on it, so a
"tile" whose lightest part is far darker or tinted (a black keycap with a white letter) is none.
And a set's backs are all one colour: where the set says which (tile_sets.json ``back_colour``),
a weakly read "back" of another hue (a fingertip, a black box) is none either.
"""

from __future__ import annotations

import cv2
import numpy as np

BLANK_CODE = "5z"
COLOUR_STEP = 20.0
"""Lab a/b distance from the faces' white beyond which a pixel counts as coloured."""
BLANK_BELOW = 0.2
"""A "back" with less of its middle coloured than this is a blank face (the labelled real blank
白: at most 0.11, 0.19 in a box the detector drew; real backs, even lying on their side with half
the white body showing: at least 0.28)."""
BACK_ABOVE = 0.5
"""A "白" with more of its middle coloured than this is a back (a framed 白's frame stays under)."""
DARKER_LIMIT = 100.0
"""A "back" this much darker (Lab L) than the faces' white is a dark back, not a blank face."""
FACE_DARKER_LIMIT = 50.0
"""A weak face read whose lightest quarter is darker than the faces' white by more than this (Lab
L) is not a face of the set. On the labelled real photos the tiles' lightest quarters lie within
24 of the white for 95% of them (84 for a confident one in a hand's shadow); weakly read keycaps
and other clutter went to 121."""
FACE_TINT_LIMIT = 20.0
"""Nor is one whose lightest quarter is tinted more than this (Lab a/b) beside the white: real
faces stayed within 12."""
WHITE_TINT_LIMIT = 40.0
BACK_HUE_LIMIT = 25.0
"""A weak back read whose middle's hue (Lab, degrees) is further than this from the set's back
colour is not a back of the set. The real photos' 65 labelled yellow backs lay within 8 degrees
of their median colour (#d6a326, under daylight and warm lamps), the boxes the detector drew on
them within 12; the fingertips it read as backs on a palm were 37-43 degrees off, a black box
56."""
BACK_MIN_CHROMA = 15.0
"""Below this Lab chroma a colour is too grey for its hue to mean anything: such a back (a
yellow back lying on its side, its white body showing) is not judged by hue, nor is any back of
a set whose own back colour is this grey."""
NEUTRAL = 128.0  # Lab a and b of a grey, in OpenCV's 8-bit Lab
MIN_FACES = 3  # fewer face-up tiles than this say too little about the light


def face_white(face_crops: list[np.ndarray], other_crops: list[np.ndarray]) -> np.ndarray | None:
    """The Lab colour of the faces' background: each face-up crop's lightest quarter, and the
    median of those over the faces (one odd face, a red-painted 5 or a 發 in green, moves it
    little).

    A photo with too few face-up tiles (a row of backs and blank 白) has no faces to ask: then
    white is grey (Lab a = b = 128, a photo near white balance) as light as the lightest quarters
    of its tiles. None when there are no tiles at all.
    """
    if len(face_crops) >= MIN_FACES:
        white: np.ndarray = np.median([_lightest(crop) for crop in face_crops], axis=0)
        return white
    crops = face_crops + other_crops
    if not crops:
        return None
    lightness = float(np.median([_lightest(crop)[0] for crop in crops]))
    return np.array([lightness, NEUTRAL, NEUTRAL], np.float32)


def _lightest(crop: np.ndarray) -> np.ndarray:
    """The median Lab colour of a crop's lightest quarter."""
    pixels = _lab_pixels(crop)
    lightest: np.ndarray = np.median(
        pixels[pixels[:, 0] >= np.percentile(pixels[:, 0], 75)], axis=0
    )
    return lightest


def coloured_share(crop: np.ndarray, white: np.ndarray) -> tuple[float, float]:
    """How much of a crop's middle is coloured beside ``white``, and how much darker it is."""
    height, width = crop.shape[:2]
    middle = crop[height // 6 : height - height // 6, width // 6 : width - width // 6]
    pixels = _lab_pixels(middle)
    distance = np.hypot(pixels[:, 1] - white[1], pixels[:, 2] - white[2])
    return float((distance > COLOUR_STEP).mean()), float(white[0] - np.median(pixels[:, 0]))


def is_blank_face(crop: np.ndarray, white: np.ndarray) -> bool:
    """A tile the classifier read as a back is a blank 白: its middle is white like the faces."""
    share, darker = coloured_share(crop, white)
    return share < BLANK_BELOW and darker < DARKER_LIMIT


def is_back(crop: np.ndarray, white: np.ndarray) -> bool:
    """A tile the classifier read as 白 is a back: its middle is mostly coloured."""
    share, _ = coloured_share(crop, white)
    return share > BACK_ABOVE


def looks_white(white: np.ndarray) -> bool:
    """Whether the faces' colour is a white at all, and so a measure of what this set's faces
    look like (the real photos' ranged to 29 Lab a/b units from grey, under warm light)."""
    return _chroma(white) <= WHITE_TINT_LIMIT


def is_face_of_set(crop: np.ndarray, white: np.ndarray) -> bool:
    """A face-up read whose lightest quarter is the set's white: not far darker, not tinted.

    Every face in a set is painted on the same white or ivory, so its lightest quarter matches
    the other faces' under the same light; a black keycap's or a dark box's does not. Only weak
    reads are asked (the pipeline checks low-confidence ones): a confident tile in deep shadow
    stays.
    """
    lightest = _lightest(crop)
    darker = float(white[0] - lightest[0])
    tint = float(np.hypot(lightest[1] - white[1], lightest[2] - white[2]))
    return darker <= FACE_DARKER_LIMIT and tint <= FACE_TINT_LIMIT


def lab_of_hex(colour: str) -> np.ndarray:
    """``#rrggbb`` in OpenCV's 8-bit Lab, the scale the crops are measured in."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    lab: np.ndarray = _lab_pixels(np.array([[rgb[::-1]]], np.uint8))[0]
    return lab


def is_back_of_set(crop: np.ndarray, back: np.ndarray) -> bool:
    """A back read whose middle has the hue of the set's backs (``back``, Lab), or too little
    colour to say.

    Only hue is compared: light and shadow move a back's lightness and chroma a long way (the
    real yellow backs ran from chroma 40 to 70) but its hue little. Only weak reads are asked
    (the pipeline's choice), as with faces.
    """
    colour = _middle_colour(crop)
    if min(_chroma(colour), _chroma(back)) < BACK_MIN_CHROMA:
        return True
    turn = abs(_hue(colour) - _hue(back)) % 360.0
    return min(turn, 360.0 - turn) <= BACK_HUE_LIMIT


def measured_back_colour(back_crops: list[np.ndarray]) -> str | None:
    """The ``#rrggbb`` a set's backs are painted, from crops of its labelled backs: the median of
    their middles' colours (what tile_sets.json ``back_colour`` wants). None without backs."""
    if not back_crops:
        return None
    lab = np.median([_middle_colour(crop) for crop in back_crops], axis=0)
    blue, green, red = cv2.cvtColor(np.array([[lab]], np.uint8), cv2.COLOR_LAB2BGR)[0, 0]
    return f"#{red:02x}{green:02x}{blue:02x}"


def _middle_colour(crop: np.ndarray) -> np.ndarray:
    """The median Lab colour of a crop's middle half (each way): a back's, clear of its edges."""
    height, width = crop.shape[:2]
    middle = crop[height // 4 : height - height // 4, width // 4 : width - width // 4]
    colour: np.ndarray = np.median(_lab_pixels(middle), axis=0)
    return colour


def _chroma(lab: np.ndarray) -> float:
    return float(np.hypot(lab[1] - NEUTRAL, lab[2] - NEUTRAL))


def _hue(lab: np.ndarray) -> float:
    return float(np.degrees(np.arctan2(lab[2] - NEUTRAL, lab[1] - NEUTRAL)))


def _lab_pixels(image_bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image_bgr, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)

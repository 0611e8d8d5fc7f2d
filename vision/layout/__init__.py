"""Rebuild a hand from where its tiles lie: rows, groups, the winning tile, melds and flowers.

Pure geometry on detections (anything with ``code``, ``box``, ``confidence``, ``face_down``,
``rotated``); no model and no image is needed, so every rule is testable from JSON fixtures.
``reconstruct`` never raises for a strange layout: it returns its best reading and a list of
problems a person can fix.
"""

from vision.layout.problems import Problem
from vision.layout.reading import Group, MeldReading, Reading
from vision.layout.reconstruct import reconstruct, reconstruct_json
from vision.layout.tiles import LayoutTile, TileLike, from_detections

__all__ = [
    "Group",
    "LayoutTile",
    "MeldReading",
    "Problem",
    "Reading",
    "TileLike",
    "from_detections",
    "reconstruct",
    "reconstruct_json",
]

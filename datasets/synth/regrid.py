"""Real faces re-laid: the pips of one real face set out in another tile's grid.

The real crops show each tile in few sets' styles (camerash holds one 9s in the short, fat,
waisted bones of the real photos' set, and several 6s in that style), so a classifier learns a
style as the tile it saw it on. Many dot and bamboo tiles are grids of alike pips: 4 (two rows of
two), 6 bamboo (two rows of three), 9 (three of three), 8 dots (four rows of two). A real face of
one grid tile, cut into its pips where the ink's rows and columns part, and laid out in another
grid tile's rows and columns, is that other tile in the first one's style: a 9s in the fat bones
of a 6s, say. Faces whose ink does not part into the grid they should (a 6p laid as a pair over a
block, a face with a numeral in its corner) are not cut.
"""

from __future__ import annotations

import itertools
import random

import cv2
import numpy as np

GRIDS = {"s": {4: (2, 2), 6: (2, 3), 9: (3, 3)}}
"""Per suit, the grid tiles' (rows, columns) of alike pips. Not dots: their pips touch across
the columns in most sets, so the ink does not part there."""
VALLEY = 0.3
"""A cut between pips: the ink's profile there at most this share of its peak."""
SEARCH = 0.18
"""A cut is looked for this share of the ink's extent either side of where an even grid puts it."""
MIN_INK = 0.02
ALIKE = 0.25
"""The grid's cells differ from their median width, height and ink by at most this share."""


PAPER_PERCENTILE = 90  # a face's brightest tenth is its paper


def ink_share(face: np.ndarray) -> np.ndarray:
    """How much of each pixel of a BGR face is ink (0-1): darker than the paper, or coloured
    where the paper is not."""
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
    saturation = cv2.cvtColor(face, cv2.COLOR_BGR2HSV)[..., 1].astype(np.float32)
    paper = float(np.percentile(grey, PAPER_PERCENTILE))
    found: np.ndarray = np.maximum(
        np.clip((paper - grey) / max(paper - 40.0, 1.0), 0.0, 1.0),
        np.clip((saturation - 60.0) / 120.0, 0.0, 1.0),
    )
    return found


def _cuts(profile: np.ndarray, parts: int) -> list[int] | None:
    """Where a profile of ink parts into ``parts`` runs: the lowest point near each even cut,
    or None where one is not low enough."""
    if parts == 1:
        return []
    peak = float(profile.max())
    cuts = []
    for k in range(1, parts):
        centre = round(len(profile) * k / parts)
        reach = max(2, round(len(profile) * SEARCH / parts * 2))
        lo, hi = max(1, centre - reach), min(len(profile) - 1, centre + reach)
        if hi <= lo:
            return None
        window = profile[lo:hi]
        at = int(np.argmin(window))
        if window[at] > VALLEY * peak:
            return None
        # The middle of the gap the lowest point lies in, not its first column: the pips
        # either side keep their margins alike.
        low = window <= window[at] + 0.02 * peak
        start, end = at, at
        while start > 0 and low[start - 1]:
            start -= 1
        while end < len(window) - 1 and low[end + 1]:
            end += 1
        cuts.append(lo + (start + end) // 2)
    return cuts


def _extent(mask: np.ndarray, axis: int) -> tuple[int, int] | None:
    """First and last index along the other axis where the ink is more than a trace."""
    profile = mask.sum(axis=axis)
    if profile.max() <= 0:
        return None
    strong = np.nonzero(profile > 0.05 * profile.max())[0]
    return (int(strong[0]), int(strong[-1]) + 1)


def cells(face: np.ndarray, rows: int, columns: int) -> tuple[list[np.ndarray], tuple[int, ...]]:
    """The face cut into its ``rows`` x ``columns`` pips, row by row, and the ink's box (x1, y1,
    x2, y2); no cells where its ink does not part so."""
    mask = ink_share(face)
    if mask.mean() < MIN_INK:
        return [], ()
    # Leave the face's rim out: a tile's edge and shadow are not ink.
    h, w = mask.shape
    rim = max(2, round(min(h, w) * 0.04))
    mask[:rim], mask[-rim:], mask[:, :rim], mask[:, -rim:] = 0, 0, 0, 0
    ys, xs = _extent(mask, 1), _extent(mask, 0)
    if ys is None or xs is None:
        return [], ()
    (y1, y2), (x1, x2) = ys, xs
    inside = mask[y1:y2, x1:x2]
    row_cuts = _cuts(inside.sum(axis=1), rows)
    column_cuts = _cuts(inside.sum(axis=0), columns)
    if row_cuts is None or column_cuts is None:
        return [], ()
    row_edges = [0, *row_cuts, y2 - y1]
    column_edges = [0, *column_cuts, x2 - x1]
    found, amounts = [], []
    for top, bottom in itertools.pairwise(row_edges):
        for left, right in itertools.pairwise(column_edges):
            cell = face[y1 + top : y1 + bottom, x1 + left : x1 + right]
            if min(cell.shape[:2]) < 4:
                return [], ()
            found.append(cell)
            amounts.append(float(inside[top:bottom, left:right].sum()))
    # Alike pips: each cell as wide, as tall and as inked as the others, give or take. A cell
    # with a numeral in it, or none of a pip, or a cut through a pip, is not.
    for sizes in (np.diff(row_edges), np.diff(column_edges), np.array(amounts)):
        middle = float(np.median(sizes))
        if middle <= 0 or not np.all(np.abs(sizes - middle) <= ALIKE * middle):
            return [], ()
    return found, (x1, y1, x2, y2)


def relaid(
    face: np.ndarray, source: tuple[int, int], target: tuple[int, int], rng: random.Random
) -> np.ndarray | None:
    """``face``, a grid tile of ``source`` (rows, columns), with its pips laid out in ``target``'s
    grid over the same ink box and paper; None where its ink does not part into its grid."""
    found, box = cells(face, *source)
    if not found:
        return None
    x1, y1, x2, y2 = box
    rows, columns = target
    out = face.copy()
    paper = np.median(face[ink_share(face) < 0.1], axis=0)
    out[y1:y2, x1:x2] = paper.astype(np.uint8)
    height, width = (y2 - y1) / rows, (x2 - x1) / columns
    # Pips keep their width where the target has no more columns (a bone stays a bone); dots
    # keep their shape (a circle stays round), so they shrink to fit the tighter way.
    pip_w, pip_h = found[0].shape[1], found[0].shape[0]
    round_pips = abs(pip_w - pip_h) < 0.25 * max(pip_w, pip_h)
    for r in range(rows):
        for c in range(columns):
            cell = found[rng.randrange(len(found))]
            w, h = min(width, cell.shape[1]), height
            if round_pips:
                w = h = min(width, height)
            w, h = max(2, round(w)), max(2, round(h))
            cx, cy = x1 + (c + 0.5) * width, y1 + (r + 0.5) * height
            left, top = round(cx - w / 2), round(cy - h / 2)
            out[top : top + h, left : left + w] = cv2.resize(
                cell, (w, h), interpolation=cv2.INTER_AREA
            )
    return out


def regridded_faces(
    real: dict[str, list[np.ndarray]], rng: random.Random, per_source: int = 1
) -> dict[str, list[np.ndarray]]:
    """For each grid tile, faces of it re-laid from every other grid tile of its suit's real
    faces (``per_source`` draws of each face that parts into its grid)."""
    made: dict[str, list[np.ndarray]] = {}
    for suit, grids in GRIDS.items():
        for rank, source in grids.items():
            for face in real.get(f"{rank}{suit}", []):
                for target_rank, target in grids.items():
                    if target_rank == rank:
                        continue
                    for _ in range(per_source):
                        new = relaid(face, source, target, rng)
                        if new is None:
                            break
                        made.setdefault(f"{target_rank}{suit}", []).append(new)
    return made

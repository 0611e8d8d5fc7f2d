"""Real faces re-laid: a grid tile's pips cut where its ink parts, and laid in another grid."""

import random

import numpy as np

from datasets.synth.faces import FaceMix, render_bamboo
from datasets.synth.regrid import GRIDS, cells, regridded_faces, relaid


def _six(seed=0):
    # Green rods, no red: a plain grid of six alike pips.
    rng = random.Random(seed)
    while True:
        face = render_bamboo(6, rng)
        if cells(face, 2, 3)[0]:
            return face


def test_a_grid_face_parts_into_its_pips_and_not_into_another_grid():
    face = _six()
    pips, box = cells(face, 2, 3)
    assert len(pips) == 6 and len(box) == 4
    assert cells(face, 3, 3) == ([], ())  # no cut between its rows' pips
    assert cells(np.full((200, 150, 3), 235, np.uint8), 2, 3) == ([], ())  # blank: no ink


def test_a_six_re_laid_as_a_nine_parts_into_three_rows_of_three():
    face = _six()
    nine = relaid(face, GRIDS["s"][6], GRIDS["s"][9], random.Random(1))
    assert nine is not None and nine.shape == face.shape
    assert len(cells(nine, 3, 3)[0]) == 9
    assert cells(nine, 2, 3) == ([], ())
    # The paper round the ink is the face's own: the rim is untouched.
    assert np.array_equal(nine[:5], face[:5])


def test_every_grid_tile_is_made_from_the_others():
    real = {"6s": [_six(s) for s in range(3)]}
    made = regridded_faces(real, random.Random(0))
    assert set(made) == {"4s", "9s"}
    assert all(len(faces) == 3 for faces in made.values())


def test_builds_re_lay_nothing_unless_asked():
    assert FaceMix().regrid == 0.0

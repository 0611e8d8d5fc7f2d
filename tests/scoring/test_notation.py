"""Tile codes and compact notation: parse, format, and one-line errors."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import TileError
from scoring.notation import format_tiles, parse_tiles, sort_tiles
from scoring.tiles import ALL_TILES, tile_from_code


def test_every_tile_round_trips_through_its_code():
    for tile in ALL_TILES:
        assert tile_from_code(tile.code) == tile


def test_piece_characters_parse_as_codes():
    assert [t.code for t in parse_tiles("將帥兵卒")] == ["1b", "1r", "7r", "7b"]


def test_honour_characters_parse():
    assert [t.code for t in parse_tiles("東中")] == ["1z", "7z"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("123x", "unexpected 'x'"),
        ("8z", "unknown tile code '8z'"),
        ("9f", "unknown tile code '9f'"),
        ("123", "with no suit"),
        ("m", "with no number"),
        ("0z", "unknown tile code '0z'"),
    ],
)
def test_malformed_notation_is_a_one_line_error(text, message):
    with pytest.raises(TileError, match=message) as error:
        parse_tiles(text)
    assert "\n" not in str(error.value)


@given(st.lists(st.sampled_from(ALL_TILES), max_size=20))
def test_format_then_parse_gives_the_same_tiles(tiles):
    assert sort_tiles(parse_tiles(format_tiles(tiles))) == sort_tiles(tiles)

"""Every layout fixture reads back as the hand that was laid out, with the expected problems."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.layout import reconstruct

FIXTURES = Path(__file__).parents[1] / "fixtures" / "layouts"
CASES = sorted(FIXTURES.glob("*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text("utf-8"))


def test_fixtures_exist() -> None:
    assert len(CASES) >= 40


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_fixture_reads_back(path: Path) -> None:
    data = load(path)
    reading = reconstruct(data["tiles"], variant=data["variant"], seat="E")
    got = reading.to_json()
    want = data["expected"]
    assert got["hand"] == want["hand"]
    assert got["win_tile"] == want["win_tile"]
    assert got["melds"] == want["melds"]
    assert got["flowers"] == want["flowers"]
    assert sorted(p.kind for p in reading.problems) == want["problems"], got["problems"]

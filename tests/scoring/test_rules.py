"""scoring.rules: which items a set of hits keeps, whatever order the hits come in."""

from itertools import permutations

import pytest

from scoring.rules import Hit, RuleItem, resolve_hits, superseded
from scoring.variants import taiwan, xiangqi


def _item(code: str, *supersedes: str) -> RuleItem[None]:
    return RuleItem(code, code, 1, "", lambda _: None, supersedes)


def _kept(items: list[RuleItem[None]], waived: frozenset[tuple[str, str]] = frozenset()) -> set:
    hits = [(item, Hit(1, "")) for item in items]
    kept = {i.code for i in resolve_hits(hits, waived)}
    for order in permutations(hits):  # the same whatever the order
        assert {i.code for i in resolve_hits(list(order), waived)} == kept
    return kept


def test_a_superseded_item_supersedes_nothing():
    # 大四喜 removes 見風見台; an option keeps 圈風刻 beside 大四喜, and the removed 見風見台 must
    # not take it away again (it did: 圈風刻 was lost only because 見風見台 was on).
    big, any_wind, round_wind = _item("big", "any", "round"), _item("any", "round"), _item("round")
    assert _kept([big, any_wind, round_wind]) == {"big"}
    assert _kept([big, any_wind, round_wind], frozenset({("big", "round")})) == {"big", "round"}


def test_a_chain_keeps_every_other_item():
    a, b, c, d = _item("a", "b"), _item("b", "c"), _item("c", "d"), _item("d")
    assert _kept([a, b, c, d]) == {"a", "c"}


def test_an_item_that_did_not_apply_supersedes_nothing():
    hits = [(_item("a", "b"), Hit(0, "")), (_item("b"), Hit(1, ""))]
    assert superseded(hits) == set()


def test_a_cycle_is_a_table_error():
    with pytest.raises(ValueError, match="cycle"):
        _kept([_item("a", "b"), _item("b", "a")])


@pytest.mark.parametrize("table", [taiwan.TABLE, xiangqi.TABLE], ids=["taiwan", "xiangqi"])
def test_tables_have_no_cycle(table):
    superseded([(item, Hit(1, "")) for item in table])


def test_mingjiang_keeps_what_every_table_keeps(monkeypatch):
    # 明將's own resolve (its readings' items, checked apart) removed what any hit named, even
    # one that did not apply or was itself removed.
    from scoring.variants import mingjiang_table

    a, b, c = _item("a", "b"), _item("b", "c"), _item("c")
    for order, code in enumerate("abc"):
        monkeypatch.setitem(mingjiang_table._ORDER, code, order)
    hits = [(a, Hit(1, "")), (b, Hit(1, "")), (c, Hit(1, ""))]
    assert [item.code for item, _ in mingjiang_table.resolve(hits, frozenset())] == ["a", "c"]
    idle = [(a, Hit(0, "")), (b, Hit(1, ""))]
    assert [item.code for item, _ in mingjiang_table.resolve(idle, frozenset())] == ["b"]

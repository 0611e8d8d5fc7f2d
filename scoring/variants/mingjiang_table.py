"""The 和種列表 of ``shared/rules/002`` (明將麻雀) as a table: one row per 和種, in the text's order.

Values are 番. Every 例牌 is worth 十番爆棚 (10 番) and supersedes every ordinary item; a second 例牌
in the same hand adds nothing (the engine shows it at 0). Readings chosen where the text is unclear
(docs/variants/mingjiang.md; the rule options in ``mingjiang.OPTIONS`` turn the alternatives on):

* 缺一門 is "only two of 筒索萬", honours excluded, like 清一色's "only one of them" beside 混一色
  (option ``missing_suit_allows_honours``).
* 番牌 counts each set once, so a 東 triplet that is both seat and round wind is 1 番
  (option ``double_wind_counts_twice``).
* 小三元 and 大三元 keep their dragon 番牌 (the text: 會再複計); 混么九 replaces 混全帶么
  (option ``honours_and_ends_scores_outside``); 七對子 keeps 門前清 (option
  ``seven_pairs_scores_menqing``).
* 四歸二/三/四 count once per tile kind whose four copies are spread that way; a kong is one group.
* 暗槓 counts towards 三暗刻 (the text) and 四暗刻 (as 暗刻); on a discard win the triplet the
  discard completed is not concealed, which is the text's "雙碰聽必需要自摸, 單騎可以食出銃".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from scoring.errors import HandError
from scoring.hand import Event
from scoring.rules import Hit, RuleItem, superseded
from scoring.tiles import tile34
from scoring.variants.mingjiang_facts import (
    DRAGONS,
    EAST,
    ENDS,
    HAS_2_SEQUENCES,
    HAS_3_SEQUENCES,
    HAS_3_TRIPLETS,
    HAS_4_SEQUENCES,
    HAS_4_TRIPLETS,
    HAS_END_PAIR,
    HAS_FOUR_ALIKE,
    HAS_HONOUR_TRIPLET,
    HAS_TRIPLET,
    IS_SEVEN_PAIRS,
    IS_THIRTEEN_ORPHANS,
    TERMINALS,
    WINDS,
    MingjiangView,
    Shape,
    group_has_end,
    group_has_terminal,
)

Check = Callable[[MingjiangView], Hit | None]
# 七對子 and 十三么九 views have no sets and no pair, so every check that reads sets finds nothing.

LIMIT = 10
"""十番爆棚: a 例牌 scores this, and no hand counts more."""

_SUIT_NAMES = ("萬", "筒", "索")


def _fixed(why: str) -> Hit:
    return Hit(1, why)


# 門斷平類 ----------------------------------------------------------------------------------------

_MENQING = _fixed("no chi, pon or open kong (a concealed kong keeps the hand concealed)")
_ALL_SIMPLES = _fixed("no terminal or honour tile")
_PINGHU = _fixed("four sequences, no triplet or kong (open sequences allowed)")


def _menqing(v: MingjiangView) -> Hit | None:
    return _MENQING if v.facts.concealed else None


def _all_simples(v: MingjiangView) -> Hit | None:
    return _ALL_SIMPLES if v.facts.all_simples else None


def _pinghu(v: MingjiangView) -> Hit | None:
    return _PINGHU if len(v.sequences) == 4 else None


# 同花混花類 --------------------------------------------------------------------------------------


def _half_flush(v: MingjiangView) -> Hit | None:
    f = v.facts
    if len(f.suits) == 1 and f.honours:
        return Hit(1, f"one suit ({_SUIT_NAMES[next(iter(f.suits))]}) and honours")
    return None


def _full_flush(v: MingjiangView) -> Hit | None:
    f = v.facts
    if len(f.suits) == 1 and not f.honours:
        return Hit(1, f"one suit only ({_SUIT_NAMES[next(iter(f.suits))]}), no honours")
    return None


def _missing_suit(v: MingjiangView) -> Hit | None:
    f = v.facts
    if len(f.suits) != 2 or (f.honours and not f.rules["missing_suit_allows_honours"]):
        return None
    missing = next(s for s in range(3) if s not in f.suits)
    return Hit(1, f"two suits only, no {_SUIT_NAMES[missing]}")


_FIVE_GATES = _fixed("萬 筒 索, a wind and a dragon all present")


def _five_gates(v: MingjiangView) -> Hit | None:
    f = v.facts
    return _FIVE_GATES if len(f.suits) == 3 and f.winds and f.dragons else None


# 刻槓類 ------------------------------------------------------------------------------------------


def _concealed_kongs(v: MingjiangView) -> Hit | None:
    n = v.facts.concealed_kongs
    return Hit(n, f"{n} concealed kong(s), 1 番 each") if n else None


_ALL_TRIPLETS = _fixed("four triplets or kongs, no sequence")


def _all_triplets(v: MingjiangView) -> Hit | None:
    return _ALL_TRIPLETS if len(v.triplets) == 4 else None


def _three_concealed(v: MingjiangView) -> Hit | None:
    if v.concealed_triplets == 3:
        return Hit(1, "three triplets or kongs never claimed")
    return None


# 么九字牌類 --------------------------------------------------------------------------------------


def _dragon(index: int) -> Check:
    name = tile34(index).name
    hit = Hit(1, f"set of {name}", f"番牌 {name}")
    return lambda v: hit if index in v.triplets else None


def _seat_wind(v: MingjiangView) -> Hit | None:
    wind = EAST + "ESWN".index(v.ctx.seat_wind)
    if wind in v.triplets:
        return Hit(1, f"set of {tile34(wind).name}, the seat wind", f"番牌 門風{tile34(wind).name}")
    return None


def _round_wind(v: MingjiangView) -> Hit | None:
    wind = EAST + "ESWN".index(v.ctx.round_wind)
    if wind not in v.triplets:
        return None
    if v.ctx.round_wind == v.ctx.seat_wind and not v.facts.rules["double_wind_counts_twice"]:
        return None  # the same set already scored as the seat wind: 每組一番
    return Hit(1, f"set of {tile34(wind).name}, the round wind", f"番牌 圈風{tile34(wind).name}")


def _dragon_sets(v: MingjiangView) -> int:
    return sum(1 for t in v.triplets if t in DRAGONS)


_SMALL_DRAGONS = _fixed("two dragon sets and a dragon pair; the two 番牌 count too")
_BIG_DRAGONS = _fixed("sets of 白 發 中; the three 番牌 count too")


def _small_three_dragons(v: MingjiangView) -> Hit | None:
    if _dragon_sets(v) == 2 and v.pair is not None and v.pair in DRAGONS:
        return _SMALL_DRAGONS
    return None


def _big_three_dragons(v: MingjiangView) -> Hit | None:
    return _BIG_DRAGONS if _dragon_sets(v) == 3 else None


_OUTSIDE = _fixed("every set and the pair hold a terminal or an honour")
_PURE_OUTSIDE = _fixed("every set and the pair hold a terminal number tile")
_ENDS_ONLY = _fixed("only terminals and honours")


def _outside(v: MingjiangView) -> Hit | None:
    if v.pair is not None and v.pair in ENDS and all(group_has_end(g) for g in v.sets):
        return _OUTSIDE
    return None


def _pure_outside(v: MingjiangView) -> Hit | None:
    if v.pair is not None and v.pair in TERMINALS and all(group_has_terminal(g) for g in v.sets):
        return _PURE_OUTSIDE
    return None


def _ends_only(v: MingjiangView) -> Hit | None:
    return _ENDS_ONLY if v.facts.all_ends else None


# 數字組合類 --------------------------------------------------------------------------------------


def _same_sequences(v: MingjiangView) -> list[int]:
    """How many times each repeated sequence appears (only those appearing twice or more)."""
    seqs = v.sequences
    if len(seqs) < 2 or len(set(seqs)) == len(seqs):
        return []
    return sorted(n for n in Counter(seqs).values() if n > 1)


def _sequence_text(first: int) -> str:
    return f"{first % 9 + 1}{first % 9 + 2}{first % 9 + 3}{'mps'[first // 9]}"


def _pure_double(v: MingjiangView) -> Hit | None:
    return Hit(1, "two identical sequences") if _same_sequences(v) == [2] else None


def _twice_pure_double(v: MingjiangView) -> Hit | None:
    return Hit(1, "two pairs of identical sequences") if _same_sequences(v) == [2, 2] else None


def _pure_triple(v: MingjiangView) -> Hit | None:
    return Hit(1, "three identical sequences") if _same_sequences(v) == [3] else None


def _pure_quadruple(v: MingjiangView) -> Hit | None:
    if _same_sequences(v) == [4]:
        return Hit(1, f"four times {_sequence_text(v.sequences[0])}")
    return None


def _straight(v: MingjiangView) -> Hit | None:
    seqs = v.sequences
    if len(seqs) < 3:
        return None
    for suit in range(3):
        base = suit * 9
        if base in seqs and base + 3 in seqs and base + 6 in seqs:
            return Hit(1, f"123 456 789 of {_SUIT_NAMES[suit]}")
    return None


def _four_spread(uses: tuple[int, int, int], label: str) -> Check:
    """四歸N: a tile kind held four times, its copies in (sequences, triplets, pairs) = ``uses``."""

    def check(v: MingjiangView) -> Hit | None:
        found = []
        for tile in v.facts.fours:
            in_sequences = sum(1 for s in v.sequences if s <= tile < s + 3 and tile < 27)
            in_triplets = sum(1 for t in v.triplets if t == tile)
            in_pair = int(v.pair == tile)
            if (in_sequences, in_triplets, in_pair) == uses:
                found.append(tile34(tile).name)
        if not found:
            return None
        return Hit(len(found), f"the four {' '.join(found)} used in {label}")

    return check


# 三色類 ------------------------------------------------------------------------------------------


def _mixed_sequences(v: MingjiangView) -> Hit | None:
    seqs = set(v.sequences)
    for rank in range(7):
        if rank in seqs and rank + 9 in seqs and rank + 18 in seqs:
            return Hit(1, f"{rank + 1}{rank + 2}{rank + 3} in 萬 筒 索")
    return None


def _mixed_triplets(v: MingjiangView) -> Hit | None:
    sets = set(v.triplets)
    for rank in range(9):
        if rank in sets and rank + 9 in sets and rank + 18 in sets:
            return Hit(1, f"sets of {rank + 1} in 萬 筒 索")
    return None


# 偶然類 ------------------------------------------------------------------------------------------


def _after_kong(v: MingjiangView) -> Hit | None:
    ctx = v.ctx
    if not ctx.has(Event.AFTER_KONG):
        return None
    if not ctx.self_draw or not v.facts.kongs:
        raise HandError("after_kong (槓摸) is a self-draw of the tile replacing one of your kongs")
    return Hit(1, "self-drew the replacement tile after a kong")


def _robbing_kong(v: MingjiangView) -> Hit | None:
    if not v.ctx.has(Event.ROBBING_KONG):
        return None
    if v.ctx.self_draw:
        raise HandError("robbing_kong (搶明槓) wins the tile another player adds to a kong")
    return Hit(1, "won the tile another player added to a kong")


def _last_tile(v: MingjiangView) -> Hit | None:
    if not v.ctx.has(Event.LAST_TILE):
        return None
    if not v.ctx.self_draw:
        raise HandError("last_tile (海底撈月) is a self-draw; a discard after it is last_discard")
    return Hit(1, "self-drew the last tile of the wall")


def _last_discard(v: MingjiangView) -> Hit | None:
    if not v.ctx.has(Event.LAST_DISCARD):
        return None
    if v.ctx.self_draw:
        raise HandError("last_discard (河底撈魚) wins a discard, not a self-draw")
    return Hit(1, "won the discard after the last tile was drawn")


# 七對子 ------------------------------------------------------------------------------------------

_SEVEN_PAIRS = _fixed("seven pairs, concealed (four alike count as two pairs)")


def _seven_pairs(v: MingjiangView) -> Hit | None:
    return _SEVEN_PAIRS if v.shape is Shape.SEVEN_PAIRS else None


# 例牌 --------------------------------------------------------------------------------------------


def _first_turn_win(event: Event, name: str) -> Check:
    """天胡 / 地胡 / 人胡: the event says when; the checks say who may claim it."""

    def check(v: MingjiangView) -> Hit | None:
        ctx = v.ctx
        if not ctx.has(event):
            return None
        dealer = ctx.is_dealer
        if any(m.is_open for m in v.facts.hand.melds):
            raise HandError(f"{event.value} ({name}) cannot follow a chi, pon or open kong")
        if event is Event.HEAVENLY_WIN:
            if not dealer or not ctx.self_draw:
                raise HandError("heavenly_win (天胡) is the dealer's self-draw on the deal")
            if v.facts.concealed_kongs:
                return None  # 開咗暗槓就唔計
            return Hit(1, "the dealer's dealt tiles were complete")
        if dealer:
            raise HandError(f"{event.value} ({name}) is a non-dealer's win")
        if event is Event.EARTHLY_WIN:
            if ctx.self_draw or ctx.discarder not in (None, "E"):
                raise HandError("earthly_win (地胡) wins the dealer's first discard")
            if v.facts.concealed_kongs:
                raise HandError("earthly_win (地胡) is won with the 13 dealt tiles, no kong")
            return Hit(1, "ready on the deal, won the dealer's first discard")
        if v.facts.concealed_kongs:
            return None  # 之前有人上碰槓就唔計: the winner's own kong is a kong too
        return Hit(1, "won in the first go-round before anyone called")

    return check


def _winds(v: MingjiangView) -> int:
    return sum(1 for t in v.triplets if t in WINDS)


def _big_four_winds(v: MingjiangView) -> Hit | None:
    return Hit(1, "sets of all four winds") if _winds(v) == 4 else None


def _small_four_winds(v: MingjiangView) -> Hit | None:
    if _winds(v) == 3 and v.pair is not None and v.pair in WINDS:
        return Hit(1, "three wind sets and a wind pair")
    return None


def _all_honours(v: MingjiangView) -> Hit | None:
    return Hit(1, "only honour tiles") if v.facts.all_honours else None


def _all_terminals(v: MingjiangView) -> Hit | None:
    return Hit(1, "only 1s and 9s") if v.facts.all_terminals else None


def _four_kongs(v: MingjiangView) -> Hit | None:
    return Hit(1, "four kongs") if v.facts.kongs == 4 else None


def _thirteen_orphans(v: MingjiangView) -> Hit | None:
    if v.shape is Shape.THIRTEEN_ORPHANS:
        return Hit(1, "one of each terminal and honour, one of them paired")
    return None


_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _nine_gates(v: MingjiangView) -> Hit | None:
    f = v.facts
    if f.hand.melds or len(f.suits) != 1 or f.honours:
        return None
    base = next(iter(f.suits)) * 9
    extra = [f.counts[base + i] - need for i, need in enumerate(_NINE_GATES)]
    if min(extra) < 0:
        return None
    return Hit(1, f"1112345678999 and {extra.index(1) + 1}{'mps'[base // 9]}, concealed")


def _four_concealed(v: MingjiangView) -> Hit | None:
    if v.concealed_triplets == 4:
        how = "self-drawn" if v.ctx.self_draw else "won on the pair (單騎)"
        return Hit(1, f"four triplets or kongs never claimed, {how}")
    return None


# The table ---------------------------------------------------------------------------------------

_REGULAR: tuple[RuleItem[MingjiangView], ...] = (
    # 門斷平類
    RuleItem("menqing", "門前清", 1, "冇上牌或碰牌，暗槓唔破壞門清", _menqing),
    RuleItem("all_simples", "斷么九", 1, "手牌中冇么九或字牌", _all_simples),
    RuleItem("pinghu", "平和", 1, "四個順子，冇刻子或槓子，可以唔係門清", _pinghu),
    # 同花混花類
    RuleItem("half_flush", "混一色", 2, "一種數牌加字牌", _half_flush, ("missing_suit",)),
    RuleItem(
        "full_flush",
        "清一色",
        5,
        "全部一種數牌",
        _full_flush,
        ("half_flush", "missing_suit"),
    ),
    RuleItem("missing_suit", "缺一門", 1, "全部由筒索萬其中兩種組成", _missing_suit),
    RuleItem("five_gates", "五門齊", 3, "有齊筒、索、萬、風牌及三元牌", _five_gates),
    # 刻槓類
    RuleItem("concealed_kong", "暗槓", 1, "每組暗槓一番，可複合三暗刻", _concealed_kongs),
    RuleItem("all_triplets", "對對和", 2, "四個刻或槓，冇順子", _all_triplets),
    RuleItem("three_concealed", "三暗刻", 2, "三個暗刻或暗槓", _three_concealed),
    # 么九字牌類
    RuleItem("dragon_white", "番牌", 1, "三元牌刻或槓，每組一番", _dragon(31)),
    RuleItem("dragon_green", "番牌", 1, "三元牌刻或槓，每組一番", _dragon(32)),
    RuleItem("dragon_red", "番牌", 1, "三元牌刻或槓，每組一番", _dragon(33)),
    RuleItem("seat_wind", "番牌", 1, "門風刻或槓", _seat_wind),
    RuleItem("round_wind", "番牌", 1, "圈風刻或槓", _round_wind),
    RuleItem(
        "small_three_dragons",
        "小三元",
        2,
        "二個三元刻加三元牌做眼（最少4番，複計兩個三元刻子）",
        _small_three_dragons,
    ),
    RuleItem(
        "big_three_dragons",
        "大三元",
        5,
        "三個三元刻（最少8番，複計三個三元刻子）",
        _big_three_dragons,
    ),
    RuleItem("outside_hand", "混全帶么", 1, "每組面子及眼均帶么九或字牌", _outside),
    RuleItem(
        "pure_outside_hand",
        "純全帶么",
        3,
        "每組面子及眼均帶么九數牌",
        _pure_outside,
        ("outside_hand",),
    ),
    RuleItem("honours_and_ends", "混么九", 5, "全由么九加字牌組成", _ends_only, ("outside_hand",)),
    # 數字組合類
    RuleItem("pure_double", "一般高", 1, "兩組同花同數字順子", _pure_double),
    RuleItem(
        "twice_pure_double",
        "雙般高",
        3,
        "兩個一般高",
        _twice_pure_double,
        ("pure_double",),
    ),
    RuleItem(
        "pure_triple",
        "一色三順",
        3,
        "三組同花同數字順子",
        _pure_triple,
        ("pure_double",),
    ),
    RuleItem("straight", "一條龍", 1, "一門有123 456 789", _straight),
    RuleItem(
        "four_in_two",
        "四歸二",
        1,
        "四張相同用喺一組刻子同順子",
        _four_spread((1, 1, 0), "a set and a sequence"),
    ),
    RuleItem(
        "four_in_three",
        "四歸三",
        2,
        "四張相同用喺一對眼同兩組順子",
        _four_spread((2, 0, 1), "the pair and two sequences"),
    ),
    RuleItem(
        "four_in_four",
        "四歸四",
        3,
        "四張相同用喺四組順子（最少5番）",
        _four_spread((4, 0, 0), "four sequences"),
    ),
    # 三色類
    RuleItem("mixed_sequences", "三姊妹", 1, "筒索萬同數字順子", _mixed_sequences),
    RuleItem("mixed_triplets", "三兄弟", 2, "筒索萬同數字刻或槓", _mixed_triplets),
    # 偶然類
    RuleItem("after_kong", "槓摸", 1, "補槓時自摸食出", _after_kong),
    RuleItem("robbing_kong", "搶明槓", 1, "食其他人加槓嘅牌", _robbing_kong),
    RuleItem("last_tile", "海底撈月", 1, "海底牌自摸", _last_tile),
    RuleItem("last_discard", "河底撈魚", 1, "人地摸完海底牌後食佢打出嘅牌", _last_discard),
    # 七對子
    RuleItem(
        "seven_pairs",
        "七對子",
        3,
        "七對牌，四隻一樣當兩對，要門前清",
        _seven_pairs,
        ("menqing",),
    ),
)

REGULAR_CODES = tuple(item.code for item in _REGULAR)


def _limit(code: str, name: str, condition: str, check: Check) -> RuleItem[MingjiangView]:
    return RuleItem(code, name, LIMIT, condition, check, REGULAR_CODES)


LIMITS: tuple[RuleItem[MingjiangView], ...] = (
    _limit(
        "heavenly_win",
        "天胡",
        "莊家配完牌就食出，開咗暗槓就唔計",
        _first_turn_win(Event.HEAVENLY_WIN, "天胡"),
    ),
    _limit(
        "earthly_win",
        "地胡",
        "閒家配牌13張已聽牌，食莊家打出嘅第一隻牌",
        _first_turn_win(Event.EARTHLY_WIN, "地胡"),
    ),
    _limit(
        "human_win",
        "人胡",
        "閒家第一巡食出，之前冇人上碰槓",
        _first_turn_win(Event.HUMAN_WIN, "人胡"),
    ),
    _limit("big_four_winds", "大四喜", "四個風牌刻或槓", _big_four_winds),
    _limit("small_four_winds", "小四喜", "三個風牌刻或槓加風牌做眼", _small_four_winds),
    _limit("all_honours", "字一色", "全部字牌", _all_honours),
    _limit("all_terminals", "清么九", "全部么九數牌", _all_terminals),
    _limit("four_kongs", "四槓子", "四個槓", _four_kongs),
    _limit("thirteen_orphans", "十三么九", "十三種么九字牌，其中一種一對", _thirteen_orphans),
    _limit("nine_gates", "九子連環", "門前清清一色1112345678999加任何一隻", _nine_gates),
    _limit(
        "four_concealed",
        "四暗刻",
        "四個暗刻（雙碰要自摸，單騎可食出銃）",
        _four_concealed,
    ),
    _limit("pure_quadruple", "一色四同順", "四組同花同數字順子", _pure_quadruple),
)

TABLE: tuple[RuleItem[MingjiangView], ...] = _REGULAR + LIMITS
"""Every 和種 of the rule text; apply with ``scoring.rules.apply_table``."""

LIMIT_CODES = frozenset(item.code for item in LIMITS)

_HAND_LEVEL = frozenset(
    {
        "menqing",
        "all_simples",
        "half_flush",
        "full_flush",
        "missing_suit",
        "five_gates",
        "concealed_kong",
        "honours_and_ends",
        "after_kong",
        "robbing_kong",
        "last_tile",
        "last_discard",
        "heavenly_win",
        "earthly_win",
        "human_win",
        "all_honours",
        "all_terminals",
        "four_kongs",
        "nine_gates",
    }
)
HAND_ITEMS = tuple(item for item in TABLE if item.code in _HAND_LEVEL)
"""Items whose check reads only the tiles and the context: checked once per hand."""
READING_ITEMS = tuple(item for item in TABLE if item.code not in _HAND_LEVEL)
"""Items whose check reads the sets: checked once per reading."""
_ORDER = {item.code: n for n, item in enumerate(TABLE)}

NEEDS: dict[str, int] = {
    "pinghu": HAS_4_SEQUENCES,
    "all_triplets": HAS_4_TRIPLETS,
    "three_concealed": HAS_3_TRIPLETS,
    "dragon_white": HAS_HONOUR_TRIPLET,
    "dragon_green": HAS_HONOUR_TRIPLET,
    "dragon_red": HAS_HONOUR_TRIPLET,
    "seat_wind": HAS_HONOUR_TRIPLET,
    "round_wind": HAS_HONOUR_TRIPLET,
    "small_three_dragons": HAS_HONOUR_TRIPLET,
    "big_three_dragons": HAS_3_TRIPLETS | HAS_HONOUR_TRIPLET,
    "outside_hand": HAS_END_PAIR,
    "pure_outside_hand": HAS_END_PAIR,
    "pure_double": HAS_2_SEQUENCES,
    "twice_pure_double": HAS_4_SEQUENCES,
    "pure_triple": HAS_3_SEQUENCES,
    "straight": HAS_3_SEQUENCES,
    "four_in_two": HAS_FOUR_ALIKE | HAS_TRIPLET,
    "four_in_three": HAS_FOUR_ALIKE | HAS_2_SEQUENCES,
    "four_in_four": HAS_FOUR_ALIKE | HAS_4_SEQUENCES,
    "mixed_sequences": HAS_3_SEQUENCES,
    "mixed_triplets": HAS_3_TRIPLETS,
    "seven_pairs": IS_SEVEN_PAIRS,
    "big_four_winds": HAS_4_TRIPLETS | HAS_HONOUR_TRIPLET,
    "small_four_winds": HAS_3_TRIPLETS | HAS_HONOUR_TRIPLET,
    "thirteen_orphans": IS_THIRTEEN_ORPHANS,
    "four_concealed": HAS_4_TRIPLETS,
    "pure_quadruple": HAS_4_SEQUENCES,
}
"""What a reading must hold before a reading item can apply: a shortcut only, since every check
tests its whole condition itself (a test compares the result with the plain table)."""


@cache
def reading_items(holds: int) -> tuple[RuleItem[MingjiangView], ...]:
    """The reading items that could apply to a reading holding ``holds``."""
    return tuple(item for item in READING_ITEMS if NEEDS[item.code] & ~holds == 0)


_EVENT_ITEMS = frozenset(
    {
        "after_kong",
        "robbing_kong",
        "last_tile",
        "last_discard",
        "heavenly_win",
        "earthly_win",
        "human_win",
    }
)
_QUIET_HAND_ITEMS = tuple(item for item in HAND_ITEMS if item.code not in _EVENT_ITEMS)


def hand_items(view: MingjiangView) -> tuple[RuleItem[MingjiangView], ...]:
    """The hand items worth checking: the event items only when the hand names events."""
    return HAND_ITEMS if view.ctx.events else _QUIET_HAND_ITEMS


Hits = list[tuple[RuleItem[MingjiangView], Hit]]


def check_items(items: tuple[RuleItem[MingjiangView], ...], view: MingjiangView) -> Hits:
    return [(item, hit) for item in items if (hit := item.check(view)) is not None]


def resolve(hits: Hits, skip: frozenset[tuple[str, str]]) -> Hits:
    """What ``scoring.rules.apply_table`` keeps, in table order, before it makes ScoreItems:
    the hand is checked in two parts (``HAND_ITEMS`` once, ``READING_ITEMS`` per reading) and
    only the best reading's items are ever built."""
    removed = superseded(hits, skip)  # as every table: only an item that stands removes one
    kept = [(item, hit) for item, hit in hits if hit.times > 0 and item.code not in removed]
    kept.sort(key=lambda pair: _ORDER[pair[0].code])
    return kept


MINIMUMS: dict[str, int] = {"small_three_dragons": 4, "big_three_dragons": 8, "four_in_four": 5}
"""最少N番: a hand holding the item counts at least this many 番 in all."""

_WAIVERS = {  # the order of ``waived``'s switches
    "honours_and_ends_scores_outside": (("honours_and_ends", "outside_hand"),),
    "seven_pairs_scores_menqing": (("seven_pairs", "menqing"),),
}


def waived(rules: Mapping[str, Any]) -> frozenset[tuple[str, str]]:
    """The supersessions that the rule options turn off."""
    return _waived(
        (bool(rules["honours_and_ends_scores_outside"]), bool(rules["seven_pairs_scores_menqing"]))
    )


@cache
def _waived(switches: tuple[bool, ...]) -> frozenset[tuple[str, str]]:
    chosen = (pairs for on, pairs in zip(switches, _WAIVERS.values(), strict=True) if on)
    return frozenset(pair for pairs in chosen for pair in pairs)

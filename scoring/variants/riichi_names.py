"""The names rule text 004 gives the riichi yaku and 符, keyed by the ``mahjong`` library's ids.

One row per yaku the library can report under our settings: the library's ``yaku_id``, our item
code, the name as 004 writes it, and the reason an item of it gives (its ``why``; the one place for
that text). Yakuhai (翻牌) come in eleven library yaku (白 發 中 and the seat and round wind of each
seat); 004 names them all 翻牌(役牌), so the reason says which tile it was.
A yaku the library reports that is missing here is a bug (004 has no such yaku, so a setting is
wrong), and surfaces as a ``KeyError``.

>>> YAKU_NAMES[1]
YakuName(code='riichi', name='立直', why='declared 立直 with a concealed hand')
>>> FU_NAMES["double_valued_pair"]
'雀頭：連風'
"""

from __future__ import annotations

from typing import NamedTuple


class YakuName(NamedTuple):
    code: str
    name: str
    why: str
    """Why the hand has the yaku, in a few words (the item's ``why``; 翻牌 rows: which tile)."""


YAKUHAI = "翻牌(役牌)"

YAKU_NAMES: dict[int, YakuName] = {
    # 一翻
    0: YakuName("menzen_tsumo", "門前清自摸", "a concealed hand won by self-draw"),
    1: YakuName("riichi", "立直", "declared 立直 with a concealed hand"),
    3: YakuName("ippatsu", "一發", "won within one go-round of 立直, no call in between"),
    4: YakuName("robbing_kong", "搶槓", "won on the tile another player added to a kong"),
    5: YakuName("after_kong", "嶺上開花", "won on the replacement tile drawn after a kong"),
    6: YakuName("last_tile", "海底摸月", "self-drew the last tile of the wall"),
    7: YakuName("last_discard", "河底撈魚", "won on the last discard of the hand"),
    12: YakuName(
        "pinfu", "平和", "concealed, four sequences, a pair worth no 符, a two-sided wait"
    ),
    13: YakuName("tanyao", "斷么九", "only simples 2-8: no terminal, no honour"),
    14: YakuName("iipeiko", "一盃口", "two identical sequences in a concealed hand"),
    15: YakuName("yakuhai_white", YAKUHAI, "白 triplet or kong"),
    16: YakuName("yakuhai_green", YAKUHAI, "發 triplet or kong"),
    17: YakuName("yakuhai_red", YAKUHAI, "中 triplet or kong"),
    18: YakuName("yakuhai_seat_east", YAKUHAI, "東 triplet or kong, the seat wind"),
    19: YakuName("yakuhai_seat_south", YAKUHAI, "南 triplet or kong, the seat wind"),
    20: YakuName("yakuhai_seat_west", YAKUHAI, "西 triplet or kong, the seat wind"),
    21: YakuName("yakuhai_seat_north", YAKUHAI, "北 triplet or kong, the seat wind"),
    22: YakuName("yakuhai_round_east", YAKUHAI, "東 triplet or kong, the round wind"),
    23: YakuName("yakuhai_round_south", YAKUHAI, "南 triplet or kong, the round wind"),
    24: YakuName("yakuhai_round_west", YAKUHAI, "西 triplet or kong, the round wind"),
    25: YakuName("yakuhai_round_north", YAKUHAI, "北 triplet or kong, the round wind"),
    # 兩翻
    8: YakuName("double_riichi", "雙立直", "立直 declared with the first discard"),
    26: YakuName("sanshoku", "三色同順", "the same sequence in all three suits"),
    27: YakuName("ittsu", "一氣通貫", "123 456 789 in one suit"),
    28: YakuName(
        "chanta",
        "混全帶么九",
        "every set and the pair hold a terminal or honour, with honours and sequences",
    ),
    29: YakuName("honroto", "混老頭", "only terminals and honours"),
    30: YakuName("toitoi", "對對和", "four triplets or kongs"),
    31: YakuName("sanankou", "三暗刻", "three concealed triplets or kongs"),
    32: YakuName("sankantsu", "三槓子", "three kongs"),
    33: YakuName("sanshoku_douko", "三色同刻", "the same triplet in all three suits"),
    34: YakuName("chiitoitsu", "七對子", "seven different pairs"),
    35: YakuName("shosangen", "小三元", "two dragon triplets and a dragon pair"),
    # 三翻, 六翻
    36: YakuName("honitsu", "混一色", "one suit and honours"),
    37: YakuName("junchan", "純全帶么九", "every set and the pair hold a terminal; no honours"),
    38: YakuName("ryanpeiko", "二盃口", "two pairs of identical sequences in a concealed hand"),
    39: YakuName("chinitsu", "清一色", "one suit only, no honours"),
    # 滿貫
    10: YakuName(
        "nagashi_mangan",
        "流局滿貫",
        "discarded only terminals and honours, none claimed, to the draw",
    ),
    # 役滿
    100: YakuName("kokushi", "國士無雙", "one of each terminal and honour, and a pair of one"),
    101: YakuName("chuuren", "九蓮寶燈", "1112345678999 and one more of the same suit, concealed"),
    102: YakuName("suuankou", "四暗刻", "four concealed triplets or kongs"),
    103: YakuName("daisangen", "大三元", "triplets of all three dragons"),
    104: YakuName("shosuushi", "小四喜", "three wind triplets and a wind pair"),
    105: YakuName("ryuuiisou", "綠一色", "only 2 3 4 6 8 索 and 發"),
    106: YakuName("suukantsu", "四槓子", "four kongs"),
    107: YakuName("tsuuiisou", "字一色", "only honours"),
    108: YakuName("chinroutou", "清老頭", "only terminals"),
    115: YakuName("heavenly_win", "天和", "the dealer's first draw completed the hand"),
    116: YakuName(
        "earthly_win", "地和", "a non-dealer's first draw completed the hand, no call before it"
    ),
    # 雙役滿
    111: YakuName("daisuushi", "大四喜", "triplets of all four winds"),
    112: YakuName("kokushi_13_wait", "純正國士無雙", "國士無雙 waiting on all thirteen"),
    113: YakuName("suuankou_tanki", "四暗刻單騎", "four concealed triplets, waiting on the pair"),
    114: YakuName("chuuren_9_wait", "純正九蓮寶燈", "九蓮寶燈 waiting on all nine of the suit"),
    # 懸賞: count, never a yaku of their own (004: 不能當起胡翻)
    120: YakuName("dora", "懸賞牌", "each the tile after a 懸賞 indicator"),
    121: YakuName("red_dora", "赤懸賞", "red fives 0m 0p 0s (table option red_fives)"),
    122: YakuName(
        "ura_dora",
        "裏懸賞",
        "each the tile after a 裏懸賞 indicator, turned over after 立直",
    ),
}

FU_NAMES: dict[str, str] = {
    # The library's FuCalculator reason codes; 004 lists these as 起胡20符, 門清胡牌30符, 自摸2符,
    # 鳴牌胡牌2符, 單吊2符, 雀頭 役牌2符/連風4符, 明刻 暗刻 明槓 暗槓 (么九 x2).
    "base": "底符",
    "tsumo": "自摸",
    "hand_without_fu": "鳴牌胡牌",
    "pair_wait": "單吊",
    "penchan": "邊張",
    "kanchan": "崁張",
    "valued_pair": "雀頭：役牌",
    "double_valued_pair": "雀頭：連風",
    "open_pon": "明刻",
    "closed_pon": "暗刻",
    "open_kan": "明槓",
    "closed_kan": "暗槓",
    "open_terminal_pon": "明刻(么九)",
    "closed_terminal_pon": "暗刻(么九)",
    "open_terminal_kan": "明槓(么九)",
    "closed_terminal_kan": "暗槓(么九)",
}

BASE_FU_NAMES: dict[int, str] = {20: "起胡20符", 25: "七對子25符", 30: "門清胡牌30符"}
"""The base 符 by value, as 004 names each (平和自摸 also starts at 20)."""

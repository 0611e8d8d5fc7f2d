"""The names rule text 004 gives the riichi yaku and 符, keyed by the ``mahjong`` library's ids.

One row per yaku the library can report under our settings: the library's ``yaku_id``, our item
code, and the name as 004 writes it. Yakuhai (翻牌) come in eight library yaku (白 發 中 and the seat
and round wind of each seat); 004 names them all 翻牌(役牌), so the row adds which tile it was.
A yaku the library reports that is missing here is a bug (004 has no such yaku, so a setting is
wrong), and surfaces as a ``KeyError``.

>>> YAKU_NAMES[1]
YakuName(code='riichi', name='立直', detail='')
>>> FU_NAMES["double_valued_pair"]
'雀頭：連風'
"""

from __future__ import annotations

from typing import NamedTuple


class YakuName(NamedTuple):
    code: str
    name: str
    detail: str
    """What the item's ``why`` adds, for the rows that share a name (翻牌: which tile)."""


YAKUHAI = "翻牌(役牌)"

YAKU_NAMES: dict[int, YakuName] = {
    # 一翻
    0: YakuName("menzen_tsumo", "門前清自摸", ""),
    1: YakuName("riichi", "立直", ""),
    3: YakuName("ippatsu", "一發", ""),
    4: YakuName("robbing_kong", "搶槓", ""),
    5: YakuName("after_kong", "嶺上開花", ""),
    6: YakuName("last_tile", "海底摸月", ""),
    7: YakuName("last_discard", "河底撈魚", ""),
    12: YakuName("pinfu", "平和", ""),
    13: YakuName("tanyao", "斷么九", ""),
    14: YakuName("iipeiko", "一盃口", ""),
    15: YakuName("yakuhai_white", YAKUHAI, "白 triplet"),
    16: YakuName("yakuhai_green", YAKUHAI, "發 triplet"),
    17: YakuName("yakuhai_red", YAKUHAI, "中 triplet"),
    18: YakuName("yakuhai_seat_east", YAKUHAI, "東 triplet, the seat wind"),
    19: YakuName("yakuhai_seat_south", YAKUHAI, "南 triplet, the seat wind"),
    20: YakuName("yakuhai_seat_west", YAKUHAI, "西 triplet, the seat wind"),
    21: YakuName("yakuhai_seat_north", YAKUHAI, "北 triplet, the seat wind"),
    22: YakuName("yakuhai_round_east", YAKUHAI, "東 triplet, the round wind"),
    23: YakuName("yakuhai_round_south", YAKUHAI, "南 triplet, the round wind"),
    24: YakuName("yakuhai_round_west", YAKUHAI, "西 triplet, the round wind"),
    25: YakuName("yakuhai_round_north", YAKUHAI, "北 triplet, the round wind"),
    # 兩翻
    8: YakuName("double_riichi", "雙立直", ""),
    26: YakuName("sanshoku", "三色同順", ""),
    27: YakuName("ittsu", "一氣通貫", ""),
    28: YakuName("chanta", "混全帶么九", ""),
    29: YakuName("honroto", "混老頭", ""),
    30: YakuName("toitoi", "對對和", ""),
    31: YakuName("sanankou", "三暗刻", ""),
    32: YakuName("sankantsu", "三槓子", ""),
    33: YakuName("sanshoku_douko", "三色同刻", ""),
    34: YakuName("chiitoitsu", "七對子", ""),
    35: YakuName("shosangen", "小三元", ""),
    # 三翻, 六翻
    36: YakuName("honitsu", "混一色", ""),
    37: YakuName("junchan", "純全帶么九", ""),
    38: YakuName("ryanpeiko", "二盃口", ""),
    39: YakuName("chinitsu", "清一色", ""),
    # 滿貫
    10: YakuName("nagashi_mangan", "流局滿貫", ""),
    # 役滿
    100: YakuName("kokushi", "國士無雙", ""),
    101: YakuName("chuuren", "九蓮寶燈", ""),
    102: YakuName("suuankou", "四暗刻", ""),
    103: YakuName("daisangen", "大三元", ""),
    104: YakuName("shosuushi", "小四喜", ""),
    105: YakuName("ryuuiisou", "綠一色", ""),
    106: YakuName("suukantsu", "四槓子", ""),
    107: YakuName("tsuuiisou", "字一色", ""),
    108: YakuName("chinroutou", "清老頭", ""),
    115: YakuName("heavenly_win", "天和", ""),
    116: YakuName("earthly_win", "地和", ""),
    # 雙役滿
    111: YakuName("daisuushi", "大四喜", ""),
    112: YakuName("kokushi_13_wait", "純正國士無雙", ""),
    113: YakuName("suuankou_tanki", "四暗刻單騎", ""),
    114: YakuName("chuuren_9_wait", "純正九蓮寶燈", ""),
    # 懸賞: count, never a yaku of their own (004: 不能當起胡翻)
    120: YakuName("dora", "懸賞牌", ""),
    121: YakuName("red_dora", "赤懸賞", ""),
    122: YakuName("ura_dora", "裏懸賞", ""),
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

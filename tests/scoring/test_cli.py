"""The real ``tilescore score`` command, run as a subprocess."""

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def tilescore(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "device.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )


def test_json_list_with_a_bad_hand_scores_the_others():
    hands = [
        {
            "variant": "taiwan",
            "hand": "123456789m234567p11s",
            "win_tile": "7p",
            "seat_wind": "S",
            "discarder": "N",
        },
        {"variant": "taiwan", "hand": "123"},
    ]
    run = tilescore("score", "--json", "-", stdin=json.dumps(hands))
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    assert results[0]["total"] == 3
    assert set(results[0]) >= {
        "variant",
        "winning",
        "total",
        "unit",
        "items",
        "payments",
        "decomposition",
    }
    assert "error" in results[1]


def test_shipped_example_scores():
    run = tilescore("score", "--json", "examples/taiwan-hand.json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["winning"] is True


def test_human_output_lists_items_and_payments():
    run = tilescore(
        "score",
        "--variant",
        "taiwan",
        "--hand",
        "123456789m111222z77z",
        "--win",
        "2z",
        "--self-draw",
        "--streak",
        "2",
        "--flowers",
        "15f",
    )
    assert run.returncode == 0, run.stderr
    assert "混一色" in run.stdout and "連2拉2" in run.stdout and "Total" in run.stdout
    assert "S pays E" in run.stdout


def test_a_false_win_says_who_pays_it():
    # 詐糊 (明將) is paid to every other player: the text said only the reason, the JSON paid.
    run = tilescore(
        "score",
        "--variant",
        "mingjiang",
        "--hand",
        "123m456p789s11z222s",
        "--win",
        "2s",
        "--self-draw",
        "--seat",
        "S",
        "--event",
        "false_win",
    )
    assert run.returncode == 0, run.stderr
    assert "Not a winning hand: 詐糊" in run.stdout
    assert run.stdout.splitlines()[-3:] == ["  S pays E 55", "  S pays W 55", "  S pays N 55"]


def test_a_riichi_total_says_its_fu_or_its_limit():
    # 翻 alone do not say the points: 3 翻 40 符 is 5,200, 3 翻 30 符 3,900.
    three = ["--variant", "riichi", "--seat", "S", "--round", "E", "--self-draw"]
    run = tilescore(
        "score",
        *three,
        "--hand",
        "123m456p789s55s",
        "--win",
        "9s",
        "--melds",
        "concealed_kong:2222p",
        "--events",
        "riichi,after_kong",
    )
    assert run.returncode == 0 and "3 翻  (40 符)" in run.stdout, run.stdout
    run = tilescore(
        "score", *three, "--hand", "123m99p", "--win", "3m", "--melds", "pon:555z pon:666z pon:777z"
    )
    assert "13 翻  (yakuman)" in run.stdout and "符" not in run.stdout, run.stdout


def test_what_the_items_do_not_say_is_said_under_the_total():
    # 明將 雞糊 printed "Total 0 番" alone; a hand past 十番爆棚 items adding to 14 and a total of
    # 10; xiangqi's payments came with no 基本點; a discard win with no discarder paid no one.
    mingjiang = ["score", "--variant", "mingjiang", "--seat", "S"]
    chicken = tilescore(
        *mingjiang, "--hand", "123m456p789s22s555m", "--win", "2s", "--self-draw",
        "--events", "furiten",
    )  # fmt: skip
    said = "雞糊 (振聽: won on a tile the winner had discarded): the win pays nothing; without 振聽"
    assert f"{said} it counts 1 番" in chicken.stdout, chicken.stdout
    assert "The hand goes on without the winner's tiles" in chicken.stdout
    capped = tilescore(
        *mingjiang, "--hand", "123m555z666z777z99m", "--win", "9m", "--discarder", "W"
    )
    assert "十番爆棚: the items add up to 14 番, and no hand counts more than 10" in capped.stdout
    xiangqi = tilescore(
        "score", "--variant", "xiangqi", "--hand", "車馬包士士", "--win", "士", "--self-draw",
        "--dealer",
    )  # fmt: skip
    assert "基本點 3750 = 7台 3750" in xiangqi.stdout and "pays winner 7500" in xiangqi.stdout
    unpaid = tilescore(
        "score", "--variant", "taiwan", "--hand", "456789m11123p456789s", "--win", "2p"
    )
    assert "No one pays until the win is said: --discarder SEAT or --self-draw" in unpaid.stdout
    paid = tilescore(
        "score", "--variant", "taiwan", "--hand", "456789m11123p456789s", "--win", "2p",
        "--discarder", "N",
    )  # fmt: skip
    assert "No one pays" not in paid.stdout and "N pays E" in paid.stdout


def test_riichi_counters_are_refused_where_they_are_not_counted():
    # Taken without a word, a table that gave them thought them scored.
    hand = ["--hand", "123456789m111222z77z", "--win", "2z", "--self-draw"]
    for option, said in (
        (["--dora", "1m"], "dora indicators are not counted in taiwan"),
        (["--honba", "2"], "its dealer's streak is dealer_streak"),
        (["--riichi-sticks", "1"], "riichi sticks (供託) are not counted in taiwan"),
    ):
        run = tilescore("score", "--variant", "taiwan", *hand, *option)
        assert run.returncode == 2 and said in run.stderr, run.stderr


def test_mingjiang_refuses_a_dealer_streak_as_it_refuses_honba():
    # 002: 冇冧莊, 無本場分. The honba error pointed to dealer_streak, which 明將 took and read
    # nothing of: a table that gave either would think it scored.
    hand = ["--variant", "mingjiang", "--seat", "S", "--hand", "19m19p19s1234567z1m", "--win"]
    hand += ["1m", "--discarder", "W"]
    honba = tilescore("score", *hand, "--honba", "3")
    assert honba.returncode == 2 and "its dealer's streak is dealer_streak" not in honba.stderr
    assert "honba (本場) are not counted in mingjiang, nor is a dealer's streak" in honba.stderr
    streak = tilescore("score", *hand, "--streak", "2")
    assert streak.returncode == 2 and streak.stderr.count("\n") == 1, streak.stderr
    assert "dealer_streak 2 is not counted in mingjiang" in streak.stderr
    assert tilescore("score", *hand, "--streak", "0").returncode == 0


def test_a_rule_given_twice_is_refused():
    # The last one was kept without a word: --rule base=100 --rule base=200 scored at 200.
    hand = ["--hand", "123456789m111222z77z", "--win", "2z", "--self-draw"]
    for twice in (["base=100", "base=200"], ["base=100", " base = 100"]):
        run = tilescore(
            "score", "--variant", "taiwan", *hand, "--rule", twice[0], "--rule", twice[1]
        )
        assert run.returncode == 2 and run.stdout == "", run.stdout
        assert run.stderr.startswith("error: rule base given twice"), run.stderr
        assert run.stderr.count("\n") == 1
    once = tilescore(
        "score", "--variant", "taiwan", *hand, "--rule", "base=100", "--rule", "tai_value=20"
    )
    assert once.returncode == 0, once.stderr


def test_bad_input_is_one_line_without_traceback():
    run = tilescore("score", "--hand", "123x", "--win", "1m")
    assert run.returncode == 2
    assert run.stderr.startswith("error: ") and run.stderr.count("\n") == 1
    assert "Traceback" not in run.stderr


def test_unreadable_json_file_is_one_line():
    run = tilescore("score", "--json", "no-such-file.json")
    assert run.returncode == 2 and "cannot read 'no-such-file.json'" in run.stderr


def test_a_reader_that_stops_early_gets_no_traceback():
    """`tilescore score ... | head -0`: the pipe is closed before a word is written."""
    import os
    import subprocess
    import sys

    from tests.cli_run import REPO

    read_end, write_end = os.pipe()
    os.close(read_end)  # every write to the pipe now fails: the reader has gone
    try:
        result = subprocess.run(
            [sys.executable, "-m", "device.cli", "score", "--variant", "taiwan"]
            + ["--hand", "123456789m111222z77z", "--win", "2z", "--self-draw"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
            env=os.environ | {"PYTHONPATH": str(REPO)},
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert result.returncode == 1
    assert result.stderr == ""


def _in_shell(redirect: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The command with its standard streams redirected as a shell does (``<&-``, ``>&-``)."""
    command = " ".join([sys.executable, "-m", "device.cli", *args])
    return subprocess.run(
        ["bash", "-c", f"{command} {redirect}"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )


def test_closed_or_full_standard_streams_are_one_line_and_fail(tmp_path):
    hand = tmp_path / "hand.json"
    hand.write_text('{"variant": "taiwan", "hand": "123456789m111222z77z", "win_tile": "2z"}')
    closed_in = _in_shell("<&-", "score", "--json", "-")
    assert (closed_in.returncode, closed_in.stderr) == (
        2,
        "error: standard input is closed: give the JSON in a FILE\n",
    )
    # A full disk was a traceback; a closed stdout lost the result and exited 0.
    full = _in_shell(">/dev/full", "score", "--json", str(hand))
    assert (full.returncode, full.stderr) == (1, "error: No space left on device\n")
    closed_out = _in_shell(">&-", "settle", "300", "200", "100", "0")
    assert closed_out.returncode == 2
    assert closed_out.stderr == "error: standard output is closed: nothing could be written\n"


def test_a_json_file_saved_with_a_byte_order_mark_is_read(tmp_path):
    # Notepad's UTF-8 begins with one: "Unexpected UTF-8 BOM (decode using utf-8-sig)".
    hand = tmp_path / "hand.json"
    text = '{"variant": "taiwan", "hand": "123456789m111222z77z", "win_tile": "2z"}'
    hand.write_bytes(b"\xef\xbb\xbf" + text.encode())
    run = tilescore("score", "--json", str(hand))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["winning"] is True

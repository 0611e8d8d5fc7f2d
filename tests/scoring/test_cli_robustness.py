"""``tilescore score`` and ``settle`` on input no user should send: one line each, the right exit
status, and output that is always strict JSON in UTF-8."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from device.cli import main
from scoring.errors import RuleOptionError
from scoring.hand_json import score_json
from scoring.rules import RuleOption
from scoring.settle import GameState, settle
from tests.cli_run import REPO, tilescore

WINNING = {
    "variant": "taiwan",
    "hand": "123456789m234567p11s",
    "win_tile": "7p",
    "seat_wind": "S",
    "discarder": "N",
}
BAD = {"variant": "taiwan", "hand": "123456789m234567p11s", "win_tile": "9z"}
PHOTO = REPO / "examples" / "photos" / "taiwan-pinghu.jpg"


def score_bytes(data: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "device.cli", "score", "--json", "-"],
        input=data,
        capture_output=True,
        cwd=REPO,
        timeout=60,
    )


def one_line_error(run, *words):
    assert run.returncode == 2 and not run.stdout, run.stdout
    assert run.stderr.startswith("error: ") and run.stderr.count("\n") == 1, run.stderr
    for word in words:
        assert word in run.stderr, run.stderr


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"hand": "123m", "dealer_streak": ' + "9" * 5000 + "}", ["more than 4300 digits"]),
        ("[" * 100_000, ["nested too deeply"]),
        ('{"hand": "123m", "id": NaN}', ["NaN"]),
        ('{"hand": "123m", "id": Infinity}', ["Infinity"]),
        ('[{"hand": "123m", "id": -Infinity}]', ["-Infinity"]),
        # Python's json keeps the last silently: the hand scored would be one nobody typed whole.
        ('{"hand": "123m", "win_tile": "1m", "hand": "456m"}', ["key 'hand' twice"]),
    ],
)
def test_json_no_json_reader_should_take_is_one_line(tmp_path, text, words):
    path = tmp_path / "hands.json"
    path.write_text(text)
    one_line_error(tilescore("score", "--json", path), repr(str(path)), *words)
    one_line_error(tilescore("score", "--json", "-", stdin=text), "stdin", *words)


def test_stdin_must_be_utf8_like_a_file():
    run = score_bytes(b'{"variant": "taiwan", "id": "\xff"}')
    assert run.returncode == 2 and run.stdout == b""
    assert run.stderr == b"error: stdin is not UTF-8 text\n"


def test_a_lone_surrogate_comes_back_as_json_in_utf8():
    run = score_bytes(json.dumps({**WINNING, "id": "\udcff 中"}).encode())
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.decode("utf-8"))  # strict: no raw 0xFF byte
    assert result["id"] == "\udcff 中" and result["total"] == 3


def test_a_result_number_too_long_to_write_is_one_line():
    # 4299 digits are read; the 台 times that many points per 台 are more than 4300.
    value = "9" * 4299
    hand = ["--hand", "123456789m111222z77z", "--win", "2z", "--self-draw"]
    for extra in ([], ["--json"]):
        run = tilescore("score", *hand, "--rule", f"tai_value={value}", *extra)
        one_line_error(run, "more than 4300 digits")


def test_a_counter_past_any_game_is_refused():
    # A dealer streak of 10**30 scored 2e30 台.
    hand = ["--hand", "123456789m111222z77z", "--win", "2z", "--self-draw"]
    run = tilescore("score", *hand, "--streak", "1000")
    one_line_error(run, "dealer_streak 1000 is more than any table plays (at most 999)")
    assert tilescore("score", *hand, "--streak", "999").returncode == 0


def test_exit_status_single_object_that_fails_is_2_with_its_json_error(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(BAD))
    run = tilescore("score", "--json", path)
    assert run.returncode == 2 and run.stderr == ""
    assert json.loads(run.stdout) == {"error": "unknown tile code '9z'"}
    good = tilescore("score", "--json", "-", stdin=json.dumps(WINNING))
    assert good.returncode == 0 and json.loads(good.stdout)["total"] == 3


def test_a_hand_that_does_not_win_is_scored_not_failed():
    losing = {**WINNING, "hand": "123456789m234567p19s", "win_tile": "9s"}
    run = tilescore("score", "--json", "-", stdin=json.dumps(losing))
    assert run.returncode == 0 and json.loads(run.stdout)["winning"] is False


@pytest.mark.parametrize(
    ("hands", "status"),
    [([WINNING, BAD], 0), ([BAD, BAD], 2), ([BAD], 2), ([], 0)],
)
def test_exit_status_of_a_list_is_2_only_when_every_hand_failed(hands, status):
    run = tilescore("score", "--json", "-", stdin=json.dumps(hands))
    assert run.returncode == status and run.stderr == ""
    assert len(json.loads(run.stdout)) == len(hands)


@pytest.mark.parametrize(
    ("variant", "option", "least"),
    [
        ("taiwan", "base", 0),
        ("taiwan", "tai_value", 0),
        ("taiwan", "bu_qiu_ren", 0),
        ("taiwan", "minimum_tai", 0),
        ("xiangqi", "minimum_tai", 1),  # 0 台 never wins
        ("xiangqi", "draws_in_a_row", 0),
        ("xiangqi", "ready_payment", 0),
    ],
)
def test_a_count_or_amount_rule_option_cannot_be_negative(variant, option, least):
    hand = {**WINNING, "variant": variant}
    error = score_json({**hand, "rules": {option: least - 1}})["error"]
    wanted = f"rule option {option!r} takes a whole number of at least {least}, got {least - 1}"
    assert error == wanted
    assert "at least" not in score_json({**hand, "rules": {option: least}}).get("error", "")


def test_a_drawn_hand_takes_no_negative_payment():
    drawn = {"variant": "xiangqi", "draw": {"dealer": 1}, "rules": {"ready_payment": -1}}
    error = "rule option 'ready_payment' takes a whole number of at least 0, got -1"
    assert score_json(drawn) == {"error": error}


def test_negative_rule_options_on_the_command_line_are_one_line():
    hand = ["--hand", "123456789m111222z77z", "--win", "2z", "--self-draw"]
    one_line_error(tilescore("score", *hand, "--rule", "base=-100"), "'base'", "at least 0")
    scores = ["150"] * 4
    one_line_error(tilescore("settle", *scores, "--rule", "return_points=-999"), "at least 0")
    long = "-" + "9" * 5000  # too long for a whole number: shown by its ends, on one line
    run = tilescore("settle", *scores, "--rule", f"return_points={long}")
    one_line_error(run, "'return_points'")
    assert len(run.stderr) < 200


def test_settlement_points_cannot_be_negative():
    for option in ("start_points", "return_points"):
        with pytest.raises(RuleOptionError, match=f"'{option}' takes a whole number of at least"):
            settle(GameState((150, 150, 150, 150)), {option: -1, "check_total": False})


def test_an_option_may_declare_it_takes_negative_values():
    assert RuleOption("deduction", 0, "points taken", minimum=None).coerce(-5) == -5
    with pytest.raises(RuleOptionError, match="at least 1, got 0"):
        RuleOption("players", 4, "a count", minimum=1).coerce(0)


@pytest.mark.parametrize(
    ("annotate", "words"),
    [
        ("out.txt", ["'out.txt'", ".png"]),
        ("out", ["'out'", ".png"]),
        ("{file}/out.png", ["cannot make the folder", "File exists"]),
        ("out.gif", ["'out.gif'", ".png"]),  # OpenCV writes GIFs, but the message names these
        ("", ["--annotate needs a file name"]),
    ],
)
def test_a_bad_annotate_target_is_one_line_before_the_photo_is_read(tmp_path, annotate, words):
    a_file = tmp_path / "x"
    a_file.write_text("")
    target = annotate.format(file=a_file)
    # The photo does not exist: the error is about the drawing, so it came first.
    run = tilescore("score", tmp_path / "no-photo.jpg", "--annotate", target)
    one_line_error(run, *words)


def test_a_photo_whose_hand_fails_exits_2_with_the_error_on_stderr(capsys):
    # 槓上開花 with no kong in the hand read: the hand cannot score. (A bad option, --seat Q, is
    # refused before the photo is read: tests/vision/test_cli.py.)
    argv = ["score", str(PHOTO), "--seat", "S", "--events", "after_kong", "--self-draw"]
    assert main([*argv, "--json"]) == 2
    out, err = capsys.readouterr()
    assert err == "" and "needs a kong" in json.loads(out)["result"]["error"]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert "tiles read" in out and "error" not in out
    assert err.startswith("error: ") and "needs a kong" in err and err.count("\n") == 1


@pytest.mark.parametrize("option", ["--hand", "--win", "--melds", "--flowers"])
def test_a_photo_with_a_typed_hand_is_one_line(option):
    # They were read past without a word: --win 9z --flowers 9f scored the photo as it was.
    value = {"--hand": "123m", "--win": "9z", "--melds": "pon:111z", "--flowers": "9f"}[option]
    run = tilescore("score", PHOTO, option, value)
    one_line_error(run, f"{option} types a hand, and a photo's hand is what it shows")


def test_the_drawing_never_replaces_the_photo_it_was_drawn_on(tmp_path):
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(PHOTO.read_bytes())
    run = tilescore("score", photo, "--seat", "S", "--annotate", tmp_path / "." / "hand.jpg")
    one_line_error(run, "is the photo itself")
    assert photo.read_bytes() == PHOTO.read_bytes()


def test_a_photo_annotates_to_a_new_folder(tmp_path, capsys):
    target = tmp_path / "new" / "out.png"
    assert main(["score", str(PHOTO), "--seat", "S", "--annotate", str(target)]) == 0
    assert "Total" in capsys.readouterr().out and Path(target).stat().st_size > 0


def test_a_photo_tilescore_does_not_read_is_named_as_neither_hand_nor_photo(tmp_path, capsys):
    # A damaged GIF, or a file without an extension: no photo, and no hand as JSON either.
    for name in ("hand.gif", "IMG_0001"):
        (tmp_path / name).write_bytes(b"GIF89a\x01\x00\x01\x00\x80\xff\x00")
        assert main(["score", str(tmp_path / name), "--variant", "taiwan"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and name in err
        assert "not a readable image" in err and "nor a hand as JSON" in err


def test_a_photo_in_any_format_detect_reads_is_scored(tmp_path, capsys):
    # A GIF, or a photo saved without its extension, went to the JSON reader ("not UTF-8
    # text") while detect read it.
    from PIL import Image

    assert main(["score", str(PHOTO), "--seat", "S", "--json"]) == 0
    as_jpeg = json.loads(capsys.readouterr().out)
    (tmp_path / "IMG_0002").write_bytes(PHOTO.read_bytes())
    assert main(["score", str(tmp_path / "IMG_0002"), "--seat", "S", "--json"]) == 0
    read = json.loads(capsys.readouterr().out)
    assert read["result"] == as_jpeg["result"] and read["tiles"] == as_jpeg["tiles"]
    Image.open(PHOTO).save(tmp_path / "hand.gif")  # 256 colours: read, not always alike
    assert main(["score", str(tmp_path / "hand.gif"), "--seat", "S", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["result"]["winning"]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--seat", "N"], "--seat is for a hand typed with --hand or read from a photo"),
        (["--self-draw"], "--self-draw is for a hand typed"),
        (["--rule", "base=50"], "--rule is for a hand typed"),
        (["--hand", "123m"], "give --hand or"),
    ],
)
def test_a_hand_option_beside_a_json_file_is_refused_not_ignored(tmp_path, options, words):
    # The options were dropped without a word: the hand was scored as the file said.
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(WINNING))
    one_line_error(tilescore("score", "--json", path, *options), words)


@pytest.mark.parametrize(
    "option", [["--annotate", "out.png"], ["--white-backs"], ["--models", "m"]]
)
def test_a_photo_option_beside_a_typed_or_json_hand_is_refused(tmp_path, option):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(WINNING))
    one_line_error(tilescore("score", "--json", path, *option), f"{option[0]} is for a photo")
    typed = ["--hand", "123456789m234567p11s", "--win", "7p"]
    one_line_error(tilescore("score", *typed, *option), f"{option[0]} is for a photo")


def test_a_photo_name_that_is_not_utf8_is_escaped_on_a_strict_stdout(tmp_path):
    # score PHOTO names the photo on its first line: with stdout strict UTF-8 (a UTF-8 locale
    # other than C.UTF-8) a name of bytes that are not UTF-8 ended in a traceback; --json
    # escaped it already (write_json).
    name = os.fsdecode(b"hand\xff.jpg")
    (tmp_path / name).write_bytes(PHOTO.read_bytes())
    strict = {"PYTHONIOENCODING": "utf-8"}
    run = tilescore("score", name, "--seat", "S", cwd=tmp_path, env=strict)
    assert run.returncode == 0 and not run.stderr, run.stderr
    assert run.stdout.startswith("hand\\udcff.jpg: 18 tiles read\n") and "Total" in run.stdout
    run = tilescore("score", name, "--seat", "S", "--json", cwd=tmp_path, env=strict)
    assert run.returncode == 0 and json.loads(run.stdout)["result"]["winning"]

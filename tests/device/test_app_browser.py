"""End to end in real headless Chromium: score a photo, correct a tile, see the score follow.

Also writes a screenshot of each screen to docs/images/ (set TILESCORE_SCREENSHOTS=1).
"""

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed"),
    pytest.mark.skipif(not (REPO / "models" / "default.json").exists(), reason="no models"),
]
SHOTS = REPO / "docs" / "images" if os.environ.get("TILESCORE_SCREENSHOTS") else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(tmp_path, camera, models=REPO / "models", *extra):
    """``tilescore serve`` as a player starts it; its output goes to a file (a pipe nobody reads
    would fill up with the request log and stall the server)."""
    port = _free_port()
    log = tmp_path / "serve.log"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "device.cli",
            "serve",
            "--camera",
            f"dir:{camera}",
            "--data",
            str(tmp_path / "data"),
            "--port",
            str(port),
            "--models",
            str(models),
            *extra,
        ],
        cwd=REPO,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "api/status", timeout=1)
            break
        except OSError:
            time.sleep(0.2)
    else:
        process.kill()
        pytest.fail("the app did not start: " + log.read_text())
    return process, url, port, log


def _camera_of(tmp_path, image, name):
    """A folder camera holding ``image`` (a painted copy of an example photo) as ``name``."""
    import cv2

    folder = tmp_path / "camera"
    folder.mkdir()
    cv2.imwrite(str(folder / name), image)
    return folder


@pytest.fixture
def camera(tmp_path):
    folder = tmp_path / "camera"
    folder.mkdir()
    shutil.copy(REPO / "examples" / "photos" / "taiwan-melds.jpg", folder / "hand.jpg")
    return folder


@pytest.fixture
def server(tmp_path, camera):
    process, url, _, _ = _serve(tmp_path, camera)
    yield url
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture
def browser():
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


def _typed(page, hand: str, win: str) -> None:
    """Edit groups on the Result screen: ``hand`` typed as the concealed tiles, won on ``win``."""
    page.click("#edit-reading summary")
    page.fill("#edit-hand", hand)
    page.fill("#edit-melds", "")
    page.fill("#edit-flowers", "")
    page.fill("#edit-win", win)
    page.click("#save-reading")
    page.wait_for_selector(f"#reading:has-text('+{win}')")


def _table(server, browser):
    """A page of the app at a laptop's size, its Camera screen ready."""
    page = _page(browser, viewport={"width": 1280, "height": 800})
    page.goto(server)
    page.wait_for_selector("#next-hand:has-text('Next hand')")
    return page


def _page(browser, **options):
    """A page that waits up to a minute: the first score loads the models, which takes far longer
    than Playwright's 30 s default allows on a machine busy with other work."""
    page = browser.new_page(**options)
    page.set_default_timeout(60_000)
    return page


def _shot(page, name):
    """A page, or one part of it (a locator), as docs/images/app-NAME.png."""
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"app-{name}.png"))


def _tap_tile(page, code):
    """Tap the box of the tile read as ``code`` (found by its label: the detection order is the
    model's, not the layout's); returns its number."""
    index = page.evaluate(
        "(code) => [...document.querySelectorAll('#overlay text')]"
        ".findIndex((t) => t.textContent === code)",
        code,
    )
    assert index >= 0, f"the models did not read the example's {code}"
    page.locator("#overlay rect").nth(index).dispatch_event("click")
    page.wait_for_selector("#picker[open]")
    return index


def _changed(page, selector, before):
    page.wait_for_function(
        "([s, b]) => document.querySelector(s).innerText !== b", arg=[selector, before]
    )


def test_score_correct_and_see_the_total_change(server, browser):
    page = _page(browser, viewport={"width": 1280, "height": 800})
    page.goto(server)
    page.wait_for_selector("#preview[src*='preview']")
    page.wait_for_selector("#next-hand:has-text('Next hand')")
    _shot(page, "camera")
    page.click("button[data-screen=context]")
    page.select_option("select[name=seat_wind]", "S")
    page.check("input[name=self_draw]")
    page.check("input[name=event][value=after_flower]")
    assert page.inner_text("#events").count("槓上開花") == 1  # events by their names
    _shot(page, "table")
    page.click("#context-form button[type=submit]")
    page.wait_for_selector("#status:has-text('saved')")
    page.click("button[data-screen=camera]")
    assert "胡 南 · 自摸 · 花上開花" in page.inner_text("#next-hand")
    page.click("#score-button")
    page.wait_for_selector("#result.active #overlay rect")
    before = page.inner_text("#total")
    reading_before = page.inner_text("#reading")
    _shot(page, "result")
    # Correct a tile: tap the box of the hand's 2m (the row's first tile), pick 東 from the grid.
    index = _tap_tile(page, "2m")
    grid = page.locator("#tile-grid button")
    assert grid.count() == 42  # a Taiwan set: suits, honours, flowers; no pieces, no red fives
    assert page.locator("#pick-win").is_visible()  # the actions stay in sight above the grid
    _shot(page, "picker")
    page.click("#tile-grid button[data-code='1z']")
    _changed(page, "#reading", reading_before)
    after = page.inner_text("#total")
    assert "1z" in page.inner_text("#reading")
    assert after != before, "234m became 1z34m: the hand no longer scores the same"
    assert page.locator("#overlay text").nth(index).text_content() == "1z"
    page.click("button[data-screen=board]")
    page.wait_for_selector("#hands tbody tr")


def test_a_players_evening_who_paid_groups_events_undo(server, browser):
    page = _page(browser, viewport={"width": 1280, "height": 800})
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(server)
    page.wait_for_selector("#next-hand:has-text('Next hand')")
    page.click("#score-button")
    page.wait_for_selector("#result.active #overlay rect")
    # The dealer won on a discard nobody named: the screen asks, and nobody pays yet.
    assert "Who discarded the winning tile?" in page.inner_text("#problems")
    assert page.inner_text("#payments") == ""
    page.click("#from-row button[data-key=S]")
    page.wait_for_selector("#from-row button.on[data-key=S]")
    assert page.inner_text("#payments").startswith("南 South → 東 East: ")

    # Mark the winning tile: the 4m, not the 3s the layout guessed.
    total = page.inner_text("#total")
    win = _tap_tile(page, "4m")
    page.click("#pick-win")
    page.wait_for_selector(f"#overlay rect.win[data-index='{win}']")
    assert "+4m" in page.inner_text("#reading") and page.inner_text("#total") != total

    # Split the chi back into the hand, then join its three tiles again.
    page.click("#edit-reading summary")
    reading = page.inner_text("#reading")
    page.locator("#groups .meld", has_text="吃").locator("button.split").click()
    _changed(page, "#reading", reading)
    assert "chi:678s" not in page.inner_text("#reading")
    for code in ("6s", "7s", "8s"):
        page.click(f"#groups .chip[data-code='{code}']:not(.on)")
    _shot(page.locator("#score-body"), "groups")
    reading = page.inner_text("#reading")
    page.click("#join-actions button[data-meld=chi]")
    _changed(page, "#reading", reading)
    assert "chi:678s" in page.inner_text("#reading")

    # Self-drawn on the last tile after all: the events are said on the Table screen.
    page.click("#from-row button[data-key=tsumo]")
    page.wait_for_selector("#from-row button.on[data-key=tsumo]")
    page.click("button[data-screen=context]")
    page.check("input[name=event][value=last_tile]")
    page.click("#context-form button[type=submit]")
    page.wait_for_selector("#items td.name:text('海底撈月')", state="attached")

    # Remembered for the next hand, after a reload too.
    page.reload()
    page.wait_for_selector("#next-hand:has-text('Next hand')")
    page.wait_for_function("document.querySelector('#next-hand').innerText.includes('海底撈月')")
    assert "連1" in page.inner_text("#next-hand")  # the dealer won: the streak went on
    assert page.is_checked("input[name=self_draw]")
    assert page.is_checked("input[name=event][value=last_tile]")

    page.click("button[data-screen=board]")
    page.wait_for_selector("#hands tbody tr")
    assert re.search(r"東 莊\s+East\s+\+\d+", page.inner_text("#totals"))
    assert "自摸" in page.inner_text("#hands")
    _shot(page, "scoreboard")
    csv_text = page.request.get(server + "api/export.csv").text()
    assert "East (E),self-draw" in csv_text
    page.click("#undo")
    page.wait_for_function("document.querySelectorAll('#hands tbody tr').length === 0")
    assert "連0" in page.inner_text("#session-line")


def test_camera_and_model_problems_are_said_on_screen(tmp_path, browser):
    empty = tmp_path / "empty"
    empty.mkdir()
    process, url, _, _ = _serve(tmp_path, empty, empty)
    try:
        page = _page(browser, viewport={"width": 1280, "height": 800})
        page.goto(url)
        page.wait_for_selector("#alerts li:has-text('has no photos')")
        page.wait_for_selector("#alerts li:has-text('default.json is missing')")
        assert page.is_visible("#preview-missing")
        page.click("#score-button")
        page.wait_for_selector("#status .bad:has-text('has no photos')")
        page.set_input_files("#upload", str(REPO / "examples" / "photos" / "taiwan-pinghu.jpg"))
        page.wait_for_selector("#status .bad:has-text('cannot read tiles')")
        _shot(page, "problems")
        assert "Traceback" not in page.inner_text("body")
        # The app keeps running: a photo dropped into the folder shows up.
        shutil.copy(REPO / "examples" / "photos" / "taiwan-pinghu.jpg", empty / "hand.jpg")
        page.wait_for_selector("#preview:not([hidden])")
        page.wait_for_function("!document.querySelector('#alerts').innerText.includes('photos')")
    finally:
        process.terminate()
        process.wait(timeout=10)


def _lan_address() -> str | None:
    from device.app.cli import lan_address

    address = lan_address()
    return None if address.startswith("127.") or not address[0].isdigit() else address


def test_a_phone_on_the_network_enters_the_pin(tmp_path, camera, browser):
    address = _lan_address()
    if address is None:
        pytest.skip("this machine has no network address to reach the app on")
    process, url, port, log = _serve(tmp_path, camera, REPO / "models", "--network")
    try:
        pin = re.search(r"PIN (\d{6})", log.read_text()).group(1)
        display = _page(browser, viewport={"width": 1280, "height": 800})
        display.goto(url)
        display.wait_for_selector(f"#network:has-text('PIN {pin}')")
        assert f"http://{address}:{port}/" in display.inner_text("#network")
        phone = _page(browser, viewport={"width": 390, "height": 844})
        phone.goto(f"http://{address}:{port}/")
        phone.wait_for_selector("#pin-dialog[open]")
        phone.fill("#pin-input", "000000" if pin != "000000" else "111111")
        phone.click("#pin-form button[type=submit]")
        phone.wait_for_selector("#pin-error:has-text('wrong PIN')")
        _shot(phone, "pin")
        phone.fill("#pin-input", pin)
        phone.click("#pin-form button[type=submit]")
        phone.wait_for_selector("#preview[src*='preview']:not([hidden])")
        assert not phone.is_visible("#pin-dialog")
        assert not phone.is_visible("#network")  # the PIN is for the table's display only
        for tab in phone.locator(".tab").all():  # every tab on screen, none cut off
            box = tab.bounding_box()
            assert box is not None and box["x"] + box["width"] <= 390
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_still_hand_scores_itself_with_the_toggle_on(tmp_path, browser):
    import json

    import cv2

    photos = REPO / "examples" / "photos"
    photo = cv2.imread(str(photos / "taiwan-pinghu.jpg"))
    half = photo.copy()  # the last four tiles not laid yet: table cloth from further down
    for tile in json.loads((photos / "taiwan-pinghu.json").read_text())["tiles"][13:17]:
        x1, y1, x2, y2 = (int(round(v)) for v in tile["box"])
        half[y1 - 3 : y2 + 3, x1 - 3 : x2 + 3] = photo[y1 + 297 : y2 + 303, x1 - 3 : x2 + 3]
    folder = _camera_of(tmp_path, half, "hand.png")
    process, url, _, _ = _serve(tmp_path, folder)
    try:
        page = _page(browser, viewport={"width": 1280, "height": 800})
        page.goto(url)
        page.wait_for_selector("#next-hand:has-text('Next hand')")
        assert not page.is_visible("#still-note")  # off until the table turns it on
        page.click("button[data-screen=context]")
        assert not page.is_checked("input[name=still_scoring]")
        page.check("input[name=still_scoring]")
        page.wait_for_selector("#status:has-text('scores by itself')")
        page.click("button[data-screen=camera]")
        page.wait_for_selector("#still-note:has-text('Scores by itself')")
        # The player puts down the rest of the hand and nobody taps Score.
        part = folder / "hand.part"
        part.write_bytes(cv2.imencode(".png", photo)[1].tobytes())
        os.replace(part, folder / "hand.png")
        page.wait_for_selector("#result.active #overlay rect", timeout=30000)
        assert "scored by itself" in page.inner_text("#status")
        assert "123456789m234567p11s" in page.inner_text("#reading")
        assert page.inner_text("#total").endswith("台")
        page.click("button[data-screen=board]")
        page.wait_for_function("document.querySelectorAll('#hands tbody tr').length === 1")
        page.reload()  # the toggle is remembered
        page.wait_for_selector("#next-hand:has-text('Next hand')")
        page.wait_for_function("document.querySelector('input[name=still_scoring]').checked")
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_fit_the_reader_to_the_set_on_the_scoreboard(tmp_path, camera, browser):
    """Two hands scored, then "Fit to this set" on the scoreboard: the app's own photos adapt
    the classifier of its model folder (a copy here), and "Previous reader" puts it back."""
    models = tmp_path / "models"
    shutil.copytree(
        REPO / "models", models, ignore=shutil.ignore_patterns("runs", "previous", "candidate")
    )
    shipped = (models / "tile-classifier.onnx").read_bytes()
    # Two hands: the same tiles twice running would be the hand scored last, shown again.
    shutil.copy(REPO / "examples" / "photos" / "taiwan-pinghu.jpg", camera / "hand2.jpg")
    process, url, _, _ = _serve(tmp_path, camera, models)
    try:
        page = _page(browser, viewport={"width": 1280, "height": 800})
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(url)
        page.wait_for_selector("#next-hand:has-text('Next hand')")
        for count in (1, 2):
            page.click("button[data-screen=camera]")
            page.click("#score-button")
            page.wait_for_selector("#result.active #overlay rect")
            page.click("button[data-screen=board]")
            page.wait_for_function(
                f"document.querySelectorAll('#hands tbody tr').length === {count}"
            )
        page.click("#adapt")
        page.wait_for_selector("#status:has-text('tile reader fitted to')")
        assert "of 2 photos" in page.inner_text("#status")
        assert (models / "tile-classifier.onnx").read_bytes() != shipped
        page.click("#adapt-undo")
        page.wait_for_selector("#status:has-text('back')")
        assert (models / "tile-classifier.onnx").read_bytes() == shipped
    finally:
        process.terminate()
        process.wait(timeout=10)


def _riichi_result(server, browser, events=()):
    """A riichi table where South wins on East's discard: the page, its photo scored."""
    context = {"variant": "riichi", "seat_wind": "S", "self_draw": False, "discarder": "E"}
    said = urllib.request.Request(
        server + "api/context",
        data=json.dumps({**context, "events": list(events)}).encode(),
        headers={"Content-Type": "application/json"},
    )
    urllib.request.urlopen(said, timeout=10)
    page = _table(server, browser)
    page.click("#score-button")
    page.wait_for_selector("#result.active #overlay rect")
    return page


def test_a_riichi_limit_hand_names_the_player_liable_for_it(server, browser):
    page = _riichi_result(server, browser)  # the photo's hand is typed over
    assert page.locator("#pao-label").is_hidden()  # no limit hand: nobody is asked
    page.click("#edit-reading summary")
    # 大三元 won on the photo's winning tile (3s): 白 and 發 called, 中 concealed; no flowers.
    page.fill("#edit-hand", "123s55p777z")
    page.fill("#edit-melds", "pon:555z pon:666z")
    page.fill("#edit-flowers", "")
    page.click("#save-reading")
    page.wait_for_selector("#items td.name:text('大三元')", state="attached")
    assert page.inner_text("#total .beside") == "yakuman"  # the limit beside its 翻
    assert page.locator("#pao-label").is_visible()
    assert page.locator("#pao-row button.on").get_attribute("data-key") == "none"
    assert page.inner_text("#payments") == "東 East → 南 South: 32000"
    page.click("#pao-row button[data-key=W]")
    page.wait_for_selector("#pao-row button.on[data-key=W]")
    assert page.inner_text("#payments").splitlines() == [
        "東 East → 南 South: 16000",
        "西 West → 南 South: 16000",
    ]
    # One hand's fact: the table's settings, and so the next hand, do not carry it.
    with urllib.request.urlopen(server + "api/context", timeout=10) as answer:
        assert b'"pao"' not in answer.read()


def test_riichi_sticks_on_the_table_go_to_the_winner_from_who_put_them_there(server, browser):
    page = _riichi_result(server, browser, events=["riichi"])
    page.click("#edit-reading summary")
    page.fill("#edit-hand", "234567m222p34555s")  # won on the photo's winning tile, 3s
    page.fill("#edit-melds", "")
    page.fill("#edit-flowers", "")
    page.click("#save-reading")
    page.wait_for_selector("#items td.name:text('立直')", state="attached")
    assert page.locator("#sticks-label").is_visible()
    assert page.inner_text("#payments") == "東 East → 南 South: 2600"
    page.click("#sticks-row button[data-key=W]")  # West declared riichi too
    page.wait_for_selector("#sticks-row button.on[data-key=W]")
    assert "×1" in page.inner_text("#sticks-row button[data-key=W]")
    assert page.inner_text("#payments").splitlines() == [
        "東 East → 南 South: 2600",
        "西 West → 南 South: 1000",
    ]


@contextlib.contextmanager
def _scored_without(tmp_path, browser, position):
    """The app scoring the pinghu example with its tile at ``position`` painted over in the
    table's colour (the models do not find it): the page, Score tapped, and that tile's label."""
    from tests.painted import pinghu_without

    with _scored(tmp_path, browser, *pinghu_without(position)) as scored:
        yield scored


@contextlib.contextmanager
def _scored(tmp_path, browser, image, tile):
    """The app scoring ``image``: the page, Score tapped, and ``tile``."""
    process, url, _, _ = _serve(tmp_path, _camera_of(tmp_path, image, "hand.jpg"))
    try:
        page = _page(browser, viewport={"width": 1280, "height": 800})
        page.goto(url)
        page.wait_for_selector("#next-hand:has-text('Next hand')")
        page.click("#score-button")
        yield page, tile
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_misread_tile_that_would_make_the_hand_win_is_read_so_with_one_tap(tmp_path, browser):
    # The pinghu example with its 2m showing the 6p's face: the models read it surely as 6p,
    # and only that 6p read as 2m makes the hand win.
    from tests.painted import face_copied

    with _scored(tmp_path, browser, *face_copied("taiwan-pinghu", 1, 13)) as (page, two_m):
        assert two_m["code"] == "2m"
        page.wait_for_selector("#result.active #overlay rect")
        assert page.inner_text("#total") == "not a winning hand"
        assert "it wins with 6p read as 2m" in page.inner_text("#problems")
        button = page.query_selector("#misread button")
        assert button.get_attribute("data-code") == "2m"
        assert button.inner_text() == "六筒 → 二萬"
        page.click("#misread button")
        page.wait_for_selector("#misread", state="hidden")
        assert page.inner_text("#reading").startswith("123456789m")
        assert page.inner_text("#total").endswith("台")


def test_a_box_that_holds_no_tile_is_set_aside_with_one_tap(tmp_path, browser):
    # The pinghu example with a copy of its 6p lying above the row: a stray that is no tile of
    # the hand (as a key or a coin read as one would be). Not a tile sets it aside: the problem
    # goes, the box stays on the photo, greyed, and the score does not change.
    from tests.painted import face_added

    with _scored(tmp_path, browser, *face_added("taiwan-pinghu", 13, (700, 350))) as (page, _):
        page.wait_for_selector("#result.active #overlay rect")
        assert "tile 6p lies apart from the hand" in page.inner_text("#problems")
        total = page.inner_text("#total")
        assert total.endswith("台")
        page.click("#overlay rect.tile-box[data-index='1']")
        page.wait_for_selector("#picker[open]")
        page.click("#pick-no-tile")
        page.wait_for_selector("#overlay rect.no-tile")
        assert "lies apart" not in page.inner_text("#problems")
        assert page.inner_text("#total") == total
        assert page.text_content("#overlay text:nth-of-type(2)") == "✕"
        # Tapped again, the picker says so and can read it as a tile after all.
        page.click("#overlay rect.no-tile")
        page.wait_for_selector("#picker[open]")
        assert page.inner_text("#picker-title").startswith("Read as no tile")
        assert page.is_disabled("#pick-no-tile") and page.is_disabled("#pick-win")


def test_a_box_without_which_the_hand_wins_is_set_aside_with_one_tap(tmp_path, browser):
    # The pinghu example with a copy of its 9m laid after the row, the winning 7p moved on: 18
    # tiles, and without a 9m the hand wins.
    from tests.painted import extra_in_row

    image = extra_in_row("taiwan-pinghu", 8, 15, 16)
    with _scored(tmp_path, browser, image, None) as (page, _):
        page.wait_for_selector("#result.active #overlay rect")
        assert "without 9m it is a winning hand" in page.inner_text("#problems")
        button = page.query_selector("#extra button")
        assert button.inner_text() == "九萬 ✕"
        page.click("#extra button")
        page.wait_for_selector("#extra", state="hidden")
        page.wait_for_selector("#overlay rect.no-tile")
        assert page.inner_text("#total").endswith("台")


def test_a_chi_a_missed_end_broke_is_counted_with_one_tap(tmp_path, browser):
    # The melds example with the 8s of its chi 678s painted out: 6s 7s are a chi with 5s or
    # with 8s, and the hand wins either way, so the player taps the one on the table.
    from tests.painted import painted_out

    with _scored(tmp_path, browser, *painted_out("taiwan-melds", 13)) as (page, eight_s):
        assert eight_s["code"] == "8s"
        page.wait_for_selector("#result.active #overlay rect")
        assert "With 5s or 8s it is a chi" in page.inner_text("#problems")
        buttons = page.query_selector_all("#broken-meld button")
        assert [b.get_attribute("data-meld") for b in buttons] == ["chi:567s", "chi:678s"]
        assert buttons[1].inner_text() == "六索 七索 八索"
        buttons[1].click()
        page.wait_for_selector("#broken-meld", state="hidden")
        assert page.inner_text("#total").endswith("台")


def test_a_tile_the_camera_missed_is_added_with_one_tap(tmp_path, browser):
    # The pinghu example with its 1m painted out: the models find 16 tiles, and 1m, 4m or 7m
    # would make the hand win.
    with _scored_without(tmp_path, browser, 0) as (page, one_m):
        assert one_m["code"] == "1m"
        page.wait_for_selector("#result.active #overlay rect")
        assert "1m or 4m or 7m would make a winning hand" in page.inner_text("#problems")
        assert [b.get_attribute("data-code") for b in page.query_selector_all("#missing button")] == [
            "1m", "4m", "7m",
        ]  # fmt: skip
        page.click("#missing button[data-code='1m']")
        page.wait_for_selector("#missing", state="hidden")
        assert page.inner_text("#reading").startswith("123456789m234567p11s +7p"), page.inner_text(
            "#reading"
        )
        assert page.inner_text("#total").endswith("台")


def test_the_gap_a_missed_tile_left_is_marked_on_the_photo(tmp_path, browser):
    # The pinghu example with its 5m painted out: the only tile that wins, taken, and the gap
    # between 4m and 6m marked for the player to check.
    with _scored_without(tmp_path, browser, 4) as (page, five):
        page.wait_for_selector("#result.active #overlay rect.unseen")
        assert page.text_content("#overlay text.unseen") == "5m?"
        x = float(page.get_attribute("#overlay rect.unseen", "x"))
        assert abs(x - five["box"][0]) < 15
        assert page.inner_text("#total").endswith("台")
        # A typed hand drops the mark with the reading it was found for.
        page.click("#edit-reading summary")
        page.fill("#edit-hand", "123456789m234567p11s")
        page.click("#save-reading")
        page.wait_for_selector("#overlay rect.unseen", state="detached")
        assert page.inner_text("#total").endswith("台")


def test_a_drawn_hand_is_recorded_from_the_scoreboard(server, browser):
    urllib.request.urlopen(
        urllib.request.Request(
            server + "api/context",
            data=json.dumps({"variant": "riichi"}).encode(),
            headers={"Content-Type": "application/json"},
        )
    )
    page = _page(browser)
    page.goto(server)
    page.click("button[data-screen=board]")
    page.click("#record-draw")
    assert page.inner_text("#draw-form select[name=reason]").split() == [
        "荒牌流局",
        "途中流局",
        "流局滿貫",
    ]
    assert page.locator("#draw-sweep").is_hidden()  # 片甲不留 is xiangqi's
    page.select_option("#draw-form select[name=reason]", "nagashi")
    assert page.inner_text("#draw-asks legend") == "who made 流局滿貫"
    page.select_option("#draw-form select[name=reason]", "wall")
    assert page.locator("#draw-asks").is_hidden()
    page.check("#draw-ready input[value=S]")
    page.click("#draw-record")
    page.wait_for_selector("#result.active #total:text('流局')")
    assert page.inner_text("#reading") == "聽 南 South"
    assert page.locator("#how-won").is_hidden() and page.locator(".photo-box").is_hidden()
    assert page.inner_text("#result-notes") == "The deal passes; one more 本場"
    assert len(page.inner_text("#payments").splitlines()) == 3
    _shot(page, "draw")
    page.click("button[data-screen=board]")
    page.wait_for_selector("#hands td:text('流局 荒牌流局')")
    assert "South" in page.inner_text("#session-line")  # South deals now
    assert "+3000" in page.inner_text("#totals")


def test_an_earlier_session_is_picked_on_the_scoreboard_to_look_back_at(server, browser):
    def post(path, body):
        urllib.request.urlopen(
            urllib.request.Request(
                server + path,
                data=json.dumps(body).encode(),
                headers={"Content-Type": "application/json"},
            )
        )

    post("api/context", {"variant": "riichi"})
    post("api/draw", {"ready": ["S"]})
    post("api/session", {"players": ["Ann", "Bo", "Cy", "Di"]})
    page = _page(browser)
    page.goto(server)
    page.click("button[data-screen=board]")
    page.wait_for_selector("#session-pick option:nth-child(2)", state="attached")
    assert page.locator("#undo").is_visible()
    page.select_option("#session-pick", "1")
    page.wait_for_selector("#session-line:has-text('an earlier session')")
    assert page.locator("#undo").is_hidden() and page.locator("#record-draw").is_hidden()
    assert "+3000" in page.inner_text("#totals")
    assert page.get_attribute("#export-csv", "href") == "/api/export.csv?session=1"
    page.select_option("#session-pick", "")
    page.wait_for_selector("#session-line:has-text('風圈')")
    assert page.locator("#undo").is_visible()


def test_the_scoreboard_fits_a_phones_width(server, browser):
    # The hands table was 540 pixels wide on a 390-pixel phone: Won by and Total off the page.
    urllib.request.urlopen(
        urllib.request.Request(
            server + "api/draw",
            data=json.dumps({}).encode(),
            headers={"Content-Type": "application/json"},
        )
    )
    page = _page(browser, viewport={"width": 390, "height": 844})
    page.goto(server)
    page.click("button[data-screen=board]")
    page.wait_for_selector("#hands td:text('流局')")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # With an earlier session the Session picker shows: it stays inside the width too.
    urllib.request.urlopen(
        urllib.request.Request(
            server + "api/session",
            data=json.dumps({"players": ["Ann", "Bo", "Cy", "Di"]}).encode(),
            headers={"Content-Type": "application/json"},
        )
    )
    page.reload()
    page.click("button[data-screen=board]")
    page.wait_for_selector("#session-pick option:nth-child(2)", state="attached")
    assert page.locator("#session-pick").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_hand_typed_in_edit_groups_names_its_winning_tile(server, browser):
    # With no box to tap as the winning tile (the camera read none of it), a typed hand could
    # not say which tile won it (a helper's play-through).
    page = _riichi_result(server, browser)
    _typed(page, "234567m222p34555s", "2m")
    assert page.input_value("#edit-win") == "2m"


def test_the_tables_rule_options_are_set_on_the_table_screen(server, browser):
    # The Table screen had no field for them: a table playing 台值 50 or 見花見台 could only say
    # so through /api/context.
    page = _table(server, browser)
    page.click("button[data-screen=context]")
    page.check("input[name=self_draw]")
    page.click("#context-form button[type=submit]")
    page.wait_for_selector("#status:has-text('saved')")
    page.click("button[data-screen=camera]")
    page.click("#score-button")
    page.wait_for_selector("#result.active #overlay rect")
    payments = page.inner_text("#payments")
    assert payments

    page.click("button[data-screen=context]")
    page.click("#rule-options summary")
    assert page.inner_text("#rule-options summary").endswith("the rule text's defaults")
    assert page.input_value("[data-option=tai_value]") == "20"
    assert page.is_checked("[data-option=flower_kong]")
    assert page.locator("[data-option=dealer_seat]").count() == 0  # the app sets it
    page.fill("[data-option=tai_value]", "50")
    page.click("#context-form button[type=submit]")
    page.wait_for_selector("#status:has-text('saved')")
    # The hand just scored is paid at the new 台值 too; the next hands are scored with it.
    page.wait_for_function(
        "(before) => document.querySelector('#payments').innerText !== before", arg=payments
    )
    context = json.loads(urllib.request.urlopen(server + "api/context").read())
    assert context["rules"] == {"tai_value": 50}

    # A count below its least is held back by the form itself.
    page.fill("[data-option=minimum_tai]", "-1")
    assert not page.evaluate("document.querySelector('[data-option=minimum_tai]').validity.valid")
    page.fill("[data-option=minimum_tai]", "1")

    page.reload()
    page.click("button[data-screen=context]")
    page.wait_for_selector("#rule-options summary:has-text('1 changed')")
    page.click("#rule-options summary")
    assert page.input_value("[data-option=tai_value]") == "50"
    # Another rule set shows its own options, at their defaults until saved.
    page.select_option("select[name=variant]", "riichi")
    assert page.locator("[data-option=tai_value]").count() == 0
    assert not page.is_checked("[data-option=red_fives]")
    assert page.input_value("[data-option=noten_payment]") == "3000"
    # A value the rule set does not take is refused in one line; the saved options stay.
    page.select_option("select[name=variant]", "mingjiang")
    page.fill("[data-option=seats_out]", "Q")
    page.click("#context-form button[type=submit]")
    page.wait_for_selector("#status .bad:has-text('seats_out')")
    assert "\n" not in page.inner_text("#status").strip()
    context = json.loads(urllib.request.urlopen(server + "api/context").read())
    assert (context["variant"], context["rules"]) == ("taiwan", {"tai_value": 50})


def test_two_pages_saving_the_table_keep_each_others_options_and_hands(server, browser):
    # A second page's older form wiped the first's options, and a page whose hand another page
    # had scored after rewrote that older hand, winner and all (a helper's play-through).
    first, second = _page(browser), _page(browser)
    for page in (first, second):
        page.goto(server)
        page.wait_for_selector("#next-hand:has-text('Next hand')")
    first.click("button[data-screen=context]")
    first.check("input[name=self_draw]")
    first.click("#context-form button[type=submit]")
    first.wait_for_selector("#status:has-text('saved')")
    first.click("button[data-screen=camera]")
    first.click("#score-button")
    first.wait_for_selector("#result.active #overlay rect")
    older = first.inner_text("#payments")
    second.click("button[data-screen=context]")  # its form as the table had it then
    # Another page records the table's next hand (a draw: the folder holds one photo).
    urllib.request.urlopen(
        urllib.request.Request(
            server + "api/draw", data=b"{}", headers={"Content-Type": "application/json"}
        )
    )

    first.click("button[data-screen=context]")
    first.click("#rule-options summary")
    first.fill("[data-option=tai_value]", "50")
    first.select_option("select[name=seat_wind]", "S")
    first.click("#context-form button[type=submit]")
    first.wait_for_function("document.querySelector('#status').innerText.includes('saved')")
    assert first.inner_text("#status") == "table settings saved for the next hand"
    hands = json.loads(urllib.request.urlopen(server + "api/session").read())["hands"]
    scored = min(h["id"] for h in hands)
    hand = json.loads(urllib.request.urlopen(server + f"api/hands/{scored}").read())
    assert hand["context"]["seat_wind"] == "E" and hand["corrections"] == []
    # The older hand as it was (its screen now hidden: the text without its line breaks).
    assert "".join(first.inner_text("#payments").split()) == "".join(older.split())

    second.click("#rule-options summary")
    second.fill("[data-option=base]", "200")
    second.click("#context-form button[type=submit]")
    second.wait_for_selector("#status:has-text('saved')")
    rules = json.loads(urllib.request.urlopen(server + "api/context").read())["rules"]
    assert rules == {"tai_value": 50, "base": 200}

    # A number the option does not take is refused in one line, the fold closed or open.
    second.fill("[data-option=base]", "-5")
    second.click("#rule-options summary")
    second.click("#context-form button[type=submit]")
    second.wait_for_selector("#status .bad:has-text('base')")
    assert json.loads(urllib.request.urlopen(server + "api/context").read())["rules"] == rules


def test_switching_the_rule_set_back_and_forth_keeps_the_events(server, browser):
    page = _page(browser)
    page.goto(server)
    page.wait_for_selector("#next-hand:has-text('Next hand')")
    page.click("button[data-screen=context]")
    page.check("input[name=self_draw]")
    page.check("input[name=event][value=last_tile]")
    page.click("#context-form button[type=submit]")
    page.wait_for_selector("#status:has-text('saved')")
    page.select_option("select[name=variant]", "riichi")
    assert page.is_checked("input[name=event][value=last_tile]")  # riichi takes 海底 too
    page.select_option("select[name=variant]", "taiwan")
    assert page.is_checked("input[name=event][value=last_tile]")


def test_a_streak_typed_as_no_number_is_said_not_saved_as_nought(server, browser):
    # "3e" in the streak field read as empty, and Save set the streak to 0 (a play-through).
    urllib.request.urlopen(
        urllib.request.Request(
            server + "api/context",
            data=json.dumps({"dealer_streak": 3}).encode(),
            headers={"Content-Type": "application/json"},
        )
    )
    page = _page(browser)
    page.goto(server)
    page.wait_for_selector("#next-hand:has-text('連3')")
    page.click("button[data-screen=context]")
    page.click("input[name=dealer_streak]")
    page.keyboard.press("End")
    page.keyboard.type("e")
    page.click("#context-form button[type=submit]")
    page.wait_for_selector("#status .bad:text('dealer streak must be a whole number')")
    assert json.loads(urllib.request.urlopen(server + "api/context").read())["dealer_streak"] == 3


def _hand(server, hand_id):
    with urllib.request.urlopen(server + f"api/hands/{hand_id}", timeout=10) as answer:
        return json.loads(answer.read())


def test_a_rule_set_chosen_for_the_next_hand_leaves_the_hand_just_scored_alone(server, browser):
    # Saving 明將 on the Table screen made the riichi hand just scored a 明將 hand, its total
    # and the session's with it (a tester's play-through): a rule set is the next hand's.
    page = _riichi_result(server, browser, events=["riichi"])
    _typed(page, "123456789m11222z", "2z")
    hand_id = page.evaluate("currentHand.id")
    before = _hand(server, hand_id)
    assert before["result"]["winning"] and before["context"]["variant"] == "riichi"
    page.click("button[data-screen=context]")
    page.select_option("select[name=variant]", "mingjiang")
    page.click("#context-form button[type=submit]")
    page.wait_for_selector("#status:has-text('saved')")
    assert page.inner_text("#status") == (
        f"table settings saved for the next hand (hand {hand_id} keeps its rule set)"
    )
    after = _hand(server, hand_id)
    assert (after["context"], after["result"]) == (before["context"], before["result"])
    assert after["corrections"] == before["corrections"]
    with urllib.request.urlopen(server + "api/context", timeout=10) as answer:
        assert json.loads(answer.read())["variant"] == "mingjiang"


def test_an_older_table_form_sends_only_what_was_changed_on_it(server, browser):
    # A page left open with an older Table form rolled back the rule set, round wind and
    # dealer streak another page had saved when it ticked one event (a tester's play-through).
    older = _page(browser)
    older.goto(server)
    older.wait_for_selector("#next-hand:has-text('Next hand')")
    older.click("button[data-screen=context]")
    said = {"variant": "riichi", "round_wind": "W", "dealer_streak": 3, "self_draw": True}
    urllib.request.urlopen(
        urllib.request.Request(
            server + "api/context",
            data=json.dumps(said).encode(),
            headers={"Content-Type": "application/json"},
        ),
        timeout=10,
    )
    older.check("input[name=event][value=last_tile]")
    older.click("#context-form button[type=submit]")
    older.wait_for_selector("#status:has-text('saved')")
    with urllib.request.urlopen(server + "api/context", timeout=10) as answer:
        context = json.loads(answer.read())
    assert (context["variant"], context["round_wind"], context["honba"]) == ("riichi", "W", 3)
    assert context["self_draw"] is True and context["events"] == ["last_tile"]
    # The form is the table's again, and an untick sends that event alone.
    assert older.input_value("select[name=variant]") == "riichi"
    older.uncheck("input[name=event][value=last_tile]")
    older.click("#context-form button[type=submit]")
    older.wait_for_function(
        "() => !document.querySelector('#next-hand').innerText.includes('海底')"
    )
    with urllib.request.urlopen(server + "api/context", timeout=10) as answer:
        context = json.loads(answer.read())
    assert (context["variant"], context["round_wind"], context["honba"]) == ("riichi", "W", 3)
    assert context["events"] == []


def test_after_a_reload_the_table_screen_says_its_changes_are_for_the_next_hand(server, browser):
    # The page forgets the hand it scored when reloaded: Table changes went to no hand, and the
    # status line said "table settings saved" as if they had (a tester's play-through).
    page = _riichi_result(server, browser)
    hand_id = page.evaluate("currentHand.id")
    before = _hand(server, hand_id)
    page.reload()
    page.wait_for_selector("#result.active #overlay rect")  # the hand on show again
    page.click("button[data-screen=context]")
    page.select_option("select[name=seat_wind]", "W")
    page.click("#context-form button[type=submit]")
    page.wait_for_selector("#status:has-text('saved')")
    assert page.inner_text("#status") == "table settings saved for the next hand"
    assert _hand(server, hand_id)["context"] == before["context"]


def test_a_score_tap_that_finds_a_hand_recorded_already_says_so_on_the_result(server, browser):
    # The folder camera back at its first photo (one photo here; after a restart, every
    # folder): the Result screen looked like a fresh score, and corrections went to the old
    # hand unawares (a tester's play-through).
    page = _table(server, browser)
    page.click("#score-button")
    page.wait_for_selector("#result.active #overlay rect")
    assert page.locator("#repeat-of").is_hidden()
    first = page.evaluate("currentHand.id")
    page.click("button[data-screen=camera]")
    page.click("#score-button")
    banner = f"Already recorded as hand {first}: not a new hand"
    page.wait_for_selector(f"#repeat-of:has-text('{banner}')")
    assert page.evaluate("currentHand.id") == first
    # Still said once the hand is corrected: the correction is hand N's.
    page.click("button[data-screen=result]")
    page.click("#edit-reading summary")
    page.fill("#edit-flowers", "")
    page.click("#save-reading")
    page.wait_for_selector("#status:has-text('corrected')")
    assert page.locator("#repeat-of").is_visible()
    # Undone, the photo is scored anew: a new hand, no banner.
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("button[data-screen=board]")
    page.click("#undo")
    page.wait_for_selector(f"#status:has-text('hand {first} undone')")
    page.click("button[data-screen=camera]")
    page.click("#score-button")
    page.wait_for_function(f"() => currentHand && currentHand.id !== {first}")
    assert page.locator("#repeat-of").is_hidden()


def test_a_photo_with_no_tile_found_offers_to_type_the_hand_in(tmp_path, browser):
    # "no tiles found in the photo" was all the page said: a hand the camera could not read
    # (poor light, a cloth the detector misses) could not be scored at all.
    import numpy as np

    blank = np.full((1200, 1600, 3), (40, 120, 40), np.uint8)
    process, url, _, _ = _serve(tmp_path, _camera_of(tmp_path, blank, "blank.png"))
    try:
        page = _table(url, browser)
        assert page.locator("#type-hand").is_hidden()
        page.click("#score-button")
        page.wait_for_selector("#status:has-text('no tiles found')")
        assert page.locator("#type-hand").is_visible()
        page.fill("#typed-hand", "234m567p33s")
        page.fill("#typed-melds", "pon:777z chi:678s concealed_kong:9999m")
        page.fill("#typed-win", "3s")
        page.click("#score-typed")
        page.wait_for_selector("#result.active #total:has-text('台')")
        assert "+3s" in page.inner_text("#reading")
        assert page.locator(".photo-box").is_hidden()  # no photo to tap
        # Corrected in Edit groups like any hand: East's own flower counts.
        page.click("#edit-reading summary")
        page.fill("#edit-flowers", "1f")
        page.click("#save-reading")
        page.wait_for_selector("#status:has-text('corrected')")
        assert "1f" in page.inner_text("#reading")
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_reload_on_the_result_screen_shows_the_same_hand_and_score(server, browser):
    # Reloaded (a phone pulled to refresh, the kiosk restarted), the page came back on the
    # Camera screen, and the hand being scored was gone from sight.
    page = _table(server, browser)
    page.click("#score-button")
    page.wait_for_selector("#result.active #overlay rect")
    hand_id, total = page.evaluate("currentHand.id"), page.inner_text("#total")
    page.reload()
    page.wait_for_selector("#result.active #overlay rect")
    assert page.evaluate("currentHand.id") == hand_id
    assert page.inner_text("#total") == total
    # Another screen left, a reload comes back on the Camera screen as before.
    page.click("button[data-screen=board]")
    page.reload()
    page.wait_for_selector("#camera.active #next-hand:has-text('Next hand')")


def test_the_scoreboard_shows_each_rule_sets_totals_apart(server, browser):
    # A table that went from Taiwan to riichi saw 台 and riichi's points summed into one total.
    def send(path, body):
        request = urllib.request.Request(
            server + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        urllib.request.urlopen(request).read()

    send("api/context", {"variant": "taiwan", "self_draw": True})
    send("api/typed", {"hand": "234m567p33s", "win_tile": "3s", "melds": ["pon:777z",
         "chi:678s", "concealed_kong:9999m"]})  # fmt: skip
    send("api/context", {"variant": "riichi"})
    send("api/draw", {"reason": "wall", "ready": ["S"]})
    page = _table(server, browser)
    page.click("button[data-screen=board]")
    page.wait_for_selector("#totals thead th:has-text('日本麻將')")
    assert "台灣" in page.inner_text("#totals thead")
    south = page.locator("#totals tbody tr").nth(1).inner_text()
    assert re.search(r"South\s+-\d+\s+\+3000", south), south


def test_a_winner_tap_corrects_the_hand_whatever_discarder_the_table_saved(server, browser):
    # Another phone saved South as the next hand's discarder: tapping South as this hand's
    # winner posted {seat_wind: S} to the table first, was refused ("discarder S is the
    # winner") and never corrected the hand (helper 64).
    page = _table(server, browser)
    page.click("#score-button")
    page.wait_for_selector("#total:not(:empty)")
    page.click("#from-row button[data-key=W]")
    page.wait_for_selector("#from-row button.on[data-key=W]")
    hand_id = page.evaluate("currentHand.id")
    saved = page.request.post(server + "api/context", data={"discarder": "S"})
    assert saved.ok, saved.text()
    page.click("#winner-row button[data-key=S]")
    page.wait_for_selector("#winner-row button.on[data-key=S]")
    hand = page.request.get(server + f"api/hands/{hand_id}").json()
    assert (hand["context"]["seat_wind"], hand["context"]["discarder"]) == ("S", "W")
    table = page.request.get(server + "api/context").json()
    assert (table["seat_wind"], table["discarder"]) == ("S", None)  # fitted to the table
    assert page.locator("#status .bad").count() == 0

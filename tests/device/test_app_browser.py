"""End to end in real headless Chromium: score a photo, correct a tile, see the score follow.

Also writes a screenshot of each screen to docs/images/ (set TILESCORE_SCREENSHOTS=1).
"""

import os
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


@pytest.fixture
def server(tmp_path):
    camera = tmp_path / "camera"
    camera.mkdir()
    shutil.copy(REPO / "examples" / "photos" / "taiwan-melds.jpg", camera / "hand.jpg")
    port = _free_port()
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
            str(REPO / "models"),
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
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
        pytest.fail("the app did not start: " + (process.stdout.read() if process.stdout else ""))
    yield url
    process.terminate()
    process.wait(timeout=10)


def _shot(page, name):
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"app-{name}.png"))


def test_score_correct_and_see_the_total_change(server):
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
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(server)
        page.wait_for_selector("#preview[src*='preview']")
        _shot(page, "camera")
        page.click("button[data-screen=context]")
        page.select_option("select[name=seat_wind]", "S")
        page.check("input[name=self_draw]")
        _shot(page, "table")
        page.click("#context-form button[type=submit]")
        page.click("button[data-screen=camera]")
        page.click("#score-button")
        page.wait_for_selector("#result.active #overlay rect")
        before = page.inner_text("#total")
        reading_before = page.inner_text("#reading")
        _shot(page, "result")
        # Correct a tile: tap the box of the hand's 2m (the row's first tile), pick 東 from the
        # grid. Found by its label: the detection order is the model's, not the layout's.
        index = page.evaluate(
            "() => [...document.querySelectorAll('#overlay text')]"
            ".findIndex((t) => t.textContent === '2m')"
        )
        assert index >= 0, "the models did not read the example's 2m"
        page.locator("#overlay rect").nth(index).dispatch_event("click")
        page.wait_for_selector("#picker[open]")
        _shot(page, "picker")
        page.click("#tile-grid button[data-code='1z']")
        page.wait_for_function(
            "([r]) => document.querySelector('#reading').innerText !== r", arg=[reading_before]
        )
        after = page.inner_text("#total")
        assert "1z" in page.inner_text("#reading")
        assert after != before, "234m became 1z34m: the hand no longer scores the same"
        assert page.locator("#overlay text").nth(index).text_content() == "1z"
        page.click("button[data-screen=board]")
        page.wait_for_selector("#hands tbody tr")
        _shot(page, "scoreboard")
        browser.close()

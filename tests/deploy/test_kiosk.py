"""deploy/kiosk.sh: the display opens the app once it answers; an app that never does is said
on a page of ours, with the service's last lines, which goes on to the app once it answers (it
showed Chromium's "can't reach" page, the reason only in the journal)."""

import os
import subprocess
import time
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "deploy" / "kiosk.sh"
URL = "http://localhost:8765/"


@pytest.fixture
def tools(tmp_path):
    """curl answering while ``up`` exists, a journal with a reason in it, a browser that notes
    what it was asked to open."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    scripts = {
        "curl": f'[ -e "{tmp_path}/up" ]',
        "journalctl": 'echo "error: the data folder /var/lib/tilescore is read-only <here>"',
        "browser": f'echo "$@" > "{tmp_path}/opened"',
    }
    for name, body in scripts.items():
        path = bin_dir / name
        path.write_text(f"#!/bin/sh\n{body}\n")
        path.chmod(0o755)
    return tmp_path


def kiosk(tools, url=URL):
    env = os.environ | {
        "PATH": f"{tools / 'bin'}:/usr/bin:/bin",
        "KIOSK_WAIT_S": "1",
        "KIOSK_PAGE": str(tools / "down.html"),
        "KIOSK_BROWSER": str(tools / "bin" / "browser"),
    }
    subprocess.run(["sh", str(SCRIPT), url], env=env, check=True, timeout=30)
    return (tools / "opened").read_text().split()[-1]


def test_an_app_that_answers_is_opened(tools):
    (tools / "up").touch()
    assert kiosk(tools) == URL
    # Given without its last slash, it is still asked for its status where that lies.
    assert kiosk(tools, URL.rstrip("/")) == URL


def test_an_app_that_never_answers_is_said_and_opened_once_it_does(tools):
    opened = kiosk(tools)
    page = tools / "down.html"
    assert opened == f"file://{page}"
    text = page.read_text()
    assert "The table app is not running" in text and 'http-equiv="refresh"' in text
    assert "read-only &lt;here&gt;" in text  # the journal's words, escaped
    (tools / "up").touch()  # the service came up: the page sends the display on
    for _ in range(40):
        if URL in page.read_text():
            break
        time.sleep(0.25)
    assert f'content="0;url={URL}"' in page.read_text()

"""A page of another site, open in the display's browser, cannot write to the table app or the
labelling page (a probe undid hands with a ``text/plain`` POST from a foreign Origin)."""

import json

import pytest

from device.label_web import create_label_app
from device.labels import LabelStore


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},  # a sandboxed frame or a file:// page
        {"Origin": "http://localhost:9999"},  # another server on this machine
        {"Sec-Fetch-Site": "cross-site"},
    ],
)
def test_a_write_from_another_sites_page_is_refused(bare_client, headers):
    bare_client.post("/api/draw", json={})
    refused = bare_client.post("/api/undo", data="{}", content_type="text/plain", headers=headers)
    assert refused.status_code == 403
    assert refused.get_json()["error"] == "refused: the request came from another site's page"
    session = bare_client.get("/api/session").get_json()
    assert len(session["hands"]) == 1  # the draw is still there
    # Reading stays open but to another site's page loading it (an image's address); the
    # app's own page and scripts (no Origin) write as before.
    read = bare_client.get("/api/status", headers=headers).status_code
    assert read == (403 if "Sec-Fetch-Site" in headers else 200)
    own = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    assert bare_client.post("/api/undo", json={}, headers=own).status_code == 200
    assert bare_client.post("/api/draw", json={}).status_code == 200


def test_the_labelling_page_refuses_another_sites_writes(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    app = create_label_app(LabelStore(photos, tmp_path / "labels"), None)
    with app.test_client() as client:
        answer = client.put(
            "/api/photos/x.jpg/label",
            data=json.dumps({"tiles": []}),
            headers={"Origin": "http://evil.example"},
        )
    assert answer.status_code == 403


@pytest.mark.parametrize(
    ("host", "answered"),
    [
        ("evil.example:8765", 403),  # a site's own name made to point here (DNS rebinding)
        ("127.0.0.1:8765", 200),
        ("[::1]:8765", 200),
        ("192.168.1.20:8765", 200),  # a phone on the network, by the address the display shows
        ("localhost:8765", 200),
    ],
)
def test_the_api_answers_to_this_machines_names_only(bare_client, host, answered):
    assert bare_client.get("/api/status", headers={"Host": host}).status_code == answered
    undo = bare_client.post("/api/undo", json={}, headers={"Host": host})
    if answered == 403:
        assert undo.status_code == 403
        assert "is not this machine's name" in undo.get_json()["error"]
    else:  # answered: no session to undo in yet
        assert undo.get_json()["error"] == "no session to undo in"

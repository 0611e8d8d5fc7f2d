"""Writes to a tilescore server come from its own pages, never from another site's.

The table app skips its PIN for the display's own browser (a request from this machine), and the
labelling page has none: a page of any other site open in that browser could send a form or a
``fetch`` there (``text/plain`` bodies need no preflight) and undo hands, start sessions, refit
the models or rewrite labels. A browser says where a request comes from: ``Origin`` on every
write, ``Sec-Fetch-Site`` too in current ones. Scripts and ``curl`` send neither and are let
through, as before.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Flask, jsonify, request

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def refuse_other_sites(app: Flask) -> None:
    """Refuse (403, one line) a write whose page is another site's."""

    @app.before_request
    def same_site_only() -> Any:
        if request.method not in WRITES:
            return None
        site = request.headers.get("Sec-Fetch-Site")
        origin = request.headers.get("Origin")
        foreign = site == "cross-site" or (
            origin is not None and (origin == "null" or urlsplit(origin).netloc != request.host)
        )
        if foreign:
            return jsonify(error="refused: the request came from another site's page"), 403
        return None

"""Requests to a tilescore server come from its own pages, never from another site's.

The table app skips its PIN for the display's own browser (a request from this machine), and the
labelling page has none: a page of any other site open in that browser could send a form or a
``fetch`` there (``text/plain`` bodies need no preflight) and undo hands, start sessions, refit
the models or rewrite labels, or load an API address as an image (the labelling page writes a
proposal on a read). A browser says where a request comes from: ``Origin`` on every write,
``Sec-Fetch-Site`` on every request in current ones. Scripts and ``curl`` send neither and are
let through, as before.

A site can also have its own name answer with this machine's address (DNS rebinding): its page
is then "same-origin" with a server that answers to any name. So the API answers only to this
machine's names: an address, ``localhost``, its host name (and ``NAME.local``).
"""

from __future__ import annotations

import ipaddress
import socket
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, jsonify, request

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def refuse_other_sites(app: Flask) -> None:
    """Refuse (403, one line) an API request whose page is another site's, or that came by a
    name that is not this machine's."""

    @app.before_request
    def same_site_only() -> Any:
        if not request.path.startswith("/api/"):
            return None  # the pages themselves: a link from anywhere may open them
        if not _own_name(urlsplit(f"//{request.host}").hostname or ""):
            return jsonify(error=f"refused: {request.host!r} is not this machine's name"), 403
        if request.headers.get("Sec-Fetch-Site") == "cross-site" or (
            request.method in WRITES and _foreign(request.headers.get("Origin"))
        ):
            return jsonify(error="refused: the request came from another site's page"), 403
        return None


def _foreign(origin: str | None) -> bool:
    return origin is not None and (origin == "null" or urlsplit(origin).netloc != request.host)


def _own_name(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True  # an address names this machine however it was reached (a phone: its IP)
    except ValueError:
        return host.lower() in _names()


@cache
def _names() -> frozenset[str]:
    name = socket.gethostname().lower()
    return frozenset({"localhost", name, f"{name}.local", socket.getfqdn().lower()})

"""The table app with no models and no camera, for what reads no photo (drawn hands, sessions),
and the few requests its tests make again and again."""

from __future__ import annotations

from typing import Any


def table(client: Any, **context: Any) -> dict[str, Any]:
    response = client.post("/api/context", json=context)
    assert response.status_code == 200, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


def draw(client: Any, **sent: Any) -> dict[str, Any]:
    response = client.post("/api/draw", json=sent)
    assert response.status_code == 200, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


def session(client: Any) -> dict[str, Any]:
    return client.get("/api/session").get_json()  # type: ignore[no-any-return]

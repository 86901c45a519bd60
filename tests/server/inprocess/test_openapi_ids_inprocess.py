"""The API's operation ids are part of its contract (clients are generated from the OpenAPI
document): moving an endpoint to another module of `server/api/` must not change them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

IDS = {  # written by hand from the document before the API became a package
    ("post", "/api/v1/events/{event}/decklists"): "varz_deck_server_api_submit",
    ("get", "/api/v1/events/{event}/decklists"): "varz_deck_server_api_list_decklists",
    ("post", "/api/v1/events/{event}/check"): "varz_deck_server_api_check",
    ("get", "/api/v1/events/{event}"): "varz_deck_server_api_event_state",
    ("get", "/api/v1/events/{event}/public"): "varz_deck_server_api_public",
    ("post", "/api/v1/events/{event}/lock"): "event_lock",
    ("post", "/api/v1/events/{event}/unlock"): "event_unlock",
    ("post", "/api/v1/events/{event}/publish"): "event_publish",
    ("post", "/api/v1/events/{event}/unpublish"): "event_unpublish",
    ("get", "/api/v1/decklists/{decklist}"): "varz_deck_server_api_get_decklist",
    ("put", "/api/v1/decklists/{decklist}"): "varz_deck_server_api_replace_decklist",
    ("delete", "/api/v1/decklists/{decklist}"): "varz_deck_server_api_withdraw_decklist",
    ("post", "/api/v1/decklists/{decklist}/restore"): "varz_deck_server_api_restore_decklist",
    ("get", "/api/v1/events/{event}/audit"): "varz_deck_server_api_audit",
    ("post", "/api/v1/events/{event}/roster"): "varz_deck_server_api_upload_roster",
    ("get", "/api/v1/events/{event}/roster"): "varz_deck_server_api_roster",
    ("get", "/api/v1/events/{event}/roster.csv"): "varz_deck_server_api_roster_csv",
    ("get", "/api/v1/events/{event}/export.csv"): "varz_deck_server_api_export_csv",
    ("get", "/api/v1/events/{event}/metagame"): "varz_deck_server_api_metagame",
    ("get", "/api/v1/events/{event}/sheets"): "varz_deck_server_api_sheets",
}


def test_every_operation_keeps_its_id(client: Any, django_db: Path) -> None:
    document = client.get("/api/v1/openapi.json").json()
    found = {
        (method, path): operation["operationId"]
        for path, methods in document["paths"].items()
        for method, operation in methods.items()
    }
    assert found == IDS

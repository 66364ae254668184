"""Helpers for tests that drive the store directly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from kadesh.store import Store

TEST_PAGE = "a-page-of-the-test"  # the ``server`` of the watches written here


def watched(store: Store, game_id: str) -> str:
    """``game_id``, watched as by a page left open for the whole test (a lease an hour long): the computer plays
    a game where it holds every seat only while someone watches (kadesh.store.watches)."""
    store.watches.open(game_id, TEST_PAGE, now=datetime.now(UTC) + timedelta(hours=1))
    return game_id

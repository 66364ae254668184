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


def computer_only(store: Store, ruleset: str = "manoeuvre", level: str = "maladroit") -> str:
    """A game where the computer holds every seat, given one by one as ``POST /api/games`` does (its first job
    is queued when its first seat goes to the computer); nobody watches it yet."""
    created = store.create_game(ruleset)
    for seat in created.seat_tokens:
        store.set_bot(created.id, seat, level)
    return created.id

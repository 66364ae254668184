"""Computer-only games never delay a person's (issue 40): the bot jobs of a game where a person holds a seat are
claimed before those of games where the computer holds every seat, however many of those were queued first.
Run on SQLite and on PostgreSQL (the ``db`` fixture); the workers are this test's own calls to ``claim``."""

from __future__ import annotations

import pytest

from kadesh.server.worker import Worker
from kadesh.store import Store
from kadesh.store.jobs import Job
from kadesh.store.table import TableSettings
from tests.store_support import computer_only as unwatched_computer_only
from tests.store_support import watched


@pytest.fixture
def store(db):
    opened = Store(db)
    yield opened
    opened.close()


def computer_only(store: Store, ruleset: str = "manoeuvre", level: str = "maladroit") -> str:
    """A computer-only game, watched (tests/test_watches.py: else it waits)."""
    return watched(store, unwatched_computer_only(store, ruleset, level))


def against_the_computer(store: Store) -> str:
    """A game of Manœuvre where a person holds North and the computer South (both deploy at once: South's job
    is queued)."""
    game_id = store.create_game("manoeuvre").id
    store.set_bot(game_id, "south", "maladroit")
    return game_id


def play(store: Store, job: Job) -> None:
    """The bot's action of the job, written as a worker writes it (the job deleted, the next one queued)."""
    assert Worker(store).play(job)


def claimed_games(store: Store) -> list[str]:
    games = []
    while (job := store.jobs.claim("w")) is not None:
        games.append(job.game_id)
    return games


def test_a_persons_game_is_claimed_before_computer_only_games_queued_first(store):
    flood = [computer_only(store) for _ in range(6)]
    first = store.jobs.claim("w")
    assert first.game_id == flood[0]
    play(store, first)  # its next job is queued by the action's write, and comes after the other five's
    person = against_the_computer(store)
    assert store.jobs.pending() == 7
    assert claimed_games(store) == [person, *flood[1:], flood[0]]


def test_the_computers_answer_to_a_person_keeps_its_place_through_the_write(store):
    flood = [computer_only(store) for _ in range(3)]
    person = against_the_computer(store)
    for _ in range(3):  # South deploys one element after another: each next job queued by the write
        job = store.jobs.claim("w")
        assert job.game_id == person
        play(store, job)
    assert claimed_games(store) == [person, *flood]


def test_a_seat_given_back_to_a_person_brings_the_queued_job_among_the_peoples(store):
    """The owner takes North back from the computer while South's job waits: a person now waits for it."""
    flood = [computer_only(store) for _ in range(3)]
    returned = computer_only(store)
    store.set_bot(returned, "north", None)
    assert claimed_games(store) == [returned, *flood]


def test_a_seat_given_to_the_computer_sends_the_queued_job_behind_the_peoples(store):
    """The reverse: the last person's seat goes to the computer while South's job waits."""
    person = against_the_computer(store)
    later = against_the_computer(store)
    store.set_bot(person, "north", "maladroit")
    assert claimed_games(store) == [later]  # the game now the computer's alone waits for someone to watch it
    watched(store, person)
    assert claimed_games(store) == [person]


def test_a_game_master_held_by_a_person_is_a_person_waiting(store):
    """Royaumes: the computer holds the four kingdoms, Imhotep (who never goes to the computer) is a person."""
    flood = [computer_only(store) for _ in range(3)]
    kingdoms = store.create_game("royaumes")
    for seat in kingdoms.seat_tokens:
        if seat != "imhotep":
            store.set_bot(kingdoms.id, seat, "maladroit")
    assert claimed_games(store) == [kingdoms.id, *flood]


def test_computer_kingdoms_refereed_by_kadesh_alone_make_a_computer_only_game(store):
    """Nobody holds the game master's seat where Kadesh referees alone: four computer kingdoms there play after the
    people's games and while someone watches, not as a person's game that never ends; a game master kept by a
    person still waits as a person's."""
    refereed = store.create_game("royaumes", table=TableSettings(referee=True)).id
    kept = store.create_game("royaumes").id
    for game_id in (refereed, kept):
        for kingdom in ("basse_egypte", "haute_egypte", "koush", "libye"):
            store.set_bot(game_id, kingdom, "maladroit")
    assert claimed_games(store) == [kept]  # the refereed campaign's job waits for a watcher
    watched(store, refereed)
    assert claimed_games(store) == [refereed]

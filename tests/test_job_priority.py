"""Computer-only games never delay a person's (issue 40): the bot jobs of a game where a person holds a seat are
claimed before those of games where the computer holds every seat, however many of those were queued first.
Run on SQLite and on PostgreSQL (the ``db`` fixture); the workers are this test's own calls to ``claim``."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from kadesh.rules.royaumes import Royaumes
from kadesh.server.worker import Worker
from kadesh.store import Store
from kadesh.store.jobs import BOT, Job, utc_moment
from kadesh.store.schema import actions, jobs
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


KINGDOMS = ("basse_egypte", "haute_egypte", "koush", "libye")


def campaign(store: Store, computer: tuple[str, ...] = KINGDOMS, referee: bool = False) -> str:
    """A Royaumes campaign whose ``computer`` kingdoms are the computer's; Imhotep a person's unless ``referee``."""
    game_id = store.create_game("royaumes", table=TableSettings(referee=referee)).id
    for kingdom in computer:
        store.set_bot(game_id, kingdom, "maladroit")
    return game_id


def test_computer_kingdoms_make_a_computer_only_campaign_whoever_referees(store):
    """A game master plays no seat: four computer kingdoms play after the people's games and while someone (their
    game master's page among others) watches, whether a person or Kadesh referees, not as a person's game that
    never ends; one person's kingdom makes the campaign a person's."""
    person = campaign(store, computer=KINGDOMS[1:])
    refereed, kept = campaign(store, referee=True), campaign(store)
    assert claimed_games(store) == [person]  # the two computer-only campaigns' jobs wait for a watcher
    watched(store, kept)
    assert claimed_games(store) == [kept]
    watched(store, refereed)
    assert claimed_games(store) == [refereed]


def play_turn(store: Store, game_id: str, at_most: int = 20) -> int:
    """Every job claimable now played (``at_most``: a turn's worth), as a worker would; the game's turn after."""
    while at_most and (job := store.jobs.claim("w")) is not None:
        play(store, job)
        at_most -= 1
    with store.game(game_id) as game:
        return game.state.turn


def queued_bot_job(store: Store, game_id: str):
    with store.engine.connect() as conn:
        return conn.execute(select(jobs.c.version, jobs.c.run_after).where(jobs.c.game_id == game_id,
                                                                             jobs.c.kind == BOT)).one()


def test_a_computer_only_campaign_pauses_before_each_new_turn_and_a_persons_does_not(store):
    """Four computer kingdoms would judge hundreds of turns a minute: the computer waits the ruleset's
    ``computer_round_pause`` before each new turn, so that its game master follows it turn by turn; where a
    person plays a kingdom, the computer's orders of the new turn go at once."""
    pause = Royaumes.computer_round_pause
    assert pause >= 5
    alone = watched(store, campaign(store))
    assert play_turn(store, alone) == 2  # turn 1's orders were queued at once, when the seats were given
    version, run_after = queued_bot_job(store, alone)
    assert store.current_version(alone) == version
    with store.engine.connect() as conn:  # the turn's judgement, written in the transaction that queued the job
        judged = conn.execute(select(actions.c.created_at).where(actions.c.game_id == alone,
                                                                 actions.c.seq == version)).scalar_one()
    judged = judged if judged.tzinfo is not None else judged.replace(tzinfo=UTC)
    waits = (utc_moment(run_after) - judged).total_seconds()
    assert pause - 1 < waits <= pause + 1  # its first order of turn 2 waits, and nothing else is claimable meanwhile
    assert store.jobs.claim("w") is None
    store.set_bot(alone, KINGDOMS[0], None)  # a person takes a kingdom: the computer's orders go at once
    assert utc_moment(queued_bot_job(store, alone)[1]) <= datetime.now(UTC)

    person = campaign(store, computer=KINGDOMS[1:])
    assert play_turn(store, person) == 1  # the computer's three kingdoms sent theirs: the person's are awaited
    store.act(person, KINGDOMS[0], store.current_version(person), {"type": "orders"})
    _, run_after = queued_bot_job(store, person)
    assert utc_moment(run_after) <= datetime.now(UTC)

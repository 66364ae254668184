"""The table around a game (issue 42): a time per move, whether the game is rated, whether anyone may watch it.
Set when the game is made, never changed after.

The clock is a turn's: a seat's time runs from the moment its turn began (the action after which it had to act
while it did not before, or the game's creation) for ``seconds_per_move``, whatever it plays meanwhile, and for
as long again as its holder's vacations take of it (``kadesh.store.vacations``). When it runs out, nothing
happens by itself: the late side may still play until another side claims the win (``Store.claim_on_time``),
which ends the game as the late side's loss (``kadesh.core.table``).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, Engine, select

from kadesh.core import Game
from kadesh.store import schema
from kadesh.store.vacations import Stay, lengthened

CLAIM = "claim"  # when a side's time runs out, the other may claim the win
COMPUTER = "computer"  # when a side's time runs out, the computer plays that turn for it (kadesh.server.worker)
DAY = 86_400  # seconds
DAYS_PER_MOVE = (1, 2, 3, 7, 14)  # the times per move offered at creation, as on Lichess' correspondence games
KNOWN = 4096  # games' settings kept in memory (they never change)
WATCHED = 30  # games listed to watch (GET /api/watch), the latest first
FULL, PUBLIC, NO_PRESS = "full", "public", "none"  # press, as webDiplomacy's: every channel, the table's, none
PRESS = (FULL, PUBLIC, NO_PRESS)

table_settings = schema.table_settings


@dataclass(frozen=True, slots=True)
class TableSettings:
    seconds_per_move: int | None = None  # None: no clock
    on_timeout: str = CLAIM
    rated: bool = False
    public: bool = False  # anyone may watch it: a game opened to others, or rated
    referee: bool = False  # no person holds the game master's seat: the turns run on the clock alone
    press: str = FULL  # who may write to whom (kadesh.store.messages)
    councils: bool = False  # each kingdom has a Seigneur's link beside its Chef militaire's
    master_reads: bool = False  # the game master reads the channels between kingdoms and their councils

    @property
    def days_per_move(self) -> float | None:
        return None if self.seconds_per_move is None else self.seconds_per_move / DAY


NO_TABLE = TableSettings()


class Tables:
    """Each game's table settings, read once (they never change after the game is made)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._known: OrderedDict[str, TableSettings] = OrderedDict()

    def write(self, conn: Connection, game_id: str, settings: TableSettings) -> None:
        """Inside the creation's transaction (no reader ever sees the game without its settings)."""
        if settings != NO_TABLE:
            conn.execute(table_settings.insert().values(game_id=game_id, seconds_per_move=settings.seconds_per_move,
                                                         on_timeout=settings.on_timeout, rated=settings.rated,
                                                         public=settings.public, referee=settings.referee,
                                                         press=settings.press, councils=settings.councils,
                                                         master_reads=settings.master_reads))

    def of(self, game_id: str) -> TableSettings:
        settings = self._known.get(game_id)
        if settings is None:
            with self.engine.connect() as conn:
                row = conn.execute(select(table_settings.c.seconds_per_move, table_settings.c.on_timeout,
                                          table_settings.c.rated, table_settings.c.public, table_settings.c.referee,
                                          table_settings.c.press, table_settings.c.councils,
                                          table_settings.c.master_reads)
                                   .where(table_settings.c.game_id == game_id)).first()
            settings = (TableSettings(row.seconds_per_move, row.on_timeout, bool(row.rated), bool(row.public),
                                      bool(row.referee), row.press, bool(row.councils), bool(row.master_reads))
                        if row else NO_TABLE)
            self._known[game_id] = settings
            while len(self._known) > KNOWN:
                self._known.popitem(last=False)
        self._known.move_to_end(game_id)
        return settings


def public_games(engine: Engine, limit: int = WATCHED) -> list[str]:
    """The public games not over yet, the latest made first."""
    games = schema.games
    with engine.connect() as conn:
        rows = conn.execute(select(games.c.id, games.c.outcome)
                            .join(table_settings, table_settings.c.game_id == games.c.id)
                            .where(table_settings.c.public.is_(True))
                            .order_by(games.c.created_at.desc(), games.c.id).limit(limit * 4)).all()
    return [row.id for row in rows if row.outcome is None][:limit]  # JSON null and SQL NULL alike


def seat_deadlines(game: Game, settings: TableSettings, stays: dict[str, list[Stay]] | None = None,
                   seated: dict[str, datetime | None] | None = None) -> dict[str, datetime]:
    """When each seat to act runs out of time, lengthened by its holder's vacations (``stays``, by seat); {}
    without a clock or once the game is over. A game made with seats left open (``seated``: when each was taken,
    None while it is open) has no clock while one is open: it waits for its players, nobody can be late. Every
    seat's time runs from the last take at the earliest, as a game's clocks start once its players are seated."""
    if settings.seconds_per_move is None or game.outcome is not None:
        return {}
    seated = seated or {}
    if any(taken is None for taken in seated.values()):
        return {}
    all_seated = max(seated.values(), default=None)
    per_move = timedelta(seconds=settings.seconds_per_move)
    deadlines = {}
    for seat, began in game.turn_began.items():
        start = game.written_at[began] if all_seated is None else max(game.written_at[began], all_seated)
        deadlines[seat] = lengthened(start + per_move, start, (stays or {}).get(seat, []))
    return deadlines


def late_seats(game: Game, settings: TableSettings, claimer: str, now: datetime,
               stays: dict[str, list[Stay]] | None = None,
               seated: dict[str, datetime | None] | None = None) -> list[str]:
    """The seats other than ``claimer`` whose time ran out at ``now``, and before the claimer's own if it is to
    act too (of two late sides, the one that ran out first loses)."""
    return claimable(seat_deadlines(game, settings, stays, seated), claimer, now)


def claimable(deadlines: dict[str, datetime], claimer: str | None, now: datetime) -> list[str]:
    """Of the seats' ``deadlines``, those ``claimer`` may claim the win against at ``now``: run out, and before
    the claimer's own if it is to act too."""
    if claimer is None:
        return []
    own = deadlines.get(claimer)
    return [seat for seat, deadline in deadlines.items()
            if seat != claimer and deadline <= now and (own is None or deadline < own)]

"""The JSON routes under /api. They speak only the core contract, for any ruleset."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import Response
from pydantic import NonNegativeInt
from starlette.concurrency import run_in_threadpool

from kadesh.ai.base import bot_hint, bot_title, levels, simulator
from kadesh.core import Game, Ruleset, all_rulesets, get_ruleset
from kadesh.server import jsontext
from kadesh.server.account_notices import after_reissue
from kadesh.server.auth import (
    AuthHeader,
    GameId,
    TokenQuery,
    account_of,
    bearer,
    get_access,
    get_council_access,
    get_seat_access,
    get_store,
)
from kadesh.server.checks import (
    check_bot,
    game_check,
    legal_answer,
    open_game,
    open_game_here,
    past_views,
    seats_of,
)
from kadesh.server.identity import same_site, signed_in
from kadesh.server.metrics import ActionClock
from kadesh.server.models import (
    ActionOut,
    ActionRequest,
    BotInfo,
    BotSeat,
    ExportOut,
    GameCreate,
    GameCreated,
    GameOut,
    JournalLine,
    JsonObject,
    LegalOut,
    Link,
    OddsOut,
    OddsRequest,
    PreviewOut,
    ReplayOut,
    RulesetInfo,
    SeatsOut,
    SeatsRequest,
    SimulateRequest,
    TableOut,
    VerifyOut,
)
from kadesh.server.problems import PROBLEM_JSON, ApiProblem
from kadesh.store import LORD, OWNER, SEAT, SPECTATOR, Access, CreatedGame, Store
from kadesh.store.maps import ShelfMap
from kadesh.store.table import CLAIM, COMPUTER, DAY, TableSettings, claimable
from kadesh.store.verify import verify_export

router = APIRouter(prefix="/api")

StoreDep = Annotated[Store, Depends(get_store)]
AccessDep = Annotated[Access, Depends(get_access)]
SeatDep = Annotated[Access, Depends(get_seat_access)]
CouncilDep = Annotated[Access, Depends(get_council_access)]  # a seat, or its Seigneur
Lang = Annotated[Literal["fr", "en"], Query(description="Language of the journal")]
Since = Annotated[NonNegativeInt, Query(le=2**31, description="Only lines after this version")]


def problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for error statuses (their schema is filled in by ``app.openapi``)."""
    return {status: {"description": "Problem", "content": {PROBLEM_JSON: {}}} for status in statuses}


READ = problems(401, 403, 404, 422)
WRITE = problems(400, 401, 403, 404, 409, 413, 415, 422)
CHECK = problems(400, 401, 403, 404, 409, 413, 415, 422, 429)  # odds and previews: rate-limited (kadesh.server.rates)
LEGAL = problems(401, 403, 404, 422, 429)  # 429: too many checks waiting (kadesh.server.checks)


def play_link(game_id: str, token: str) -> Link:
    """The game page's link: the token in the fragment, which browsers never send (nor log, nor pass on)."""
    return Link(token=token, link=f"/play/{game_id}#token={token}")


@router.get("/rulesets", response_model=list[RulesetInfo], tags=["rulesets"])
def list_rulesets() -> list[RulesetInfo]:
    """Every ruleset this server plays, with its options."""
    return [ruleset_info(r) for r in all_rulesets().values()]


def ruleset_info(rules: Ruleset) -> RulesetInfo:
    defaults = rules.normalize_options({})
    return RulesetInfo(name=rules.name, version=rules.version, title=dict(rules.title),
                       options_schema=rules.options_schema, seats=rules.seats(defaults),
                       bots=[BotInfo(level=level, title=bot_title(rules.name, level),
                                     hint=bot_hint(rules.name, level)) for level in levels(rules.name)],
                       bot_seats=rules.bot_seats(defaults), glossary=rules.glossary,
                       deadlines=type(rules).deadline is not Ruleset.deadline,
                       clocks=type(rules).deadline is Ruleset.deadline, councils=bool(rules.council_titles),
                       game_master=bool(rules.game_master_seats))


@router.post("/rulesets/{name}/seats", response_model=SeatsOut, tags=["rulesets"],
             responses=problems(400, 404, 413, 415, 422, 429))
async def ruleset_seats(name: str, body: SeatsRequest, request: Request) -> SeatsOut | Response:
    """The seats a game with these options would have, checking the options as creating the game
    would (a map of one's own: 422 ``bad_scenario`` naming the key at fault; ``map``, a map of the shelf's);
    nothing is stored. Computed away from the web process (``kadesh.server.checks``: 429 ``checks_busy`` when too
    many wait)."""
    get_ruleset(name)
    options = body.options
    if MAP in options:  # a map of the shelf: its kingdoms
        chosen = await run_in_threadpool(map_chosen, request.app.state.store, name, options)
        options = played_on(chosen, options)
    seats = await request.app.state.checks.run(request, seats_of, name, options)
    return Response(status_code=499) if seats is None else SeatsOut(**seats)


@router.post("/rulesets/{name}/simulate", response_model=JsonObject, tags=["rulesets"],
             responses=problems(400, 404, 413, 415, 422, 429))
async def simulate(name: str, body: SimulateRequest, request: Request) -> dict[str, Any] | Response:
    """The odds of a set-up: play it ``games`` times with bots at each seat (for a game master).

    Run in a child process with a ceiling on its CPU time, a few at a time per server (``kadesh.server.simulations``):
    422 ``simulation_too_costly`` past the ceiling, 429 ``simulations_busy`` with ``Retry-After`` when too many wait."""
    rules = get_ruleset(name)
    run = simulator(name)
    if run is None:
        raise ApiProblem(422, "no_simulation", "Ces règles ne se simulent pas ici.", "This ruleset has no simulation.")
    seats = rules.seats(rules.normalize_options(body.options))
    if set(body.seats) != set(seats):
        raise ApiProblem(422, "unknown_seat", f"Il faut un niveau pour chaque siège : {', '.join(seats)}.",
                         f"A level is needed for each seat: {', '.join(seats)}.")
    for seat, level in body.seats.items():
        check_bot(name, seats, seat, level)
    odds = await request.app.state.simulations.run(request, name, body.options, body.seats, body.games, body.seed)
    return Response(status_code=499) if odds is None else odds  # 499: nobody is there to read it


@router.post("/games", response_model=GameCreated, status_code=201, tags=["games"],
             responses=problems(400, 401, 404, 413, 415, 422, 429))
async def create_game(body: GameCreate, request: Request) -> GameCreated | Response:
    """Open a game: one secret link per seat, one for spectators and one for the owner.

    ``bots`` gives seats to the computer (``{"south": "maladroit"}``); they play as soon as it is their turn.
    ``options.map`` names a published map of the shelf (``/api/maps``): the game is played on its text, which the
    game's record holds from then on (the map may change or go: the game keeps its copy).
    A game from a text of the client's own (``scenario_toml``: a map, a battle) is read in the check process
    (``kadesh.server.checks``: 429 ``checks_busy`` when too many wait). A rated game is made signed in: 401
    ``not_signed_in`` without an account's session."""
    state = request.app.state
    table = table_of(body)
    shelf_map = None
    if MAP in body.options:
        shelf_map = await run_in_threadpool(map_chosen, state.store, body.ruleset, body.options)
        body = body.model_copy(update={"options": played_on(shelf_map, body.options)})
    creator = await run_in_threadpool(signed_in, request, state.store) if same_site(request) else None
    if table.rated and creator is None:
        raise ApiProblem(401, "not_signed_in", "Une partie classée se crée en étant connecté.",
                         "A rated game is made while signed in.")
    if "scenario_toml" in body.options:
        created = await state.checks.run(request, open_game_here, body.ruleset, body.options, body.bots, body.open,
                                         table)
        if created is None:
            return Response(status_code=499)  # nobody is there to read it
    else:
        created = await run_in_threadpool(open_game, state.store, body.ruleset, body.options, body.bots, body.open,
                                          table)
    if body.bots or table.seconds_per_move is not None:
        state.workers.ensure()  # the store queued the bot's move if it is due; a clock is watched by the workers
    if creator is not None:
        await run_in_threadpool(_owned_by_creator, state.store, created, creator.id, body.open or {}, body.bots)
    if shelf_map is not None:
        await run_in_threadpool(state.store.maps.played, shelf_map.id, created.id, shelf_map.name)
    return GameCreated(
        id=created.id, ruleset=created.ruleset, commitment=created.commitment,
        seats={seat: play_link(created.id, token) for seat, token in created.seat_tokens.items()
               if seat not in (body.open or {})},  # an open seat's link is its taker's alone
        spectator=play_link(created.id, created.spectator_token),
        owner=play_link(created.id, created.owner_token),
        lords={seat: play_link(created.id, token) for seat, token in created.lord_tokens.items()},
    )


@router.post("/games/{game_id}/rematch", response_model=GameCreated, status_code=201, tags=["games"],
             responses=problems(401, 403, 404, 409, 422, 429))
async def rematch(game_id: str, access: AccessDep, request: Request) -> GameCreated | Response:
    """A finished game's players start another: same rules, options and computer seats, fresh dice.

    Every call opens a new game and answers its links, as creating one does (a seat or the owner may ask)."""
    if access.role == SPECTATOR:
        raise ApiProblem(403, "not_a_player", "Un spectateur ne demande pas de revanche.",
                         "A spectator does not ask for a rematch.")
    again = await run_in_threadpool(_again, request.app.state.store, game_id)
    return await create_game(again, request)


MAP = "map"  # the option naming a published map of the shelf


def map_chosen(store: Store, ruleset: str, options: dict[str, Any]) -> ShelfMap:
    """The published map ``options.map`` names, for a game of ``ruleset`` (404 ``no_such_map``, 422 otherwise)."""
    map_id = options[MAP]
    if not isinstance(map_id, str) or len(map_id) > 64:
        raise ApiProblem(422, "bad_options", "options.map : l'identifiant d'une carte publiée est attendu.",
                         "options.map: a published map's id is expected.")
    if options.get("scenario_toml"):
        raise ApiProblem(422, "bad_options", "Une carte ou un texte à soi (scenario_toml), pas les deux.",
                         "A map or a text of one's own (scenario_toml), not both.")
    chosen = store.maps.to_play(map_id)
    if chosen.ruleset != ruleset:
        title = get_ruleset(chosen.ruleset).title
        raise ApiProblem(422, "map_of_another_game", f"Cette carte est une carte de {title['fr']}.",
                         f"This map is a {title['en']} map.")
    return chosen


def played_on(chosen: ShelfMap, options: dict[str, Any]) -> dict[str, Any]:
    """The options of a game on a map of the shelf: its text in place of its id (the record keeps the text)."""
    return {**{key: value for key, value in options.items() if key != MAP}, "scenario_toml": chosen.toml}


def _owned_by_creator(store: Store, created: CreatedGame, player_id: str, open_seats: dict[str, str],
                      bots: dict[str, str]) -> None:
    """A signed-in creator owns the game from their account (a page of another site creates nobody's game); when
    one playing seat alone is neither left open nor the computer's (a game opened to others, against the
    computer, rated), it is theirs, and their account keeps it too."""
    store.accounts.claim(created.id, OWNER, None, player_id)
    if not open_seats and not bots:
        return  # links for everyone, or every seat on one screen: which seat is the creator's, nobody says
    with store.game(created.id) as game:
        kept = [seat for seat in game.seats if seat not in open_seats and seat not in bots
                and seat not in game.ruleset.game_master_seats]
    if len(kept) == 1:
        store.accounts.claim(created.id, SEAT, kept[0], player_id)


def table_of(body: GameCreate) -> TableSettings:
    """The game's table: its clock, rated or not, and public (anyone may watch it) when it meets strangers."""
    clock = body.clock
    return TableSettings(seconds_per_move=clock.days_per_move * DAY if clock else None,
                         on_timeout=clock.on_timeout if clock else CLAIM, rated=body.rated,
                         public=bool(body.open) or body.rated, referee=body.referee == "kadesh",
                         press=body.press, councils=body.councils, master_reads=body.master_reads)


def _again(store: Store, game_id: str) -> GameCreate:
    """A finished game's rules, options and computer seats (409 while it goes on)."""
    with store.game(game_id) as game:
        if game.outcome is None:
            raise ApiProblem(409, "game_not_over", "La partie n'est pas finie : la revanche vient après.",
                             "The game is not over: the rematch comes after.")
        return GameCreate(ruleset=game.ruleset.name, options=game.options, bots=store.bots(game_id))


REPLAYED = problems(401, 403, 404, 409, 422, 429)  # a past version: not yet public (409), a check queue full (429)
MAX_REPLAYED = 64  # versions one replay request may ask for (each a view: Front's weigh tens of kilobytes)
At = Annotated[int | None, Query(ge=0, le=2**31 - 1, description="A past version: the game as it was then")]
PUBLIC = "public"  # ``as``: the public's view, which once the game is over may show it whole (Front's, issue 59)
As = Annotated[str | None, Query(alias="as", max_length=64, description=(
    "Whose view a replay shows: this seat's own (the default for a seat), or once the game is over any seat's or "
    "``public``, the public's (the default for others), which may show the whole game (Front lifts its fog)"))]


@router.get("/games/{game_id}", response_model=GameOut, tags=["games"], responses=REPLAYED)
async def read_game(game_id: str, access: AccessDep, request: Request, at: At = None,
                    reader: As = None) -> GameOut | Response:
    """The game as this token's seat may see it (the seed only once the game is over). With ``at``, as it was
    after that version: a seat's own view then (at any time), or once the game is over the public's or any seat's
    (``as``)."""
    store: Store = request.app.state.store
    if at is None:
        return await run_in_threadpool(get_game, game_id, access, store)
    version, over, seats = await run_in_threadpool(_now, store, game_id)
    seat = replay_seat(access, over, reader, seats)
    if at > version:
        raise _no_version(version)
    past = await request.app.state.checks.run(request, past_views, game_id, seat, at, at)
    if past is None:
        return Response(status_code=499)  # nobody is there to read it
    return await run_in_threadpool(get_game, game_id, access, store, past[0])


def _now(store: Store, game_id: str) -> tuple[int, bool, list[str]]:
    """The game's version, whether it is over, and its seats."""
    with store.game(game_id) as game:
        return game.version, game.outcome is not None, list(game.seats)


def replay_seat(access: Access, over: bool, asked: str | None = None, seats: list[str] | None = None) -> str | None:
    """Whose view a replay shows (None: the public's): ``asked`` (a seat, or ``public``), else a seat's (or its
    Seigneur's) own, else the public's. A seat's own at any time; any once the game is over (409 before: a
    spectator sees the game as it goes, and a seat sees only its own)."""
    own = access.seat if access.role in (SEAT, LORD) else None
    wanted = own if asked is None else None if asked == PUBLIC else asked
    if not over and (wanted is None or wanted != own):
        raise ApiProblem(409, "game_not_over", "Le replay de la partie s'ouvre à tous quand elle est finie.",
                         "The game's replay opens to everyone once it is over.")
    if wanted is not None and wanted not in (seats or []):
        raise ApiProblem(422, "unknown_seat", f"Siège inconnu : {wanted}.", f"Unknown seat: {wanted}.")
    return wanted


def _no_version(version: int) -> ApiProblem:
    return ApiProblem(422, "no_such_version", f"La partie n'en est qu'à la version {version}.",
                      f"The game is only at version {version}.", version=version)


@router.get("/games/{game_id}/replay", response_model=ReplayOut, tags=["games"], responses=REPLAYED)
async def replay(game_id: str, access: AccessDep, request: Request,
                 first: Annotated[int, Query(alias="from", ge=0, le=2**31 - 1)] = 0,
                 last: Annotated[int | None, Query(alias="to", ge=0, le=2**31 - 1)] = None,
                 reader: As = None) -> ReplayOut | Response:
    """The game as it was after each version from ``from`` to ``to`` (64 at most a request), replayed once: a
    seat's own views at any time, the public's or any seat's (``as``) once the game is over. Computed away from the
    web process."""
    store: Store = request.app.state.store
    version, over, seats = await run_in_threadpool(_now, store, game_id)
    seat = replay_seat(access, over, reader, seats)
    last = min(version if last is None else last, first + MAX_REPLAYED - 1)
    if first > version or last > version or last < first:
        raise _no_version(version)
    past = await request.app.state.checks.run(request, past_views, game_id, seat, first, last)
    if past is None:
        return Response(status_code=499)
    return ReplayOut(seat=seat, version=version, versions=past)


def get_game(game_id: str, access: Access, store: Store, then: dict[str, Any] | None = None) -> GameOut:
    """The game as this token's seat may see it now, or as ``then`` shows it (a past version replayed: its
    ``version``, ``view``, ``to_act`` and ``outcome``, ``past_views``' own); the seed once the game is over."""
    with store.game(game_id) as game:
        outcome = game.outcome
        shown = then or {"version": game.version, "view": game.view(access.seat), "to_act": game.to_act(),
                         "outcome": outcome}
        return GameOut(id=game_id, ruleset=game.ruleset.name, ruleset_version=game.ruleset.version,
                       role=access.role, seat=access.seat, seats=game.seats, view=shown["view"],
                       to_act=shown["to_act"], outcome=shown["outcome"], commitment=game.commitment,
                       seed=game.seed if outcome is not None else None, version=shown["version"],
                       bots=store.bots(game_id), table=table_out(store, game_id, game, access.seat),
                       table_changes=store.table_changes(game_id))


def table_out(store: Store, game_id: str, game: Game, seat: str | None = None) -> TableOut | None:
    """The game's time per move, rating and open seats, as its page shows them (and what ``seat`` may claim);
    None for a private game with neither a clock nor a rating."""
    settings = store.tables.of(game_id)
    if settings.seconds_per_move is None and not settings.rated and not settings.public:
        return None
    now = datetime.now(UTC)
    deadlines = store.clock(game_id, game)
    return TableOut(days_per_move=settings.days_per_move, on_timeout=settings.on_timeout, rated=settings.rated,
                    deadlines={seat: moment.isoformat() for seat, moment in deadlines.items()},
                    late=[late for late, moment in deadlines.items() if moment <= now],
                    claimable=claimable(deadlines, seat, now) if settings.on_timeout != COMPUTER else [],
                    counted=store.ratings.settled(game_id) if settings.rated and game.outcome else None,
                    uncounted=store.ratings.reason(game_id) if settings.rated and game.outcome else None,
                    open=[seat.seat for seat in store.open_seats.of_game(game_id)] if settings.public else [],
                    holders=store.accounts.seat_names(game_id), vacation=store.lengthened_by_vacations(game_id, game))


@router.get("/games/{game_id}/legal", response_model=LegalOut, tags=["play"], responses=LEGAL)
async def legal_actions(game_id: str, access: CouncilDep, request: Request) -> Response:
    """The legal actions of this token's seat now. Computed away from the web process, once per version and
    seat (``kadesh.server.checks``: 429 ``checks_busy`` when too many wait)."""
    assert access.seat is not None
    state = request.app.state
    version = await run_in_threadpool(state.store.current_version, game_id)
    answer = state.legal_answers.get(game_id, version, access.seat) if version is not None else None
    if answer is None:
        computed = await state.checks.run(request, legal_answer, game_id, access.seat)
        if computed is None:
            return Response(status_code=499)  # nobody is there to read it
        version, answer = computed
        state.legal_answers.put(game_id, version, access.seat, answer)
    return Response(answer, media_type="application/json")


@router.post("/games/{game_id}/odds", response_model=OddsOut, tags=["play"], responses=CHECK)
async def odds(game_id: str, body: OddsRequest, access: CouncilDep, request: Request) -> OddsOut | Response:
    """Exact chances of an action's outcomes, where the ruleset can tell (null otherwise). Computed away from
    the web process (``kadesh.server.checks``: 429 ``checks_busy`` when too many wait)."""
    assert access.seat is not None
    answer = await request.app.state.checks.run(request, game_check, "odds", game_id, access.seat, body.action)
    if answer is None:
        return Response(status_code=499)  # nobody is there to read it
    version, chances = answer
    return OddsOut(seat=access.seat, version=version, odds=chances)


@router.post("/games/{game_id}/preview", response_model=PreviewOut, tags=["play"], responses=CHECK)
async def preview(game_id: str, body: OddsRequest, access: CouncilDep, request: Request) -> PreviewOut | Response:
    """How the rules understand an action before it is sent (a Royaumes order message, line by line).
    Computed away from the web process, as the odds are."""
    assert access.seat is not None
    answer = await request.app.state.checks.run(request, game_check, "preview", game_id, access.seat, body.action)
    if answer is None:
        return Response(status_code=499)
    version, understood = answer
    return PreviewOut(seat=access.seat, version=version, preview=understood)


@router.post("/games/{game_id}/actions", response_model=ActionOut, tags=["play"], responses=WRITE)
async def act(game_id: GameId, body: ActionRequest, request: Request, token: TokenQuery = None,
              authorization: AuthHeader = None) -> Response:
    """Play an action seen at ``expected_version``: checked, written, then announced."""
    # A well-formed request never gets here: ``kadesh.server.action_path`` reads it itself. A parameter added to
    # this route must be read there too, or the short way must leave such requests to it (tests/test_action_path.py).
    return await play_action(request, game_id, body, token or bearer(authorization), ActionClock())


async def play_action(request: Request, game_id: str, body: ActionRequest, given: str | None,
                      clock: ActionClock) -> Response:
    """The action route's work, once its request is read (``kadesh.server.action_path`` comes here too), timed
    by ``clock`` from when the request was read."""
    state = request.app.state
    # With a token, nobody's account is read: no hop to the thread pool (a tenth of an action's time).
    player_id = await run_in_threadpool(account_of, request, state.store, given) if not given else None
    played = state.store.play_soon(game_id, given, body.expected_version, body.action, after=clock.noting(seat_view),
                                   player_id=player_id)
    played.add_done_callback(clock.commit)
    access, result = await asyncio.wrap_future(played)
    state.notifier.publish(game_id, result.version)
    if result.has_bots or result.due or result.noticed or result.rated:
        state.workers.ensure()
    events = [event.to_dict() for event in result.events if event.visible_to(access.seat)]
    answer = {"version": result.version, "events": events, "view": result.after}
    response = Response(jsontext.dumps(answer), media_type="application/json")
    clock.answered()
    return response


def seat_view(game: Game, seat: str) -> Any:
    """What the seat sees just after its action, taken before anyone else could act."""
    return game.view(seat)


@router.put("/games/{game_id}/bots/{seat}", response_model=GameOut, tags=["games"], responses=WRITE)
def set_bot(game_id: str, seat: Annotated[str, Path(max_length=64)], body: BotSeat, access: AccessDep,
            store: StoreDep, request: Request) -> GameOut:
    """The owner gives a seat to the computer (or back to people with ``level: null``)."""
    if access.role != "owner":
        raise ApiProblem(403, "not_the_owner", "Seul le propriétaire de la partie confie un siège à l'ordinateur.",
                         "Only the game's owner can give a seat to the computer.")
    with store.game(game_id) as game:
        check_bot(game.ruleset.name, game.seats, seat, body.level)
    if body.level is not None and store.tables.of(game_id).rated:
        raise ApiProblem(409, "rated_game", "Une partie classée se joue entre personnes : l'ordinateur n'y prend "
                         "aucun siège.", "A rated game is played between people: the computer takes none of its "
                         "seats.")
    store.set_bot(game_id, seat, body.level)
    if body.level is not None:
        request.app.state.workers.ensure()
    return get_game(game_id, access, store)


def _check_seat_reissuable(store: Store, game_id: str, seat: str, player_id: str | None) -> None:
    """A seat left open has no link until its taker's (409 ``seat_open``), and a seat kept in an account is
    replaced by that account alone (403 ``seat_kept``): an owner never gets a link to another player's seat."""
    if any(open_seat.seat == seat for open_seat in store.open_seats.of_game(game_id)):
        raise ApiProblem(409, "seat_open", "Ce siège attend son joueur dans « Parties ouvertes » : son lien sera "
                         "celui de qui le prendra.", "This seat waits for its player in « Open games »: its link "
                         "will be its taker's.")
    keeper = next((claim.player_id for claim in store.accounts.claims_in(game_id)
                   if claim.role == SEAT and claim.seat == seat), None)
    if keeper is not None and keeper != player_id:
        raise ApiProblem(403, "seat_kept", "Ce siège est gardé dans le compte de son joueur : lui seul en remplace "
                         "le lien.", "This seat is kept in its player's account: they alone replace its link.")


EXPORTED_MESSAGES = 100_000  # a finished game's messages in its export, at most

Holder = Annotated[str, Path(max_length=80, description="A seat, lord:<seat> (a Seigneur), spectator or owner")]


@router.post("/games/{game_id}/tokens/{holder}", response_model=Link, tags=["games"],
             responses=problems(400, 401, 403, 404, 413, 415, 422))
def reissue_token(game_id: str, holder: Holder,
                  access: AccessDep, store: StoreDep, request: Request, token: TokenQuery = None,
                  authorization: AuthHeader = None) -> Link:
    """The owner replaces a seat's link, the spectators' or their own: the old token is refused from now on.
    A player who keeps a seat in their account (signed in, without a token) may replace that seat's link.

    Tokens do not expire by time; this is how a leaked or lost link is cut off."""
    own_seat = access.role == SEAT and holder == access.seat and not (token or bearer(authorization))
    if access.role != OWNER and not own_seat:
        raise ApiProblem(403, "not_the_owner", "Seul le propriétaire de la partie remplace un lien (ou le joueur "
                         "qui garde ce siège dans son compte).", "Only the game's owner can replace a link (or the "
                         "player who keeps this seat in their account).")
    with store.game(game_id) as game:
        seats, game_masters = list(game.seats), game.ruleset.game_master_seats
    if holder in seats:
        _check_seat_reissuable(store, game_id, holder, account_of(request, store, None))
    lord = holder.removeprefix(LORD + ":") if holder.startswith(LORD + ":") else None
    if holder in seats:
        role, seat = SEAT, holder
    elif lord in seats and store.tables.of(game_id).councils and not (own_seat or lord in game_masters):
        role, seat = LORD, lord
    elif holder in (SPECTATOR, OWNER):
        role, seat = holder, None
    else:
        raise ApiProblem(422, "unknown_seat", f"Siège inconnu : {holder} (ni spectator, ni owner).",
                         f"Unknown seat: {holder} (nor spectator, nor owner).")
    token = store.reissue_token(game_id, role, seat)
    if seat is not None:  # the reissue took the seat's subscriptions with its old link: the account's come back
        after_reissue(store, game_id, seat, request)
    request.app.state.notifier.publish_access(game_id)  # open sockets look at their token again: the old one's close
    return play_link(game_id, token)


@router.get("/games/{game_id}/journal", response_model=list[JournalLine], response_model_exclude_none=True,
            tags=["games"], responses=problems(401, 403, 404, 409, 422))
def journal(game_id: str, access: AccessDep, store: StoreDep, lang: Lang = "fr", since: Since = 0,
            reader: As = None) -> list[JournalLine]:
    """The narrated journal as this seat may read it, after version ``since``; each line's ``mark``
    says what its event did on the board, where the ruleset gives one. Once the game is over, ``as`` asks for
    another's, as a replay's view (the public's may tell the whole game: Front's, issue 59)."""
    with store.game(game_id) as game:
        seat = access.seat if reader is None else replay_seat(access, game.outcome is not None, reader, game.seats)
        return [JournalLine(version=v, line=line, mark=mark)
                for v, line, mark in game.journal_marked(seat, lang, since)]


@router.get("/games/{game_id}/export", response_model=ExportOut, tags=["games"],
            responses=problems(401, 403, 404, 409, 422))
def export(game_id: str, access: AccessDep, store: StoreDep) -> dict[str, Any]:
    """The whole record with the seed and the stored events, for ``kadesh verify``; only once over. With the
    messages at the table that this reader reads."""
    exported = store.export(game_id)
    talk = store.messages.read(game_id, access, store.shape(game_id), limit=EXPORTED_MESSAGES)
    return {**exported, "messages": [message.seen_as() for message in talk]}


@router.get("/games/{game_id}/verify", response_model=VerifyOut, tags=["games"],
            responses=problems(401, 403, 404, 409, 422))
def verify(game_id: str, access: AccessDep, store: StoreDep) -> VerifyOut:
    """The server's own ``kadesh verify`` of the export, once the game is over (see docs/api.md)."""
    verdict = verify_export(store.export(game_id))
    return VerifyOut(ok=verdict.ok, message=verdict.message, actions=verdict.actions, rolls=verdict.rolls)

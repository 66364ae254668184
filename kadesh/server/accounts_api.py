"""Players' accounts (issue 41): sign in with a passkey or an e-mailed link, sessions, seats kept in the account,
the account's games on every device, a player's public page, export and deletion.

Accounts are optional: every game is played by its links as before. A signed-in player's cookie opens the seats
their account holds (``kadesh.server.auth``); every write the cookie authenticates must come from this site's
own pages (``kadesh.server.identity``).
"""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime
from html import escape
from typing import Annotated, Literal
from urllib.parse import parse_qs

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from kadesh.server import passkeys
from kadesh.server.account_notices import Channel, base_url, follow, unfollow
from kadesh.server.api import StoreDep, problems
from kadesh.server.auth import AuthHeader, GameId, TokenQuery, bearer
from kadesh.server.identity import (
    check_same_site,
    clear_session,
    not_signed_in,
    same_site,
    session_secret,
    set_session,
    signed_in,
)
from kadesh.server.models import JsonObject
from kadesh.server.problems import ApiProblem
from kadesh.server.subscriptions_api import EMAIL, has_control, refuse_bad_webhook, small_page, webhook_style
from kadesh.store import LORD, OWNER, SEAT, Store
from kadesh.store.accounts import (
    WEBHOOKS_PER_ACCOUNT,
    AddressTaken,
    NameTaken,
    PasskeyTaken,
    Player,
    SignInLink,
    TooManyWebhooks,
)
from kadesh.store.jobs import utc_text
from kadesh.store.names import BadName
from kadesh.store.subscriptions import TooManyEmails
from kadesh.store.vacations import VACATION_DAYS_PER_YEAR, AlreadyAway, NoVacationLeft

router = APIRouter()
log = logging.getLogger(__name__)

Lang = Literal["fr", "en"]
ACCOUNT = problems(401, 403, 422)


# -- models ----------------------------------------------------------------------------------------------------

class PasskeyOut(BaseModel):
    id: str
    label: str
    created_at: str = Field(description="UTC")
    used_at: str | None = Field(description="When it last signed in, UTC")


class AccountOut(BaseModel):
    name: str
    lang: str
    email: str | None = Field(description="The confirmed address (a sign-in link reached it), if any")
    passkeys: list[PasskeyOut]
    sessions: int = Field(description="How many devices are signed in")


class AccountChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, max_length=64)
    lang: Lang | None = None


class PasskeyOptionsRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, max_length=64, description="A new player's name (not when adding a passkey)")
    lang: Lang = "fr"


class CeremonyOut(BaseModel):
    ceremony: str = Field(description="Send it back with the browser's answer")
    options: JsonObject = Field(description="For navigator.credentials (WebAuthn's JSON, base64url)")


class PasskeyAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ceremony: str = Field(max_length=32)
    credential: JsonObject = Field(description="The browser's PublicKeyCredential, as JSON (toJSON())")
    label: str | None = Field(None, max_length=64, description="What to call this passkey (its device)")


class EmailSignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    address: str = Field(min_length=3, max_length=320)
    lang: Lang = "fr"


class ClaimOut(BaseModel):
    game_id: str
    role: str = Field(description="seat or owner")
    seat: str | None


# -- sessions: who is signed in ----------------------------------------------------------------------------------

def current_player(request: Request, store: StoreDep) -> Player:
    """The signed-in player (401 otherwise); a write must come from this site (403 otherwise)."""
    player = signed_in(request, store)
    if player is None:
        raise not_signed_in()
    check_same_site(request)
    return player


PlayerDep = Annotated[Player, Depends(current_player)]


def account_out(store: Store, player: Player) -> AccountOut:
    keys = [PasskeyOut(id=p.id, label=p.label, created_at=p.created_at, used_at=p.used_at)
            for p in store.accounts.passkeys_of(player.id)]
    return AccountOut(name=player.name, lang=player.lang, email=player.email, passkeys=keys,
                      sessions=store.accounts.session_count(player.id))


def _signed_in_response(request: Request, store: Store, player: Player, status: int = 200) -> JSONResponse:
    secret = store.accounts.open_session(player.id)  # first: the answer counts this device among the signed-in
    response = JSONResponse(account_out(store, player).model_dump(), status_code=status)
    set_session(response, request, secret)
    return response


@router.get("/api/account", response_model=AccountOut, tags=["accounts"], responses=ACCOUNT)
def get_account(player: PlayerDep, store: StoreDep) -> AccountOut:
    """The signed-in player's account: name, language, confirmed address, passkeys, devices signed in."""
    return account_out(store, player)


class SessionOut(BaseModel):
    account: AccountOut | None = Field(description="The signed-in player's account; null when nobody is")
    email: bool = Field(description="Whether this server sends e-mail (sign-in links, confirmations)")


@router.get("/api/session", response_model=SessionOut, tags=["accounts"])
def get_session(request: Request, store: StoreDep) -> SessionOut:
    """Who is signed in on this device, if anyone (always 200: the pages ask it on every visit)."""
    player = signed_in(request, store)
    return SessionOut(account=account_out(store, player) if player is not None else None,
                      email=request.app.state.notice_settings.email)


@router.patch("/api/account", response_model=AccountOut, tags=["accounts"],
              responses=problems(400, 401, 403, 409, 413, 415, 422))
def change_account(body: AccountChange, player: PlayerDep, store: StoreDep) -> AccountOut:
    """A new name (unique: 409 ``name_taken`` for a look-alike of another's) or language."""
    try:
        changed = store.accounts.update_player(player.id, name=body.name, lang=body.lang)
    except BadName as bad:
        raise ApiProblem(422, "bad_name", bad.fr, bad.en) from None
    return account_out(store, changed)


@router.delete("/api/session", status_code=204, tags=["accounts"], responses=problems(403))
def sign_out(request: Request, store: StoreDep) -> Response:
    """Sign out of this device (its session ends on every server)."""
    check_same_site(request)
    secret = session_secret(request)
    if secret:
        player = store.accounts.session_player(secret)
        store.accounts.close_session(secret)
        if player is not None:
            _sockets_look_again(request, store, player.id)
    response = Response(status_code=204)
    clear_session(response, request)
    return response


@router.delete("/api/sessions", status_code=204, tags=["accounts"], responses=ACCOUNT)
def sign_out_everywhere(request: Request, player: PlayerDep, store: StoreDep) -> Response:
    """Sign out of every device: every session of the account ends, on every server."""
    store.accounts.close_sessions(player.id)
    _sockets_look_again(request, store, player.id)
    response = Response(status_code=204)
    clear_session(response, request)
    return response


def _sockets_look_again(request: Request, store: Store, player_id: str) -> None:
    """The sockets this server keeps open on the player's games look at their credentials now: a signed-out
    player's stop (other servers' within ``kadesh.server.broadcast.ACCESS_RECHECK`` seconds)."""
    for game_id in {claim.game_id for claim in store.accounts.claims_of(player_id)}:
        request.app.state.notifier.publish_access(game_id)


# -- passkeys ----------------------------------------------------------------------------------------------------

@router.post("/api/account/passkeys/options", response_model=CeremonyOut, tags=["accounts"],
             responses=problems(400, 403, 409, 413, 415, 422, 429))
def passkey_options(body: PasskeyOptionsRequest, request: Request, store: StoreDep) -> CeremonyOut:
    """Begin making a passkey: for a new account (with its ``name``), or, signed in, another passkey of yours."""
    check_same_site(request)
    party = passkeys.relying_party(request)
    player = signed_in(request, store)
    if player is not None:
        challenge, options = passkeys.registration(party, player.id.encode(), player.name,
                                                   store.accounts.passkeys_of(player.id))
        ceremony = store.accounts.begin("register", challenge, player_id=player.id)
        return CeremonyOut(ceremony=ceremony, options=options)
    if body.name is None:
        raise ApiProblem(422, "name_needed", "Choisis un nom de joueur.", "Choose a player's name.")
    try:
        name = store.accounts.free_name(body.name)
    except BadName as bad:
        raise ApiProblem(422, "bad_name", bad.fr, bad.en) from None
    player_id = uuid.uuid4().hex
    challenge, options = passkeys.registration(party, player_id.encode(), name, [])
    ceremony = store.accounts.begin("register", challenge, user_handle=player_id, name=name, lang=body.lang)
    return CeremonyOut(ceremony=ceremony, options=options)


@router.post("/api/account/passkeys", response_model=AccountOut, status_code=201, tags=["accounts"],
             responses=problems(400, 401, 403, 409, 413, 415, 422, 429))
def add_passkey(body: PasskeyAnswer, request: Request, store: StoreDep) -> Response:
    """End making a passkey with the browser's answer: a new account is made and signed in, or the signed-in
    player's account has one passkey more."""
    check_same_site(request)
    ceremony = store.accounts.end(body.ceremony, "register")
    if ceremony is None:
        raise passkeys.ceremony_over()
    credential_id, public_key, count = passkeys.registered(passkeys.relying_party(request), ceremony.challenge,
                                                           body.credential)
    label = (body.label or "").strip()[:64] or _device(request)
    try:
        if ceremony.player_id is not None:  # another passkey of a signed-in player
            player = signed_in(request, store)
            if player is None or player.id != ceremony.player_id:
                raise not_signed_in()
            store.accounts.add_passkey(player.id, credential_id, public_key, count, label)
            return JSONResponse(account_out(store, player).model_dump(), status_code=201)
        assert ceremony.name is not None and ceremony.user_handle is not None
        player = store.accounts.create_player(ceremony.name, ceremony.lang or "fr", player_id=ceremony.user_handle,
                                              passkey=(credential_id, public_key, count, label))
    except PasskeyTaken:
        raise ApiProblem(409, "passkey_taken", "Cette clé d'accès est déjà celle d'un compte : connecte-toi avec "
                         "elle.", "This passkey is an account's already: sign in with it.") from None
    return _signed_in_response(request, store, player, status=201)


@router.delete("/api/account/passkeys/{passkey_id}", status_code=204, tags=["accounts"],
               responses=problems(401, 403, 404, 409))
def remove_passkey(passkey_id: Annotated[str, Path(max_length=32)], player: PlayerDep, store: StoreDep) -> Response:
    """Remove a passkey of yours. The last way in stays: 409 unless another passkey or a confirmed address is left."""
    held = store.accounts.passkeys_of(player.id)
    if passkey_id not in {p.id for p in held}:
        raise ApiProblem(404, "unknown_passkey", "Clé d'accès inconnue.", "Unknown passkey.")
    if len(held) == 1 and player.email is None:
        raise ApiProblem(409, "last_way_in", "C'est ta seule façon d'entrer : ajoute une autre clé d'accès ou une "
                         "adresse e-mail avant de la retirer.", "It is your only way in: add another passkey or an "
                         "e-mail address before you remove it.")
    store.accounts.remove_passkey(player.id, passkey_id)
    return Response(status_code=204)


@router.post("/api/session/passkey/options", response_model=CeremonyOut, tags=["accounts"],
             responses=problems(403, 429))
def sign_in_options(request: Request, store: StoreDep) -> CeremonyOut:
    """Begin signing in with a passkey (any of this site's: the browser offers the player's own)."""
    check_same_site(request)
    challenge, options = passkeys.authentication(passkeys.relying_party(request))
    return CeremonyOut(ceremony=store.accounts.begin("sign_in", challenge), options=options)


@router.post("/api/session/passkey", response_model=AccountOut, tags=["accounts"],
             responses=problems(400, 401, 403, 413, 415, 422, 429))
def sign_in_with_passkey(body: PasskeyAnswer, request: Request, store: StoreDep) -> Response:
    """End signing in with the browser's answer: a session on this device (the cookie)."""
    check_same_site(request)
    ceremony = store.accounts.end(body.ceremony, "sign_in")
    if ceremony is None:
        raise passkeys.ceremony_over()
    passkey = store.accounts.passkey(passkeys.credential_id(body.credential))
    if passkey is None:
        raise passkeys.unknown_passkey()
    count = passkeys.authenticated(passkeys.relying_party(request), ceremony.challenge, body.credential, passkey)
    store.accounts.passkey_used(passkey.id, count)
    player = store.accounts.player(passkey.player_id)
    if player is None:
        raise passkeys.unknown_passkey()
    return _signed_in_response(request, store, player)


def _device(request: Request) -> str:
    """A passkey's default label: the kind of device it was made on, from the browser's own words."""
    agent = request.headers.get("user-agent", "")
    for marker, name in (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Mac OS", "Mac"),
                         ("Windows", "Windows"), ("Linux", "Linux")):
        if marker in agent:
            return name
    return "Clé d'accès"


# -- e-mailed sign-in links --------------------------------------------------------------------------------------

@router.post("/api/session/email", status_code=202, tags=["accounts"], responses=problems(400, 403, 413, 415, 422, 429))
def email_sign_in(body: EmailSignIn, request: Request, store: StoreDep) -> Response:
    """Send a single-use sign-in link to this address (it works for minutes). The answer is the same whether
    or not an account has this address: nobody learns who plays here. Asked by a signed-in player, the link
    adds the address to that player's account (it signs nobody in)."""
    check_same_site(request)
    settings = request.app.state.notice_settings
    if not settings.email:
        raise ApiProblem(422, "email_unavailable", "Ce serveur n'envoie pas d'e-mails (pas de réglages SMTP).",
                         "This server sends no e-mail (no SMTP settings).")
    address = body.address.strip()
    if not EMAIL.match(address) or has_control(address):
        raise ApiProblem(422, "bad_address", "Adresse e-mail invalide.", "Invalid e-mail address.")
    asker = signed_in(request, store)  # signed in: the link adds the address to this account, and to no other
    try:
        store.accounts.new_sign_in_link(address, body.lang, base_url(request), settings.mailing,
                                        player_id=asker.id if asker is not None else None)
    except TooManyEmails as refused:
        raise ApiProblem(429, "too_many_emails", "Cette adresse a reçu assez de liens pour aujourd'hui : réessaie "
                         "plus tard.", "This address has been sent enough links today: try again later.",
                         retry_after=refused.wait) from None
    request.app.state.workers.ensure()
    return Response(status_code=202)


# -- seats kept in the account -----------------------------------------------------------------------------------

@router.post("/api/games/{game_id}/claim", response_model=ClaimOut, tags=["accounts"],
             responses=problems(401, 403, 404, 409))
def claim(game_id: GameId, request: Request, player: PlayerDep, store: StoreDep, token: TokenQuery = None,
          authorization: AuthHeader = None) -> ClaimOut:
    """Keep the seat (or, with the owner's token, the game) that this token opens in your account: from now on
    you play it from any device where you are signed in, without the link."""
    given = token or bearer(authorization)
    if not given:
        raise ApiProblem(401, "unauthorized", "Il faut le lien du siège pour le garder.",
                         "The seat's link is needed to keep it.")
    access = store.access(game_id, given)
    if access.role not in (SEAT, LORD, OWNER):
        raise ApiProblem(403, "not_a_seat", "Un lien de spectateur ne se garde pas.",
                         "A spectator's link cannot be kept.")
    if access.role == SEAT and any(seat.seat == access.seat for seat in store.open_seats.of_game(game_id)):
        raise ApiProblem(409, "seat_open", "Ce siège attend son joueur dans « Parties ouvertes » : prends-le là.",
                         "This seat waits for its player in « Open games »: take it there.")
    store.accounts.claim(game_id, access.role, access.seat, player.id)
    if access.role == SEAT and access.seat is not None:
        follow(store, player, base_url(request), [(game_id, access.seat)])
    return ClaimOut(game_id=game_id, role=access.role, seat=access.seat)




# -- the account's webhooks --------------------------------------------------------------------------------------

class WebhookRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    address: str = Field(min_length=8, max_length=512, examples=["https://discord.com/api/webhooks/…"])
    style: Literal["auto", "kadesh", "discord", "slack"] = "auto"
    lang: Lang = "fr"


class WebhookOut(BaseModel):
    id: str
    address: str
    style: str
    lang: str


# -- vacations: the clocks of one's seats paused a few days a year -------------------------------------------------

class VacationIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    days: int = Field(ge=1, le=VACATION_DAYS_PER_YEAR, description="Whole days, from now")


class VacationOut(BaseModel):
    away_until: str | None = Field(description="The end of the vacation under way, UTC; null when there is none")
    days_left: float = Field(description="Days of vacation left over the last 365, the stay under way counted whole "
                             "(coming back early gives the rest back)")
    days_per_year: int


def days_in_words(days: float, lang: str) -> str:
    """« 1 jour », « 1,5 jour », « 3 jours »; "1 day", "1.5 days" (French keeps the singular below 2)."""
    number = f"{days:.1f}".rstrip("0").rstrip(".")
    if lang == "fr":
        return f"{number.replace('.', ',')} jour{'s' if days >= 2 else ''}"
    return f"{number} day{'' if days == 1 else 's'}"


def vacation_out(store: Store, player: Player) -> VacationOut:
    until = store.vacations.away_until(player.id)
    return VacationOut(away_until=utc_text(until) if until else None, days_left=round(store.vacations.days_left(
        player.id), 2), days_per_year=VACATION_DAYS_PER_YEAR)


@router.get("/api/account/vacation", response_model=VacationOut, tags=["accounts"], responses=ACCOUNT)
def get_vacation(player: PlayerDep, store: StoreDep) -> VacationOut:
    """The vacation under way, if any, and the days left this year (14 over any 365 days)."""
    return vacation_out(store, player)


@router.post("/api/account/vacation", response_model=VacationOut, tags=["accounts"],
             responses=problems(400, 401, 403, 409, 413, 415, 422))
def take_vacation(body: VacationIn, player: PlayerDep, store: StoreDep) -> VacationOut:
    """Pause the clocks of every seat the account keeps for ``days`` from now: each seat's time per move is
    lengthened by the vacation. 409 ``already_away``, 422 ``no_vacation_left``."""
    try:
        store.vacations.leave(player.id, body.days)
    except AlreadyAway:
        raise ApiProblem(409, "already_away", "Tu es déjà en vacances.", "You are on vacation already.") from None
    except NoVacationLeft as short:
        raise ApiProblem(422, "no_vacation_left", f"Il te reste {days_in_words(short.days_left, 'fr')} de vacances "
                         "cette année.", f"You have {days_in_words(short.days_left, 'en')} of vacation left this "
                         "year.") from None
    return vacation_out(store, player)


@router.delete("/api/account/vacation", response_model=VacationOut, tags=["accounts"], responses=ACCOUNT)
def end_vacation(player: PlayerDep, store: StoreDep) -> VacationOut:
    """Come back early: the clocks run again now, and only the days taken count."""
    store.vacations.come_back(player.id)
    return vacation_out(store, player)


@router.get("/api/account/webhooks", response_model=list[WebhookOut], tags=["accounts"], responses=ACCOUNT)
def list_webhooks(player: PlayerDep, store: StoreDep) -> list[WebhookOut]:
    """The account's webhooks: each hears the turns of every seat the account keeps."""
    return [WebhookOut(id=h.id, address=h.address, style=h.style, lang=h.lang)
            for h in store.accounts.webhooks_of(player.id)]


@router.post("/api/account/webhooks", response_model=WebhookOut, status_code=201, tags=["accounts"],
             responses=problems(400, 401, 403, 413, 415, 422, 429))
def add_webhook(body: WebhookRequest, request: Request, player: PlayerDep, store: StoreDep) -> WebhookOut:
    """A webhook (Discord, Slack or Kadesh's JSON) for every seat the account keeps, now and to come; checked as
    a seat's webhook is (422 ``bad_url``, ``private_host``…); 422 ``too_many_webhooks`` past three."""
    address = body.address.strip()
    if has_control(address):
        raise ApiProblem(422, "bad_url", "Adresse de webhook invalide.", "Invalid webhook address.")
    refuse_bad_webhook(address, request.app.state.notice_settings)
    style = body.style if body.style != "auto" else webhook_style(address)
    try:
        hook = store.accounts.add_webhook(player.id, address, style, body.lang)
    except TooManyWebhooks:
        raise ApiProblem(422, "too_many_webhooks", f"Un compte a {WEBHOOKS_PER_ACCOUNT} webhooks au plus.",
                         f"An account has {WEBHOOKS_PER_ACCOUNT} webhooks at most.") from None
    follow(store, player, base_url(request), only=[Channel("webhook", hook.address, hook.style, hook.lang)])
    return WebhookOut(id=hook.id, address=hook.address, style=hook.style, lang=hook.lang)


@router.delete("/api/account/webhooks/{webhook_id}", status_code=204, tags=["accounts"],
               responses=problems(401, 403, 404))
def remove_webhook(webhook_id: Annotated[str, Path(max_length=32)], player: PlayerDep, store: StoreDep) -> Response:
    """The webhook no longer hears the account's seats."""
    hook = store.accounts.remove_webhook(player.id, webhook_id)
    if hook is None:
        raise ApiProblem(404, "unknown_webhook", "Webhook inconnu.", "Unknown webhook.")
    unfollow(store, player, only=[Channel("webhook", hook.address, hook.style, hook.lang)])
    return Response(status_code=204)

# -- the account's games, a player's page, export and deletion -------------------------------------------------

class SeatHolder(BaseModel):
    seat: str
    name: str | None = Field(description="The player who keeps this seat in an account, if any")
    bot: str | None = Field(description="The computer's level, if it plays this seat")


class AccountGame(BaseModel):
    id: str
    ruleset: str
    role: str = Field(description="seat or owner")
    seat: str | None
    version: int
    to_act: list[str]
    your_turn: bool
    deadline: str | None = Field(description="When the game next acts by itself, or a seat's time per move runs "
                                             "out, UTC")
    late: list[str] = Field(default_factory=list, description="The seats to act whose time per move ran out")
    last_activity: str = Field(description="The last action (or the creation), UTC")
    players: list[SeatHolder]
    outcome: JsonObject | None


class PublicGame(BaseModel):
    ruleset: str
    seat: str
    players: list[SeatHolder]
    started: str = Field(description="UTC")
    outcome: JsonObject | None = Field(description="Once the game is over")
    replay: str | None = Field(None, description="Once the game is over, its public replay's address (a game going on "
                               "is seen only through its seats' links)")


class PlayerOut(BaseModel):
    name: str
    since: str = Field(description="When the account was made, UTC")
    playing: list[PublicGame]
    finished: list[PublicGame]


def players_of(store: Store, game_id: str, seats: list[str]) -> list[SeatHolder]:
    """Every seat of the game: the name of who keeps it in an account, the computer's level."""
    names, bots = store.accounts.seat_names(game_id), store.bots(game_id)
    return [SeatHolder(seat=seat, name=names.get(seat), bot=bots.get(seat)) for seat in seats]


def account_games(store: Store, player: Player) -> list[AccountGame]:
    """The player's games as their seats see them: whose turn, the deadline, the last activity, who plays."""
    games = []
    for held in store.accounts.games_of(player.id):
        with store.game(held.game_id) as game:
            to_act, seats, outcome, version = game.to_act(), list(game.seats), game.outcome, game.version
            clock = store.clock(held.game_id, game)
        now = datetime.now(UTC)
        games.append(AccountGame(id=held.game_id, ruleset=held.ruleset, role=held.role, seat=held.seat,
                                 version=version, to_act=to_act, your_turn=held.seat in to_act,
                                 deadline=utc_text(min(clock.values())) if clock else held.due_at,
                                 late=[seat for seat, moment in clock.items() if moment <= now],
                                 last_activity=held.last_activity,
                                 players=players_of(store, held.game_id, seats), outcome=outcome))
    return games


@router.get("/api/account/games", response_model=list[AccountGame], tags=["accounts"], responses=ACCOUNT)
def my_games(player: PlayerDep, store: StoreDep) -> list[AccountGame]:
    """Your games, the latest active first: the same list on every device where you are signed in."""
    return account_games(store, player)


@router.get("/api/players/{name}", response_model=PlayerOut, tags=["accounts"], responses=problems(404, 422, 429))
def player_page(name: Annotated[str, Path(max_length=64)], store: StoreDep) -> PlayerOut:
    """A player's public page: their games in progress (which game, which seat, against whom) and their finished
    games with results. Nothing of what a game hides: no game's view, no link."""
    player = store.accounts.by_name(name)
    if player is None:
        raise ApiProblem(404, "unknown_player", "Joueur inconnu.", "Unknown player.")
    playing, finished = [], []
    for held in store.accounts.games_of(player.id):
        if held.role != SEAT or held.seat is None:
            continue  # owning a game is not playing it
        with store.game(held.game_id) as game:
            seats = list(game.seats)
        public = PublicGame(ruleset=held.ruleset, seat=held.seat, players=players_of(store, held.game_id, seats),
                            started=store.created_at(held.game_id) or held.last_activity, outcome=held.outcome,
                            replay=f"/play/{held.game_id}?replay" if held.outcome is not None else None)
        (finished if held.outcome is not None else playing).append(public)
    return PlayerOut(name=player.name, since=player.created_at, playing=playing, finished=finished)


@router.get("/api/account/export", tags=["accounts"], responses=ACCOUNT)
def export_account(player: PlayerDep, store: StoreDep) -> JSONResponse:
    """Everything Kadesh keeps about you, as JSON: your account, passkeys, devices, webhooks, games and maps."""
    account = account_out(store, player).model_dump()
    account["created_at"] = player.created_at
    body = {"account": account, "webhooks": [hook.model_dump() for hook in list_webhooks(player, store)],
            "games": [game.model_dump() for game in account_games(store, player)],
            "maps": [{"id": m.id, "ruleset": m.ruleset, "name": m.name, "description": m.description,
                      "toml": m.toml, "status": m.status, "created": m.created_at, "updated": m.updated_at,
                      "published": m.published_at, "played": m.played} for m in store.maps.mine(player.id)]}
    return JSONResponse(body, headers={"Content-Disposition": 'attachment; filename="kadesh-account.json"'})


@router.delete("/api/account", status_code=204, tags=["accounts"], responses=ACCOUNT)
def delete_account(request: Request, player: PlayerDep, store: StoreDep) -> Response:
    """Delete your account: your name, address, passkeys, sessions and drafts of maps are gone. Your games stay,
    played by their links, with nobody's name at your seat; your published maps stay on the shelf, by « auteur
    supprimé » (unpublish or delete them first to take them away)."""
    unfollow(store, player)
    store.accounts.delete_player(player.id)
    response = Response(status_code=204)
    clear_session(response, request)
    return response


# -- the sign-in link's page -------------------------------------------------------------------------------------

SignInKey = Annotated[str, Path(max_length=64)]
SIGN_IN_WORDS = {
    "fr": {"title": "Se connecter", "ask": "Se connecter à Kadesh avec {address} ?", "button": "Me connecter",
           "new": "Aucun joueur n'a encore cette adresse : choisis ton nom de joueur.", "name": "Nom de joueur",
           "switch": "Tu es connecté en tant que {name} : ce lien te connecte au compte de {address} (ou en crée "
           "un), pas au tien. Tu seras déconnecté de {name}.",
           "confirm": "Ajouter l'adresse {address} au compte {name} ?", "confirm_button": "Confirmer l'adresse",
           "confirmed": "L'adresse {address} est maintenant celle du compte {name}.",
           "address_taken": "Cette adresse est déjà celle d'un autre compte : elle n'a pas été ajoutée.",
           "cross_site": "Refusé : ce formulaire ne vient pas de Kadesh. Ouvre le lien reçu par e-mail et "
           "clique sur le bouton de sa page.",
           "gone": "Ce lien ne sert plus : il a déjà servi, ou il a expiré. Demande-en un autre depuis la page "
           "« Mon compte ».", "again": "Demander un autre lien", "account": "Mon compte", "home": "Accueil",
           "other": "English", "other_lang": "en"},
    "en": {"title": "Sign in", "ask": "Sign in to Kadesh with {address}?", "button": "Sign me in",
           "new": "No player has this address yet: choose your player's name.", "name": "Player's name",
           "switch": "You are signed in as {name}: this link signs you in to the account of {address} (or makes "
           "one), not to yours. You will be signed out of {name}.",
           "confirm": "Add the address {address} to the account {name}?", "confirm_button": "Confirm the address",
           "confirmed": "The address {address} is now the account {name}'s.",
           "address_taken": "This address is another account's already: it was not added.",
           "cross_site": "Refused: this form does not come from Kadesh. Open the link you were e-mailed and "
           "press the button on its page.",
           "gone": "This link is of no use any more: it was used already, or it has expired. Ask for another "
           "from the « My account » page.", "again": "Ask for another link", "account": "My account",
           "home": "Home", "other": "Français", "other_lang": "fr"},
}


ADDRESS_WORDS = {lang: {**words, "title": title} for (lang, words), title in
                 zip(SIGN_IN_WORDS.items(), ("Ajouter une adresse", "Add an address"), strict=True)}


def _sign_in_form(key: str, lang: str, link: SignInLink, current: Player | None, owner: Player | None,
                  problem: str | None = None, status: int = 200) -> HTMLResponse:
    """The link's page: a sign-in (a name to choose for a new address; a warning for whoever is signed in as
    someone else), or the confirmation of an address for the account that asked for it."""
    words = SIGN_IN_WORDS[lang]
    address = escape(link.address)
    said = f'<p class="problem" role="alert">{escape(problem)}</p>' if problem else ""
    fields, button = "", words["button"]
    if link.player_id is not None:
        name = escape(owner.name) if owner is not None else ""
        lead, button = f'<p>{words["confirm"].format(address=address, name=name)}</p>', words["confirm_button"]
    else:
        lead = f'<p>{words["ask"].format(address=address)}</p>'
        if current is not None:
            lead += f'<p class="notice">{words["switch"].format(address=address, name=escape(current.name))}</p>'
        if owner is None:
            fields = (f'<p>{words["new"]}</p><label for="name">{words["name"]}</label>'
                      f'<input id="name" name="name" required minlength="3" maxlength="24" autocomplete="nickname">')
    body = (f'{lead}{said}<form method="post" action="/sign-in/{escape(key)}?lang={lang}">{fields}'
            f'<button type="submit" class="primary">{button}</button></form>')
    return small_page(lang, body, status, ADDRESS_WORDS if link.player_id is not None else SIGN_IN_WORDS)


def _said_on_page(lang: str, text: str, status: int, words_of: dict = SIGN_IN_WORDS) -> HTMLResponse:
    words = words_of[lang]
    return small_page(lang, f'<p>{text}</p><p><a href="/account?lang={lang}">{words["account"]}</a></p>', status,
                      words_of)


def _gone(lang: str) -> HTMLResponse:
    words = SIGN_IN_WORDS[lang]
    return small_page(lang, f'<p>{words["gone"]}</p><p><a href="/account?lang={lang}">{words["again"]}</a></p>',
                      410, SIGN_IN_WORDS)


def _link_owner(store: Store, link: SignInLink) -> Player | None:
    """The account the link opens: the one that asked to add the address, else the address's own."""
    return store.accounts.player(link.player_id) if link.player_id else store.accounts.by_email(link.address)


@router.get("/sign-in/{key}", include_in_schema=False)
def sign_in_page(key: SignInKey, request: Request, store: StoreDep, lang: Lang | None = None) -> HTMLResponse:
    """Asks before it signs in: mail scanners open links, and a GET must change nothing."""
    link = store.accounts.sign_in_link(key)
    if link is None:
        return _gone(lang or "fr")
    return _sign_in_form(key, lang or link.lang, link, signed_in(request, store), _link_owner(store, link))


@router.post("/sign-in/{key}", include_in_schema=False)
async def sign_in_now(key: SignInKey, request: Request, lang: Lang | None = None) -> Response:
    """The form's answer: the link is used (once). A sign-in link signs this device in to the address's account
    (a new address makes a new player with the name chosen here); a link asked for by a signed-in player adds
    the address to that player's account, and signs nobody in."""
    if not same_site(request):
        return _said_on_page(lang or "fr", SIGN_IN_WORDS[lang or "fr"]["cross_site"], 403)
    form = parse_qs((await request.body()).decode("utf-8", "replace"), max_num_fields=4)
    name = (form.get("name") or [""])[0]
    return await run_in_threadpool(_sign_in, request, key, name, lang)


def _sign_in(request: Request, key: str, name: str, lang: Lang | None) -> Response:
    store: Store = request.app.state.store
    link = store.accounts.sign_in_link(key)
    if link is None:
        return _gone(lang or "fr")
    lang = lang or link.lang  # type: ignore[assignment]
    if link.player_id is not None:
        return _confirm_address(request, store, key, link, lang)
    player, current = store.accounts.by_email(link.address), signed_in(request, store)
    if player is None:
        try:
            name = store.accounts.free_name(name)
        except BadName as bad:
            return _sign_in_form(key, lang, link, current, None, bad.fr if lang == "fr" else bad.en, 422)
        except NameTaken:
            taken = ("Ce nom est déjà pris : choisis-en un autre." if lang == "fr"
                     else "This name is taken: choose another.")
            return _sign_in_form(key, lang, link, current, None, taken, 409)
    if store.accounts.use_sign_in_link(key) is None:
        return _gone(lang)
    if player is None:
        try:
            player = store.accounts.create_player(name, lang, email=link.address)
        except NameTaken:  # the name, or the address, was taken meanwhile: the link is spent, ask another
            return _gone(lang)
    response = RedirectResponse(f"/account?lang={lang}", status_code=303)
    if current is not None and current.id != player.id:
        store.accounts.close_session(session_secret(request) or "")
    set_session(response, request, store.accounts.open_session(player.id))
    return response


def _confirm_address(request: Request, store: Store, key: str, link: SignInLink, lang: str) -> Response:
    """The address becomes the account's that asked for the link (unless another account has it meanwhile)."""
    words = SIGN_IN_WORDS[lang]
    owner = store.accounts.player(link.player_id or "")
    holder = store.accounts.by_email(link.address)
    if owner is None or store.accounts.use_sign_in_link(key) is None:
        return _gone(lang)
    if holder is not None and holder.id != owner.id:
        return _said_on_page(lang, words["address_taken"], 409, ADDRESS_WORDS)
    try:
        store.accounts.set_email(owner.id, link.address)
    except AddressTaken:
        return _said_on_page(lang, words["address_taken"], 409, ADDRESS_WORDS)
    follow(store, store.accounts.player(owner.id), base_url(request))
    current = signed_in(request, store)
    if current is not None and current.id == owner.id:
        return RedirectResponse(f"/account?lang={lang}", status_code=303)
    return _said_on_page(lang, words["confirmed"].format(address=escape(link.address), name=escape(owner.name)), 200,
                         ADDRESS_WORDS)

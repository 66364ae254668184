"""An account's confirmed e-mail address hears the turns of every seat the account keeps (issue 41), through
the seats' own subscriptions (``kadesh.store.subscriptions``): made when a seat is kept or the address is
confirmed, made again when the seat's link is replaced (a reissue takes the seat's subscriptions, which carry
the old link), and removed with the account. Players by link keep their per-seat subscriptions as before."""

from __future__ import annotations

import logging

from starlette.requests import Request

from kadesh.store import SEAT, Store
from kadesh.store.accounts import Player
from kadesh.store.subscriptions import TooManySubscriptions

log = logging.getLogger(__name__)


def base_url(request: Request) -> str:
    """Where players reach this server: ``KADESH_PUBLIC_URL``, or the address the request came to."""
    return request.app.state.notice_settings.public_url or str(request.base_url).rstrip("/")


def follow_by_email(store: Store, player: Player, base: str, seats: list[tuple[str, str]] | None = None) -> None:
    """The account's confirmed address hears the turns of the seats it keeps (all of them, or ``seats``: pairs
    of game and seat), as a seat's own subscription would; its notices link to the game, opened by the account."""
    if player.email is None:
        return
    held = seats if seats is not None else [(c.game_id, c.seat) for c in store.accounts.claims_of(player.id)
                                             if c.role == SEAT]
    for game_id, seat in held:
        if any(s.channel == "email" and s.address.lower() == player.email.lower()
               for s in store.subscriptions.of_seat(game_id, seat)):
            continue
        try:
            store.subscriptions.add(game_id, seat, "email", player.email, "", player.lang, f"{base}/play/{game_id}",
                                    confirmed=True)
        except TooManySubscriptions:
            log.info("game %s, seat %s: no room for its account's address", game_id, seat)


def forget_by_email(store: Store, player: Player) -> None:
    """The account's address no longer hears its seats (the account is being deleted)."""
    if player.email is None:
        return
    for claim in store.accounts.claims_of(player.id):
        for subscription in store.subscriptions.of_seat(claim.game_id, claim.seat):
            if subscription.channel == "email" and subscription.address.lower() == player.email.lower():
                store.subscriptions.remove(claim.game_id, claim.seat, subscription.id)



def after_reissue(store: Store, game_id: str, seat: str, request: Request) -> None:
    """A seat's link was replaced: the address of the account that keeps the seat, if any, hears it again."""
    for claim in store.accounts.claims_in(game_id):
        if claim.role == SEAT and claim.seat == seat:
            player = store.accounts.player(claim.player_id)
            if player is not None:
                follow_by_email(store, player, base_url(request), [(game_id, seat)])

"""An account's notices (issue 41): its confirmed e-mail address and its webhooks hear the turns of every seat
the account keeps, through the seats' own subscriptions (``kadesh.store.subscriptions``): made when a seat is
kept, an address confirmed or a webhook added; made again when the seat's link is replaced (a reissue takes
the seat's subscriptions, which carry the old link); removed with the webhook or the account. Their notices
link to the game's page without a token: the account opens it. Players by link keep their own per-seat
subscriptions as before."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from starlette.requests import Request

from kadesh.store import SEAT, Store
from kadesh.store.accounts import Player
from kadesh.store.subscriptions import TooManySubscriptions

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Channel:
    """Where an account hears its seats: its address (``email``) or one of its webhooks."""

    channel: str
    address: str
    style: str
    lang: str

    def same(self, subscription) -> bool:  # noqa: ANN001 - a seat's Subscription
        return (subscription.channel == self.channel
                and subscription.address.casefold() == self.address.casefold())


def base_url(request: Request) -> str:
    """Where players reach this server: ``KADESH_PUBLIC_URL``, or the address the request came to."""
    return request.app.state.notice_settings.public_url or str(request.base_url).rstrip("/")


def channels(store: Store, player: Player) -> list[Channel]:
    found = [Channel("email", player.email, "", player.lang)] if player.email else []
    return found + [Channel("webhook", h.address, h.style, h.lang) for h in store.accounts.webhooks_of(player.id)]


def kept_seats(store: Store, player: Player) -> list[tuple[str, str]]:
    return [(c.game_id, c.seat) for c in store.accounts.claims_of(player.id) if c.role == SEAT]


def follow(store: Store, player: Player, base: str, seats: list[tuple[str, str]] | None = None,
           only: list[Channel] | None = None) -> None:
    """The account's channels (or ``only`` these) hear the turns of its kept seats (or ``seats``: pairs of game
    and seat), each once; a seat with no room left for one is logged and left as it is."""
    for game_id, seat in seats if seats is not None else kept_seats(store, player):
        had = store.subscriptions.of_seat(game_id, seat)
        for channel in only if only is not None else channels(store, player):
            if any(channel.same(subscription) for subscription in had):
                continue
            try:
                store.subscriptions.add(game_id, seat, channel.channel, channel.address, channel.style, channel.lang,
                                        f"{base}/play/{game_id}", confirmed=True)
            except TooManySubscriptions:
                log.info("game %s, seat %s: no room for its account's %s", game_id, seat, channel.channel)


def unfollow(store: Store, player: Player, only: list[Channel] | None = None) -> None:
    """The account's channels (or ``only`` these) no longer hear its kept seats."""
    gone = only if only is not None else channels(store, player)
    for game_id, seat in kept_seats(store, player):
        for subscription in store.subscriptions.of_seat(game_id, seat):
            if any(channel.same(subscription) for channel in gone):
                store.subscriptions.remove(game_id, seat, subscription.id)


def after_reissue(store: Store, game_id: str, seat: str, request: Request) -> None:
    """A seat's link was replaced: the account that keeps the seat, if any, hears it again."""
    for claim in store.accounts.claims_in(game_id):
        if claim.role == SEAT and claim.seat == seat:
            player = store.accounts.player(claim.player_id)
            if player is not None:
                follow(store, player, base_url(request), [(game_id, seat)])

"""A seat's subscriptions to its notices (API), and the pages of the e-mails' links (confirm, unsubscribe).

A seat subscribes with its own token; the subscription keeps the seat's link (the notices carry it), so the
server builds that link here, from ``KADESH_PUBLIC_URL`` or else the address the request came to."""

from __future__ import annotations

import re
from html import escape
from typing import Annotated, Literal
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import HTMLResponse, Response

from kadesh.server.api import SeatDep, StoreDep, play_link, problems
from kadesh.server.auth import AuthHeader, TokenQuery, bearer
from kadesh.server.delivery import DeliveryError, Settings, check_webhook
from kadesh.server.models import SubscriptionOut, SubscriptionRequest, SubscriptionsOut
from kadesh.server.notices import seat_name
from kadesh.server.problems import ApiProblem
from kadesh.store import Store, token_hash
from kadesh.store.subscriptions import MAX_PER_SEAT, Subscription, TooManyEmails, TooManySubscriptions

router = APIRouter()

EMAIL = re.compile(r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$")


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control character (an address with one would break a mail's headers)."""
    return any(ord(character) < 32 or ord(character) == 127 for character in text)
SubscriptionId = Annotated[str, Path(max_length=32)]
UnsubscribeKey = Annotated[str, Path(max_length=64)]
ConfirmKey = Annotated[str, Path(max_length=64)]


def settings(request: Request) -> Settings:
    return request.app.state.notice_settings


SettingsDep = Annotated[Settings, Depends(settings)]


def _out(subscription: Subscription) -> SubscriptionOut:
    return SubscriptionOut(id=subscription.id, channel=subscription.channel, address=subscription.address,
                           style=subscription.style, lang=subscription.lang,
                           remind_before=subscription.remind_before, last_sent_at=subscription.last_sent_at,
                           last_error=subscription.last_error, last_error_at=subscription.last_error_at,
                           confirmed=subscription.confirmed)


@router.get("/api/games/{game_id}/subscriptions", response_model=SubscriptionsOut, tags=["notices"],
            responses=problems(401, 403, 404, 422))
def list_subscriptions(game_id: str, access: SeatDep, store: StoreDep, config: SettingsDep) -> SubscriptionsOut:
    """This seat's subscriptions, with how their last notice went, and whether this server sends e-mail."""
    assert access.seat is not None
    return SubscriptionsOut(email=config.email,
                            subscriptions=[_out(s) for s in store.subscriptions.of_seat(game_id, access.seat)])


@router.post("/api/games/{game_id}/subscriptions", response_model=SubscriptionOut, status_code=201,
             tags=["notices"], responses=problems(400, 401, 403, 404, 413, 415, 422, 429))
def subscribe(game_id: str, body: SubscriptionRequest, access: SeatDep, store: StoreDep, config: SettingsDep,
              request: Request, token: TokenQuery = None, authorization: AuthHeader = None) -> SubscriptionOut:
    """Be told at this address when it becomes this seat's turn (and when the game ends). The notices carry
    the seat's link: whoever reads them can play in the seat's place. An e-mail address is first sent a message
    with a link to confirm it, and nothing else until it is confirmed (429 past the sending limits)."""
    assert access.seat is not None
    address = body.address.strip()
    if has_control(address):
        raise ApiProblem(422, "bad_address", "Adresse invalide : elle contient un caractère de contrôle.",
                         "Invalid address: it holds a control character.")
    style = ""
    if body.channel == "email":
        if not config.email:
            raise ApiProblem(422, "email_unavailable", "Ce serveur n'envoie pas d'e-mails (pas de réglages SMTP).",
                             "This server sends no e-mail (no SMTP settings).")
        if not EMAIL.match(address):
            raise ApiProblem(422, "bad_address", "Adresse e-mail invalide.", "Invalid e-mail address.")
    else:
        refuse_bad_webhook(address, config)
        style = body.style if body.style != "auto" else webhook_style(address)
    base = config.public_url or str(request.base_url).rstrip("/")
    shown = token or bearer(authorization) or ""
    # A seat kept in an account (no token) is opened by its player's session: its notices link to the game.
    link = base + (play_link(game_id, shown).link if shown else f"/play/{game_id}")
    try:
        subscription = store.subscriptions.add(game_id, access.seat, body.channel, address, style, body.lang, link,
                                               body.remind_before, holder=token_hash(shown) if shown else None,
                                               mailing=config.mailing)
    except TooManySubscriptions:
        raise ApiProblem(422, "too_many_subscriptions", f"Un siège a {MAX_PER_SEAT} abonnements au plus.",
                         f"A seat has {MAX_PER_SEAT} subscriptions at most.") from None
    except TooManyEmails as refused:
        raise _too_many_emails(refused) from None
    if not subscription.confirmed:
        request.app.state.workers.ensure()
    return _out(subscription)


def _too_many_emails(refused: TooManyEmails) -> ApiProblem:
    hours = max(1, round(refused.wait / 3600))
    if refused.limit == "address":
        return ApiProblem(429, "too_many_emails", f"Cette adresse a reçu assez de demandes de confirmation "
                          f"aujourd'hui ; réessaie dans {hours} h environ.", "This address has received enough "
                          f"confirmation requests today; try again in about {hours} h.", retry_after=refused.wait)
    return ApiProblem(429, "too_many_emails", "Ce serveur a envoyé tous les e-mails qu'il peut envoyer pour "
                      "l'heure ; réessaie plus tard.", "This server has sent all the e-mails it may send this hour; "
                      "try again later.", retry_after=refused.wait)


def refuse_bad_webhook(address: str, config: Settings) -> None:
    try:
        check_webhook(address, config)
    except DeliveryError as error:
        words = {"bad_url": ("Adresse de webhook invalide : http:// ou https:// attendu.",
                             "Invalid webhook address: http:// or https:// expected."),
                 "unknown_host": (f"Hôte introuvable : {error.detail}.", f"Unknown host: {error.detail}."),
                 "private_host": (f"Ce serveur n'appelle pas d'adresse privée ({error.detail}).",
                                  f"This server calls no private address ({error.detail}).")}[error.code]
        raise ApiProblem(422, error.code, *words) from None


def webhook_style(url: str) -> str:
    host = urlsplit(url).hostname or ""  # the URL passed check_webhook: it parses
    if host in ("discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com"):
        return "discord"
    if host == "hooks.slack.com":
        return "slack"
    return "kadesh"


def _own(store: Store, game_id: str, seat: str, subscription_id: str) -> Subscription:
    subscription = store.subscriptions.get(subscription_id)
    if subscription is None or subscription.game_id != game_id or subscription.seat != seat:
        raise ApiProblem(404, "subscription_not_found", "Abonnement introuvable.", "Subscription not found.")
    return subscription


@router.delete("/api/games/{game_id}/subscriptions/{subscription_id}", status_code=204, tags=["notices"],
               responses=problems(401, 403, 404, 422))
def unsubscribe(game_id: str, subscription_id: SubscriptionId, access: SeatDep, store: StoreDep) -> Response:
    """Stop one of this seat's subscriptions (its notices still queued are dropped)."""
    assert access.seat is not None
    _own(store, game_id, access.seat, subscription_id)
    store.subscriptions.remove(game_id, access.seat, subscription_id)
    return Response(status_code=204)


@router.post("/api/games/{game_id}/subscriptions/{subscription_id}/test", status_code=202, tags=["notices"],
             responses=problems(401, 403, 404, 409, 422, 429))
def test_notice(game_id: str, subscription_id: SubscriptionId, access: SeatDep, store: StoreDep,
                request: Request) -> Response:
    """Send a test notice to this subscription (by a worker, soon: its result shows in the list); not to an
    e-mail address that is not confirmed yet (409)."""
    assert access.seat is not None
    subscription = _own(store, game_id, access.seat, subscription_id)
    if not subscription.confirmed:
        raise ApiProblem(409, "not_confirmed", f"Cette adresse n'est pas encore confirmée : ouvre le lien reçu "
                         f"à {subscription.address}.", f"This address is not confirmed yet: open the link sent to "
                         f"{subscription.address}.")
    store.subscriptions.ask_test(subscription)
    request.app.state.workers.ensure()
    return Response(status_code=202)


# -- the links of the e-mails: confirm, unsubscribe ----------------------------------------------------------
CONFIRM_WORDS = {
    "fr": {"title": "Confirmer ton adresse", "ask": "Recevoir à {address} les avis de {seat} dans cette partie "
           "de {game} ?", "button": "Oui, envoie-les-moi", "done": "C'est confirmé : {address} recevra les avis "
           "de {seat} dans cette partie de {game}.", "gone": "Ce lien ne sert plus : la demande a expiré ou a été "
           "retirée. Abonne-toi de nouveau depuis la page de la partie.", "home": "Accueil", "other": "English",
           "other_lang": "en"},
    "en": {"title": "Confirm your address", "ask": "Receive {seat}'s notices of this game of {game} at {address}?",
           "button": "Yes, send them to me", "done": "Confirmed: {address} will receive {seat}'s notices of this "
           "game of {game}.", "gone": "This link is of no use any more: the request expired or was removed. "
           "Subscribe again from the game's page.", "home": "Home", "other": "Français", "other_lang": "fr"},
}
PAGE_WORDS = {
    "fr": {"title": "Ne plus recevoir ces avis", "ask": "Ne plus envoyer à {address} les avis de {seat} dans "
           "cette partie de {game} ?", "button": "Me désabonner", "done": "C'est fait : {address} ne recevra plus "
           "ces avis.", "gone": "Ce lien ne sert plus : cet abonnement a déjà été retiré.", "home": "Accueil",
           "other": "English", "other_lang": "en"},
    "en": {"title": "Stop these notices", "ask": "Stop sending {seat}'s notices of this game of {game} to "
           "{address}?", "button": "Unsubscribe", "done": "Done: {address} will receive these notices no more.",
           "gone": "This link is of no use any more: this subscription was already removed.", "home": "Home",
           "other": "Français", "other_lang": "fr"},
}


def small_page(lang: str, body: str, status: int = 200, words_of: dict = PAGE_WORDS) -> HTMLResponse:
    words = words_of[lang]
    html = f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(words["title"])} · Kadesh</title><link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css"></head>
<body><header><h1><a href="/">Kadesh</a></h1><nav aria-label="Kadesh"><a href="/">{words["home"]}</a>
<a href="?lang={words["other_lang"]}" lang="{words["other_lang"]}">{words["other"]}</a></nav></header>
<main class="card unsubscribe"><h2>{escape(words["title"])}</h2>{body}</main></body></html>"""
    return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})


def _described(store: Store, subscription: Subscription, lang: str) -> dict[str, str]:
    with store.game(subscription.game_id) as game:
        return {"address": escape(subscription.address), "seat": escape(seat_name(game, subscription.seat, lang)),
                "game": escape(game.ruleset.title.get(lang, game.ruleset.name))}


Lang = Annotated[Literal["fr", "en"], Query()]


def _said(store: Store, subscription: Subscription | None, lang: str, words_of: dict, what: str) -> HTMLResponse:
    """A link's page: ``what`` it has to say of ``subscription`` (``ask``, with its form, or ``done``), or that
    the link is of no use any more (404)."""
    words = words_of[lang]
    if subscription is None:
        return small_page(lang, f"<p>{words['gone']}</p>", 404, words_of)
    text = f"<p>{words[what].format(**_described(store, subscription, lang))}</p>"
    if what == "ask":
        text += f'<form method="post"><button type="submit" class="primary">{words["button"]}</button></form>'
    return small_page(lang, text, words_of=words_of)


@router.get("/unsubscribe/{key}", include_in_schema=False)
def unsubscribe_page(key: UnsubscribeKey, store: StoreDep, lang: Lang = "fr") -> HTMLResponse:
    """Asks before it unsubscribes: mail scanners open links, and a GET must change nothing."""
    return _said(store, store.subscriptions.by_key(key), lang, PAGE_WORDS, "ask")


@router.post("/unsubscribe/{key}", include_in_schema=False)
def unsubscribe_now(key: UnsubscribeKey, store: StoreDep, lang: Lang = "fr") -> HTMLResponse:
    """The form's answer, and the one-click unsubscribe of mail readers (RFC 8058)."""
    subscription = store.subscriptions.by_key(key)
    removed = subscription is not None and store.subscriptions.remove_by_key(key)
    return _said(store, subscription if removed else None, lang, PAGE_WORDS, "done")


@router.get("/confirm/{key}", include_in_schema=False)
def confirm_page(key: ConfirmKey, store: StoreDep, lang: Lang = "fr") -> HTMLResponse:
    """Asks before it confirms: mail scanners open links, and a GET must change nothing."""
    subscription = store.subscriptions.by_confirm_key(key)
    return _said(store, subscription, lang, CONFIRM_WORDS, "done" if subscription and subscription.confirmed else "ask")


@router.post("/confirm/{key}", include_in_schema=False)
def confirm_now(key: ConfirmKey, store: StoreDep, lang: Lang = "fr") -> HTMLResponse:
    """The form's answer: from now on the address receives the seat's notices."""
    return _said(store, store.subscriptions.confirm(key), lang, CONFIRM_WORDS, "done")

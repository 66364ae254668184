"""The words of the table's talk (issue 43): who wrote a message, and what a channel is called, for a reader, in
French and English (no seat's id reaches a page)."""

from __future__ import annotations

from collections.abc import Mapping

from kadesh.core import Game
from kadesh.core.table import seat_title
from kadesh.store import LORD, SEAT, SPECTATOR, Access
from kadesh.store.messages import COMPUTER, COUNCIL, MODERATION, PAIR, SPECTATORS, TABLE, Message, Shape, pair_members

Words = dict[str, str]  # {"fr": ..., "en": ...}
LANGS = ("fr", "en")


def _names(game: Game) -> dict[str, dict[str, str]]:
    return game.ruleset.seat_names(game.options)


def sender_words(game: Game, shape: Shape, message: Message, holders: Mapping[str, str] | None = None) -> Words:
    """« Koush (Seigneur du Royaume) », « Sud (Hatchepsout) », « Imhotep », « Alice (spectatrice) »… ``holders``:
    the accounts' names at the seats (where a council shares a seat, its titles say who writes instead)."""
    role, seat, author = message.role, message.seat, message.author
    titles = game.ruleset.council_titles
    out = {}
    for lang in LANGS:
        if role in (SEAT, LORD, COMPUTER) and seat is not None:
            name = seat_title(_names(game), seat, lang)
            if shape.councils and seat not in shape.masters and titles:
                name += f" ({titles[LORD if role == LORD else SEAT][lang]})"
            elif role == SEAT and holders and seat in holders:
                name += f" ({holders[seat]})"
            out[lang] = name
        elif role == SPECTATOR:
            watcher = "spectateur" if lang == "fr" else "spectator"
            out[lang] = f"{author} ({watcher})" if author else watcher.capitalize()
        else:
            out[lang] = "Propriétaire de la partie" if lang == "fr" else "The game's owner"
    return out


def channel_title(game: Game, access: Access, channel: str) -> Words:
    """A channel's name for this reader: a private channel is named after the other seat."""
    names = _names(game)
    fixed = {TABLE: ("Toute la table", "Whole table"), SPECTATORS: ("Spectateurs", "Spectators"),
             MODERATION: ("Signalements", "Reports")}
    if channel in fixed:
        return dict(zip(LANGS, fixed[channel], strict=True))
    if channel.startswith(PAIR):
        members = pair_members(channel)
        others = [seat for seat in members if seat != access.seat]
        if len(others) == 1:
            return {lang: seat_title(names, others[0], lang) for lang in LANGS}
        return {lang: f"{seat_title(names, members[0], lang)} {'et' if lang == 'fr' else 'and'} "
                      f"{seat_title(names, members[1], lang)}" for lang in LANGS}
    kingdom = channel.partition(":")[2]
    own = access.seat == kingdom
    what = ("Conseil", "Council") if channel.startswith(COUNCIL) else ("Brouillon d'ordres", "Draft of orders")
    return {lang: word if own else f"{word} : {seat_title(names, kingdom, lang)}" if lang == "fr"
            else f"{word}: {seat_title(names, kingdom, lang)}" for lang, word in zip(LANGS, what, strict=True)}

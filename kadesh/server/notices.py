"""What a notice says: the game, whose turn it is, the deadline if any, the seat's link, and what happened
since the seat last acted, in the seat's own journal (``Game.journal_marked``, the single filter of what a
seat may see). Nothing else of the game goes in: a notice never carries what its seat could not see.

Kinds (queued by ``Store._write`` and ``Subscriptions``): ``turn`` (it has just become the seat's turn),
``ready`` (every awaited seat has acted: the game master's call), ``over`` (the game has ended),
``remind`` (the seat's deadline is near and it has not acted), ``test`` (asked from the game page), ``messages``
(the messages at the table the seat reads that came since its last such notice, grouped: issue 43).
An e-mail address is first sent a ``confirmation``: Kadesh's own words only (the game's title and the
server's address), nothing a player or a map's author wrote, and not the seat's link.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from kadesh.core import Game
from kadesh.core.table import seat_title

MAX_LINES = 12  # journal lines in a notice at most: the latest ones

WORDS = {
    "fr": {
        "turn": ("{game} : à toi de jouer ({seat})", "C'est à toi de jouer, {seat}, dans ta partie de {game}."),
        "ready": ("{game} : tous les ordres sont arrivés", "Tous les ordres sont arrivés dans ta partie de {game}, "
                                                           "{seat}."),
        "over": ("{game} : la partie est finie", "Ta partie de {game} est finie. {verdict}"),
        "remind": ("{game} : l'échéance approche ({seat})", "On attend encore ton tour, {seat}, dans ta partie de "
                                                          "{game}."),
        "test": ("{game} : essai de notification", "Ceci est un essai : les avis de ta partie de {game} "
                                                  "arriveront ici ({seat})."),
        "messages": ("{game} : nouveaux messages ({seat})", "De nouveaux messages à ta table, {seat}, dans ta partie "
                                                             "de {game}."),
        "said": "Les messages :", "drafted": "a écrit un brouillon d'ordres", "reported": "signale un message",
        "won": "{seat} l'emporte.", "draw": "Personne ne l'emporte.",
        "deadline": "Échéance : {when}.", "since": "Depuis ton dernier tour :",
        "link": "Ton lien (secret : quiconque l'a peut jouer à ta place) : {link}",
        "unsubscribe": "Ne plus recevoir ces avis : {link}",
        "days": ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"],
        "months": ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
                   "octobre", "novembre", "décembre"],
    },
    "en": {
        "turn": ("{game}: your turn ({seat})", "It is your turn, {seat}, in your game of {game}."),
        "ready": ("{game}: every order is in", "Every order is in, {seat}, in your game of {game}."),
        "over": ("{game}: the game is over", "Your game of {game} is over. {verdict}"),
        "remind": ("{game}: the deadline is near ({seat})", "Your turn is still awaited, {seat}, in your game of "
                                                          "{game}."),
        "test": ("{game}: test notification", "This is a test: the notices of your game of {game} will come here "
                                              "({seat})."),
        "messages": ("{game}: new messages ({seat})", "New messages at your table, {seat}, in your game of {game}."),
        "said": "The messages:", "drafted": "wrote a draft of orders", "reported": "reports a message",
        "won": "{seat} wins.", "draw": "Nobody wins.",
        "deadline": "Deadline: {when}.", "since": "Since your last turn:",
        "link": "Your link, secret (whoever has it plays in your place): {link}",
        "unsubscribe": "Stop these notices: {link}",
        "days": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
        "months": ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                   "October", "November", "December"],
    },
}


CONFIRMATION_WORDS = {
    "fr": ("Kadesh : confirme ton adresse pour recevoir les avis",
           "Quelqu'un a demandé à recevoir à cette adresse les avis d'une partie de {game} jouée sur {server}.\n\n"
           "Pour les recevoir, ouvre ce lien puis confirme : {link}\n\n"
           "Si ce n'est pas toi, ne fais rien : tu ne recevras rien d'autre, et la demande s'efface d'elle-même "
           "dans {hours} heures."),
    "en": ("Kadesh: confirm your address to receive the notices",
           "Someone asked for the notices of a game of {game} played on {server} to be sent to this address.\n\n"
           "To receive them, open this link and confirm: {link}\n\n"
           "If it was not you, do nothing: you will receive nothing else, and the request erases itself within "
           "{hours} hours."),
}


@dataclass(frozen=True, slots=True)
class Confirmation:
    """The one message an e-mail address gets before its owner confirms it."""

    game_id: str
    subject: str
    body: str

    kind = "confirm"
    version = 0
    nonce = ""

    def text(self, unsubscribe: str | None = None) -> str:
        return self.body


def confirmation(game: Game, game_id: str, lang: str, link: str, server: str, hours: int) -> Confirmation:
    """The confirmation message: ``link`` opens the page that confirms."""
    subject, body = CONFIRMATION_WORDS[lang if lang in CONFIRMATION_WORDS else "fr"]
    title = game.ruleset.title.get(lang, game.ruleset.name)
    return Confirmation(game_id, subject, body.format(game=title, server=server, link=link, hours=hours))

SIGN_IN_WORDS = {
    "fr": ("Kadesh : ton lien pour te connecter",
           "Voici ton lien pour te connecter à Kadesh sur {server} : {link}\n\n"
           "Il sert une fois, dans les {minutes} minutes. Si tu n'as rien demandé, ne fais rien : personne ne se "
           "connecte sans ce lien."),
    "en": ("Kadesh: your link to sign in",
           "Here is your link to sign in to Kadesh on {server}: {link}\n\n"
           "It works once, within {minutes} minutes. If you asked for nothing, do nothing: nobody signs in "
           "without this link."),
}


@dataclass(frozen=True, slots=True)
class Notice:
    kind: str
    game_id: str
    version: int  # the game's version that made the notice due
    ruleset: str
    game_title: str
    seat: str
    seat_name: str
    subject: str
    lead: str  # the sentence that says what happened
    lines: list[str]  # the seat's journal since it last acted
    deadline: str | None  # ISO 8601 UTC
    deadline_text: str | None
    link: str
    lang: str
    nonce: str = ""  # tells apart notices of the same kind at the same version (tests asked for twice)
    heading: str | None = None  # what introduces ``lines`` (the journal's « Depuis ton dernier tour : »)

    @property
    def id(self) -> str:
        """The same for a notice sent twice (a receiver may drop the second), different for any other."""
        return "-".join(part for part in (self.game_id, str(self.version), self.seat, self.kind, self.nonce) if part)

    def text(self, unsubscribe: str | None = None, max_length: int | None = None) -> str:
        """The notice as plain text (an e-mail's body, a chat message); within ``max_length`` characters by
        leaving out the oldest journal lines, never the link."""
        lines = list(self.lines)
        while True:
            text = self._text(lines, unsubscribe)
            if max_length is None or len(text) <= max_length or not lines:
                return text if max_length is None else text[:max_length]
            lines.pop(0)

    def _text(self, lines: list[str], unsubscribe: str | None) -> str:
        words = WORDS[self.lang]
        parts = [self.lead]
        if self.deadline_text:
            parts.append(words["deadline"].format(when=self.deadline_text))
        if lines:
            parts.append("\n".join([self.heading or words["since"], *(f"- {line}" for line in lines)]))
        parts.append(words["link"].format(link=self.link))
        if unsubscribe:
            parts.append(words["unsubscribe"].format(link=unsubscribe))
        return "\n\n".join(parts)

    def payload(self) -> dict[str, Any]:
        """The JSON a Kadesh-style webhook receives (documented in docs/operations.md)."""
        return {"type": self.kind, "id": self.id,
                "game": {"id": self.game_id, "ruleset": self.ruleset, "title": self.game_title},
                "seat": {"id": self.seat, "name": self.seat_name}, "version": self.version,
                "deadline": self.deadline, "link": self.link, "subject": self.subject, "text": self.text(),
                "lines": self.lines, "lang": self.lang}


def seat_name(game: Game, seat: str, lang: str) -> str:
    return seat_title(game.ruleset.seat_names(game.options), seat, lang)


def compose(game: Game, game_id: str, kind: str, version: int, seat: str, lang: str, link: str,
            deadline: str | None = None, nonce: str = "") -> Notice:
    """The notice of ``kind`` for ``seat`` about ``game`` (at ``version`` or later), in ``lang``."""
    words = WORDS[lang if lang in WORDS else "fr"]
    title = game.ruleset.title.get(lang, game.ruleset.name)
    name = seat_name(game, seat, lang)
    verdict = ""
    if kind == "over" and game.outcome is not None:
        winner = game.outcome.get("winner")
        verdict = words["won"].format(seat=seat_name(game, winner, lang)) if winner else words["draw"]
    subject_form, lead_form = words[kind]
    return Notice(kind=kind, game_id=game_id, version=version,
                  ruleset=game.ruleset.name, game_title=title, seat=seat, seat_name=name,
                  subject=subject_form.format(game=title, seat=name),
                  lead=lead_form.format(game=title, seat=name, verdict=verdict).strip(),
                  lines=lines_since_last_turn(game, seat, version, lang),
                  deadline=deadline if kind != "over" else None,
                  deadline_text=when(deadline, lang) if deadline and kind != "over" else None,
                  link=link, lang=lang, nonce=nonce)


def lines_since_last_turn(game: Game, seat: str, version: int, lang: str) -> list[str]:
    """The seat's journal from its own last action before ``version`` up to ``version`` (the latest lines)."""
    acted = [index + 1 for index, action in enumerate(game.actions[:version])
             if action["seat"] == seat]
    since = acted[-1] if acted else 0
    lines = [line for at, line, _ in game.journal_marked(seat, lang, since) if at <= version]
    return lines[-MAX_LINES:]


def when(iso: str, lang: str) -> str:
    """A deadline as people read it: « jeudi 3 décembre 2026 à 18 h 00 (UTC) »."""
    moment = datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(UTC)
    words = WORDS[lang]
    day, month = words["days"][moment.weekday()], words["months"][moment.month - 1]
    if lang == "fr":
        return f"{day} {moment.day} {month} {moment.year} à {moment.hour} h {moment.minute:02d} (UTC)"
    return f"{day} {moment.day} {month} {moment.year} at {moment.hour:02d}:{moment.minute:02d} (UTC)"


MESSAGE_LINE = 300  # characters of one message quoted in a notice


def compose_messages(game: Game, game_id: str, seat: str, lang: str, link: str, last: int,
                     said: list[tuple[str, str, str]]) -> Notice:
    """The notice of new messages for ``seat``: ``said`` is each message's (sender's words, kind, text), the
    latest ``MAX_LINES``, each on one line; ``last`` the newest message's number (the notice's version)."""
    words = WORDS[lang if lang in WORDS else "fr"]
    title = game.ruleset.title.get(lang, game.ruleset.name)
    name = seat_name(game, seat, lang)
    lines = []
    for sender, kind, text in said[-MAX_LINES:]:
        quoted = " ".join(text.split())
        quoted = quoted if len(quoted) <= MESSAGE_LINE else quoted[:MESSAGE_LINE - 1] + "…"
        if kind == "draft":
            lines.append(f"{sender} {words['drafted']}")
        elif kind == "report":
            lines.append(f"{sender} {words['reported']} : « {quoted} »" if lang == "fr"
                         else f"{sender} {words['reported']}: \"{quoted}\"")
        else:
            lines.append(f"{sender} : {quoted}" if lang == "fr" else f"{sender}: {quoted}")
    subject_form, lead_form = words["messages"]
    return Notice(kind="messages", game_id=game_id, version=last, ruleset=game.ruleset.name, game_title=title,
                  seat=seat, seat_name=name, subject=subject_form.format(game=title, seat=name),
                  lead=lead_form.format(game=title, seat=name), lines=lines, deadline=None, deadline_text=None,
                  link=link, lang=lang, heading=words["said"])

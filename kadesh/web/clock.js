// The game's table (issue 42): its time per move, who must play by when, the claim of a win on time, and
// whether the game is rated. The server tells every time and who is late (GET /api/games/{id}: ``table``); the
// page only puts them in words, in the reader's language and time zone.

import { el } from "/static/dom.js";

const WORDS = {
  fr: {
    perMove: (n) => (n === 1 ? "1 jour par coup" : `${n} jours par coup`),
    perTurn: (n) => (n === 1 ? "1 jour par tour" : `${n} jours par tour`),
    rated: "Partie classée", casual: "Partie amicale",
    mine: (when, left) => `Tu dois jouer avant ${when} (${left}).`,
    theirs: (seat, when, left) => `${seat} doit jouer avant ${when} (${left}).`,
    holder: (seat, name) => `${seat} (${name})`,
    myVacation: "Ton délai est allongé par tes vacances.",
    theirVacation: "Son délai est allongé par ses vacances.",
    myTimeOut: "Ton temps est écoulé : ton adversaire peut réclamer la victoire. Joue maintenant !",
    theirTimeOut: (seat) => `${seat} n'a pas joué à temps : tu peux réclamer la victoire.`,
    lateSeen: (seat) => `${seat} n'a pas joué à temps.`,
    standIn: (seat) => `${seat} n'a pas joué à temps : l'ordinateur joue ce tour à sa place.`,
    computerRule: "passé ce délai, l'ordinateur joue le tour du retardataire",
    claim: "Réclamer la victoire au temps",
    counted: "Les classements ont été mis à jour.",
    notCounted: {
      seats: "Cette partie ne compte pas pour les classements : un siège n'était pas tenu par un compte.",
      computer: "Cette partie ne compte pas pour les classements : l'ordinateur y a tenu un siège.",
      too_short: "Cette partie ne compte pas pour les classements : elle s'est terminée avant que chaque camp ait joué.",
      same_players: "Cette partie ne compte pas pour les classements : ces deux joueurs ont déjà joué trois parties classées en un jour.",
      cancelled: "Cette partie ne compte pas pour les classements : elle a été annulée.",
    },
    pending: "Les classements vont être mis à jour.",
    waitingFor: (seats) => `La partie attend ses joueurs, dans « Parties ouvertes » : ${seats}.`,
    closeOpen: "Retirer des parties ouvertes (la partie est annulée)",
  },
  en: {
    perMove: (n) => (n === 1 ? "1 day per move" : `${n} days per move`),
    perTurn: (n) => (n === 1 ? "1 day per turn" : `${n} days per turn`),
    rated: "Rated game", casual: "Casual game",
    mine: (when, left) => `You must play before ${when} (${left}).`,
    theirs: (seat, when, left) => `${seat} must play before ${when} (${left}).`,
    holder: (seat, name) => `${seat} (${name})`,
    myVacation: "Your time is lengthened by your vacation.",
    theirVacation: "Their time is lengthened by their vacation.",
    myTimeOut: "Your time has run out: your opponent may claim the win. Play now!",
    theirTimeOut: (seat) => `${seat} did not play in time: you may claim the win.`,
    lateSeen: (seat) => `${seat} did not play in time.`,
    standIn: (seat) => `${seat} did not play in time: the computer plays this turn instead.`,
    computerRule: "past that time, the computer plays the late side's turn",
    claim: "Claim the win on time",
    counted: "The ratings have been updated.",
    notCounted: {
      seats: "This game does not count for the ratings: a seat was not held by an account.",
      computer: "This game does not count for the ratings: the computer held a seat.",
      too_short: "This game does not count for the ratings: it ended before each side had played.",
      same_players: "This game does not count for the ratings: these two players had played three rated games in a day already.",
      cancelled: "This game does not count for the ratings: it was cancelled.",
    },
    pending: "The ratings are about to be updated.",
    waitingFor: (seats) => `The game is waiting for its players, in “Open games”: ${seats}.`,
    closeOpen: "Withdraw from the open games (the game is cancelled)",
  },
};

const LOCALE = { fr: "fr-FR", en: "en-GB" };

export function moment(iso, lang) {
  return new Intl.DateTimeFormat(LOCALE[lang], { weekday: "long", day: "numeric", month: "long", hour: "numeric", minute: "2-digit" })
    .format(new Date(iso));
}

export function timeLeft(iso, lang, now = Date.now()) {
  const minutes = Math.round((new Date(iso).getTime() - now) / 60000);
  const format = new Intl.RelativeTimeFormat(LOCALE[lang], { numeric: "auto" });
  if (Math.abs(minutes) < 60) return format.format(minutes, "minute");
  if (Math.abs(minutes) < 48 * 60) return format.format(Math.round(minutes / 60), "hour");
  return format.format(Math.round(minutes / 1440), "day");
}

// Draw the table into ``box`` (hidden for a game with neither clock nor rating); ``claim()`` asks the server.
// ``turnsAtOnce``: every seat writes its turn at once (Royaumes' orders): a time per turn, whose deadline the
// ruleset's own page tells once; only the seats late are named here.
export function renderClock(box, { current, lang, seatName: sideName, claim, closeOpen, turnsAtOnce = false }) {
  const table = current.table;
  box.hidden = !table;
  if (!table) return;
  const w = WORDS[lang] ?? WORDS.fr;
  // « Sud (Hatchepsout) »: the side, and the account that holds it when one does.
  const seatName = (seat) => (table.holders?.[seat] ? w.holder(sideName(seat), table.holders[seat]) : sideName(seat));
  const computer = table.on_timeout === "computer";
  const perMove = turnsAtOnce ? w.perTurn : w.perMove;
  const head = [table.days_per_move ? perMove(table.days_per_move) : null, computer ? w.computerRule : null,
    table.rated ? w.rated : w.casual].filter(Boolean);
  const lines = [el("p", { class: "clock-head" }, head.join(" · "))];
  if (!current.outcome && table.open?.length) {
    lines.push(el("p", { class: "clock-open" }, w.waitingFor(table.open.map((seat) => seatName(seat)).join(", "))));
    if (current.seat || current.role === "owner") {
      lines.push(el("button", { type: "button", id: "close-open", onclick: closeOpen }, w.closeOpen));
    }
  }
  if (!current.outcome) {
    for (const [seat, iso] of Object.entries(table.deadlines)) {
      const late = table.late.includes(seat);
      const mine = seat === current.seat;
      const claims = (table.claimable ?? []).includes(seat);
      const lateWords = computer ? w.standIn(seatName(seat))
        : mine ? w.myTimeOut : claims ? w.theirTimeOut(seatName(seat)) : w.lateSeen(seatName(seat));
      if (late) lines.push(el("p", { class: "clock-late", "data-seat": seat }, lateWords));
      else if (!turnsAtOnce) {
        const due = mine ? w.mine(moment(iso, lang), timeLeft(iso, lang)) : w.theirs(seatName(seat), moment(iso, lang), timeLeft(iso, lang));
        const away = (table.vacation ?? []).includes(seat) ? ` ${mine ? w.myVacation : w.theirVacation}` : "";
        lines.push(el("p", { class: "clock-due", "data-seat": seat }, due + away));
      }
    }
    if (!computer && current.seat && table.claimable?.length) {  // the server says whom this seat may claim against
      lines.push(el("button", { type: "button", id: "claim-timeout", class: "primary", onclick: claim }, w.claim));
    }
  } else if (table.rated) {
    lines.push(el("p", { class: "muted" }, table.counted === true ? w.counted : table.counted === false ? w.notCounted[table.uncounted] ?? w.notCounted.seats : w.pending));
  }
  box.replaceChildren(...lines);
}

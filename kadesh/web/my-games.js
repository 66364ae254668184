// « Mes parties »: every game this browser has joined (localStorage ``kadesh.games``, hot seat included),
// by its game's title, the seat (or "on this screen"), when it was last opened and whose turn it is; and, for a
// signed-in player, first the games kept in their account, from the server: the same list on every device.
// A link kept here (its seat's token) is forgotten LOCAL_DAYS after the game was last opened in this browser:
// a shared or lost computer does not keep a seat's key for ever (an account keeps the game without it).

import { el } from "./dom.js";
import { TEXT, opponentsWords, seatName } from "./lobby-words.js";

const STORE = "kadesh.games";
const LOCAL_DAYS = 30;
let drawing = 0;  // a newer drawing wins over one still waiting for the server

function stored() {
  try {
    const games = JSON.parse(localStorage.getItem(STORE) || "[]");
    if (!Array.isArray(games)) return [];
    // A link kept before links expired has no date: its 30 days begin now.
    const dated = games.filter((g) => g && g.id && g.token).map((g) => ({ ...g, opened: g.opened ?? Date.now() }));
    const fresh = dated.filter((g) => Date.now() - g.opened < LOCAL_DAYS * 86400000);
    if (JSON.stringify(fresh) !== JSON.stringify(games)) localStorage.setItem(STORE, JSON.stringify(fresh));
    return fresh;
  } catch {
    return [];
  }
}

function forget(game) {
  localStorage.setItem(STORE, JSON.stringify(stored().filter((g) => !(g.id === game.id && g.token === game.token))));
}

// "ouverte le 3 mars à 14:05" / "opened 3 Mar, 14:05", in the player's own format.
export function when(opened, lang) {
  const date = new Date(opened);
  if (!opened || Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(date);
}

// A map of one's own names its own kingdoms: the game's view says how, the lobby's words name the others.
function named(seat, lang, names, form = 0) {
  return names?.[seat]?.[lang] ?? seatName(seat, lang, form);
}

function list(seats, lang, known) {
  const names = seats.map((s) => named(s, lang, known));
  return names.length > 1 ? `${names.slice(0, -1).join(", ")}${TEXT[lang].and}${names.at(-1)}` : names[0] ?? "";
}

async function state(game, lang) {
  const t = TEXT[lang];
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(game.id)}`, { headers: { Authorization: `Bearer ${game.token}` } });
    if (!response.ok) return { text: t.lost, lost: true };
    const body = await response.json();
    const names = Object.fromEntries((body.view?.kingdoms ?? []).filter((k) => k.names).map((k) => [k.id, k.names]));
    // What tells two games of one ruleset apart: their map or battle, and who plays against the seat.
    const scenario = body.view?.scenario;
    const where = scenario ? (scenario.names ?? scenario)[lang] ?? null : null;
    const computers = Object.entries(body.bots ?? {}).filter(([seat]) => seat !== body.seat).map(([, level]) => level);
    Object.assign(game, { where, computers });
    if (body.outcome?.reason === "cancelled") return { text: t.cancelled, over: true, names };
    if (body.outcome) {
      const winner = typeof body.outcome.winner === "string" ? named(body.outcome.winner, lang, names, true) : null;
      return { text: winner ? `${t.over} · ${t.winner(winner)}` : t.over, over: true, names };
    }
    const waiting = body.to_act ?? [];
    if (game.hotseat) return { text: waiting.length ? t.seat_turn(list(waiting, lang, names)) : "", mine: waiting.length > 0, names };
    if (waiting.includes(body.seat)) return { text: t.your_turn, mine: true, names };
    return { text: (body.seats ?? []).length > 2 && waiting.length ? t.seat_turn(list(waiting, lang, names)) : t.their_turn, names };
  } catch {
    return { text: "" };
  }
}

// A game kept in the account, as the server lists it for the signed-in player's seat.
function accountItem(game, lang, title) {
  const t = TEXT[lang];
  const name = title(game);
  const seat = game.seat ? seatName(game.seat, lang) : t.owner_of;
  const names = opponentsWords(game.players.filter((p) => p.seat !== game.seat && p.seat !== "imhotep"), lang);
  let state = game.your_turn ? t.your_turn : t.their_turn;
  if (game.outcome) {
    const winner = game.outcome.winner;
    if (game.outcome.reason === "cancelled") state = t.cancelled;
    else if (typeof winner !== "string") state = t.over;
    else state = `${t.over} · ${winner === game.seat ? t.you_won : t.winner(seatName(winner, lang, true))}`;
  } else if (game.late?.length) {
    state = game.late.includes(game.seat) ? t.my_time_out : t.their_time_out;
  } else if (game.deadline) state += ` · ${t.deadline(when(game.deadline, lang))}`;
  const link = `/play/${encodeURIComponent(game.id)}`;
  return el("li", { class: `my-game card${game.your_turn && !game.outcome ? " mine" : ""}${game.outcome ? " done" : ""}`,
    "data-game": game.id, "data-ruleset": game.ruleset },
  el("div", { class: "my-game-what" },
    el("a", { href: link, class: "my-game-title" }, name),
    el("span", { class: "my-game-seat" }, ` · ${seat}`),
    names ? el("span", { class: "my-game-versus" }, ` · ${t.versus(names)}`) : null,
    el("span", { class: "muted my-game-when" },
      ` · ${(game.version ? t.last_move : t.opened_on)(when(game.last_activity, lang))}`)),  // no move yet: its start
  el("p", { class: "my-game-state" }, state),
  el("p", { class: "my-game-actions" }, game.outcome ? replayLink(game.id, `${name} (${seat})`, lang)
    : el("a", { href: link, class: "primary", "aria-label": `${t.resume} — ${name} (${seat})` }, t.resume)));
}

// A finished game is not resumed: it is replayed, from its public address (anyone's once it is over).
function replayLink(id, label, lang) {
  const t = TEXT[lang];
  return el("a", { href: `/play/${encodeURIComponent(id)}?replay`, class: "primary replay", "aria-label": `${t.replay} — ${label}` },
    t.replay);
}

// Draw the list into ``section`` (which holds an h2 and ``#my-games``); hidden while there is none.
// ``account``: the signed-in player (or null): their account's games come first, from the server.
export async function renderMyGames(section, { lang, rulesets, guides, account = null }) {
  const ticket = ++drawing;
  const t = TEXT[lang];
  const kept = account ? await fetch("/api/account/games").then((r) => r.json().then((body) => (r.ok ? body : []))).catch(() => []) : [];
  const keptIds = new Set(kept.map((g) => g.id));
  const games = stored().filter((g) => !keptIds.has(g.id));
  section.hidden = games.length === 0 && kept.length === 0;
  const title = (game) => guides[game.ruleset]?.[lang]?.title
    ?? rulesets.find((r) => r.name === game.ruleset)?.title?.[lang] ?? t.games;
  const levelTitle = (ruleset, level) => rulesets.find((r) => r.name === ruleset)?.bots?.find((b) => b.level === level)
    ?.title?.[lang] ?? t.computer;
  const states = await Promise.all(games.map((game) => state(game, lang)));
  if (ticket !== drawing) return;
  const items = games.map((game, index) => {
    const name = title(game);
    const status = states[index];
    const seat = game.hotseat ? t.this_screen : named(game.seat, lang, status.names);
    const opened = when(game.opened, lang);
    const opponents = [...new Set((game.computers ?? []).map((level) => levelTitle(game.ruleset, level)))];
    const label = `${name} (${seat})`;
    return el("li", { class: `my-game card${status.mine ? " mine" : ""}${status.over || status.lost ? " done" : ""}`,
      "data-game": game.id, "data-ruleset": game.ruleset },
    el("div", { class: "my-game-what" },
      el("a", { href: game.link, class: "my-game-title" }, name),
      el("span", { class: "my-game-seat" }, ` · ${seat}`),
      game.where ? el("span", { class: "my-game-where" }, ` · ${game.where}`) : null,
      opponents.length ? el("span", { class: "my-game-versus" }, ` · ${t.versus(opponents.join(t.and))}`) : null,
      opened ? el("span", { class: "muted my-game-when" }, ` · ${t.opened(opened)}`) : null),
    el("p", { class: "my-game-state" }, status.text),
    el("p", { class: "my-game-actions" },
      status.lost ? null : status.over ? replayLink(game.id, label, lang)
        : el("a", { href: game.link, class: "primary", "aria-label": `${t.resume} — ${label}` }, t.resume),
      " ",
      el("button", { type: "button", class: "forget", "aria-label": t.forget_label(label), onclick: () => {
        forget(game);
        renderMyGames(section, { lang, rulesets, guides });
        document.getElementById("my-games-status").textContent = t.forgotten(name);
      } }, t.forget)));
  });
  // Your turn first, then the games going on, then the finished ones (each by its last activity, as listed).
  const rank = (game) => (game.outcome ? 2 : game.your_turn || game.late?.length ? 0 : 1);  // a claim to make is a move to play
  const accountItems = [...kept].sort((a, b) => rank(a) - rank(b)).map((game) => accountItem(game, lang, title));
  const heading = (text) => el("li", { class: "my-games-heading" }, el("h3", {}, text));
  section.querySelector("#my-games").replaceChildren(
    ...(account && accountItems.length && items.length ? [heading(t.account_games)] : []), ...accountItems,
    ...(account && accountItems.length && items.length ? [heading(t.this_browser)] : []), ...items);
}

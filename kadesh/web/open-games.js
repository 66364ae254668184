// « Parties ouvertes »: games waiting for players (GET /api/open-games), each with its free seats and who
// waits; one button takes a seat and opens it. The server says who may take what, and gives each seat once.

import { el } from "./dom.js";
import { TEXT, seatName } from "./lobby-words.js";
import { when } from "./my-games.js";

let drawing = 0;
let shown = "";  // the list as last drawn (the server's answer and the language): redrawn only when it changes
let context = null;  // the last drawing's context, for the looks again
const LOOK_AGAIN = 15000;  // milliseconds between two looks at the list while the page is in view

// Who is seated already: the players' names, the computer, and how many players by link.
function waiting(game, lang) {
  const t = TEXT[lang];
  const open = new Set(game.open.map((s) => s.seat));
  const seated = game.players.filter((p) => !open.has(p.seat) && p.seat !== "imhotep");
  const named = [...seated.filter((p) => p.name).map((p) => p.name), ...(seated.some((p) => p.bot) ? [t.computer] : [])];
  const byLink = seated.filter((p) => !p.name && !p.bot).length;
  if (byLink) named.push(byLink === 1 ? t.by_link : t.by_links(byLink));
  return named.length ? t.waits(named.join(", ")) : null;
}

// The game's options that have names of their own (a map, a scenario, a field), in words.
function optionWords(game, rulesets, lang) {
  const schema = rulesets.find((r) => r.name === game.ruleset)?.options_schema ?? {};
  if (game.map) return [TEXT[lang].shelf_map(game.map.name)];  // a map of the shelf (/maps)
  if (game.own_scenario) return [TEXT[lang].own_scenario];  // its named map is not the one played
  return Object.entries(game.options ?? {}).map(([key, value]) => schema[key]?.labels?.[value]?.[lang]).filter(Boolean);
}

async function take(game, seat, lang, error, section) {
  const response = await fetch(`/api/games/${encodeURIComponent(game.id)}/seats/${encodeURIComponent(seat)}/take`, { method: "POST" });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = body[lang] ?? response.statusText;
    if (body.code === "seat_not_open") {  // taken or withdrawn meanwhile: the list as it is now, and why
      await renderOpenGames(section, context);
      section.querySelector(".open-games-note").textContent = message;
      section.hidden = false;  // the note stays in sight, even when no game is left
    } else {
      error.textContent = message;
    }
    return;
  }
  const games = JSON.parse(localStorage.getItem("kadesh.games") || "[]");
  games.unshift({ id: game.id, token: body.token, seat, ruleset: game.ruleset, link: body.link, opened: Date.now() });
  localStorage.setItem("kadesh.games", JSON.stringify(games.slice(0, 50)));
  window.location.href = body.link;
}

function item(game, { lang, rulesets, guides, account }, section) {
  const t = TEXT[lang];
  const title = guides[game.ruleset]?.[lang]?.title ?? rulesets.find((r) => r.name === game.ruleset)?.title?.[lang] ?? t.games;
  const error = el("p", { class: "card-error", role: "alert" });
  const clocks = rulesets.find((r) => r.name === game.ruleset)?.clocks;  // Royaumes keeps its own deadlines
  const time = game.days_per_move ? t.days_per_move(game.days_per_move) : clocks ? t.no_time_limit : null;
  const details = [...optionWords(game, rulesets, lang), time, game.rated ? t.rated : t.friendly, waiting(game, lang),
    t.waiting_since(when(game.opened_at, lang))].filter(Boolean);
  return el("li", { class: "my-game card open-game", "data-game": game.id, "data-ruleset": game.ruleset },
    el("div", { class: "my-game-what" }, el("strong", { class: "my-game-title" }, title),
      el("span", { class: "muted" }, ` · ${details.join(" · ")}`)),
    ...game.open.map((seat) => {
      const name = seatName(seat.seat, lang);
      const closed = seat.open_to === "accounts" && !account;
      return el("p", { class: "my-game-actions" },
        el("span", { class: "my-game-state" }, t.free_seat(name), closed ? ` (${t.accounts_only})` : ""), " ",
        el("button", { type: "button", class: "primary take", disabled: closed, "aria-label": t.take_label(title, name),
          onclick: () => take(game, seat.seat, lang, error, section) }, t.take));
    }),
    error);
}

// Draw the open games into ``section`` (an h2, a line, ``#open-games``); hidden while there is none. The list is
// looked at again every ``LOOK_AGAIN`` while the page is in view, and at once when it comes back into view: a game
// opened or withdrawn, a seat taken, shows without a reload (a list that did not change is left as it is).
export async function renderOpenGames(section, drawnWith) {
  const ticket = ++drawing;
  context = drawnWith;
  const games = await fetch("/api/open-games").then((r) => (r.ok ? r.json() : null)).catch(() => null);
  if (ticket !== drawing || games === null) return;
  const now = JSON.stringify([drawnWith.lang, Boolean(drawnWith.account), games]);
  if (now !== shown) {
    shown = now;
    section.hidden = !games.length;
    section.querySelector(".open-games-note")?.replaceChildren();
    section.querySelector("#open-games").replaceChildren(...games.map((game) => item(game, drawnWith, section)));
  }
  section.dataset.loaded = "true";  // drawn from the server's answer (the tests wait for it)
  section.dataset.lang = drawnWith.lang;  // and in which language (a switch redraws it a moment later)
}

export function followOpenGames(section) {
  const look = () => { if (!document.hidden && context) renderOpenGames(section, context); };
  setInterval(look, LOOK_AGAIN);
  document.addEventListener("visibilitychange", look);
}

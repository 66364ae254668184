// The leaderboards (issue 42): the best ratings of each game, highest first; a provisional rating is marked.
// One game at a time, chosen by its button (and kept in the address: /leaderboards?ruleset=…).

import { el } from "./dom.js";
import { drawHeader, inPlayOrder, onLanguageSwitch, startingLang } from "./page.js";

const TEXT = {
  fr: {
    home: "Accueil", account: "Mon compte", toggle: "English", title: "Classements",
    intro: "Les parties classées entre joueurs ayant un compte font bouger ces classements : on gagne des points "
      + "contre plus fort que soi, on en perd moins contre plus fort. Un classement suivi de « ? » est provisoire : "
      + "encore peu de parties.",
    rank: "Rang", player: "Joueur", rating: "Classement", games: "Parties",
    empty: (game) => `Personne n'est encore classé en ${game} : ouvre une partie classée depuis l'accueil.`,
    caption: (game) => `Classement de ${game}`,
  },
  en: {
    home: "Home", account: "My account", toggle: "Français", title: "Leaderboards",
    intro: "Rated games between players with an account move these ratings: a win against a stronger player "
      + "earns more, a loss against one costs less. A rating followed by “?” is provisional: few games yet.",
    rank: "Rank", player: "Player", rating: "Rating", games: "Games",
    empty: (game) => `Nobody is rated in ${game} yet: open a rated game from the home page.`,
    caption: (game) => `Leaderboard of ${game}`,
  },
};

let lang = startingLang(TEXT);
const $ = (id) => document.getElementById(id);
const t = (key, ...args) => (typeof TEXT[lang][key] === "function" ? TEXT[lang][key](...args) : TEXT[lang][key]);
let rulesets = [];
let chosen = new URLSearchParams(location.search).get("ruleset");
let rows = [];

const titleOf = (name) => rulesets.find((r) => r.name === name)?.title?.[lang] ?? name;

function table() {
  if (!rows.length) return el("p", { class: "muted", id: "leaderboard-empty" }, t("empty", titleOf(chosen)));
  return el("table", { class: "leaderboard", id: "leaderboard" },
    el("caption", { class: "visually-hidden" }, t("caption", titleOf(chosen))),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "number" }, t("rank")), el("th", { scope: "col" }, t("player")),
      el("th", { scope: "col", class: "number" }, t("rating")), el("th", { scope: "col", class: "number" }, t("games")))),
    el("tbody", {}, ...rows.map((row) => el("tr", {},
      el("td", { class: "number" }, String(row.rank)),
      el("td", {}, el("a", { href: `/players/${encodeURIComponent(row.name)}` }, row.name)),
      el("td", { class: "number rating-value" }, `${row.rating}${row.provisional ? " ?" : ""}`),
      el("td", { class: "number" }, String(row.games))))));
}

function render() {
  drawHeader(lang, TEXT[lang]);
  $("leaderboards").replaceChildren(
    el("h2", {}, t("title")),
    el("p", { class: "intro" }, t("intro")),
    el("div", { class: "leaderboard-tabs", role: "group", "aria-label": t("title") },
      ...rulesets.map((r) => el("button", { type: "button", "data-ruleset": r.name, "aria-pressed": String(r.name === chosen),
        onclick: () => choose(r.name) }, r.title?.[lang] ?? r.name))),
    table());
}

async function choose(name) {
  chosen = name;
  history.replaceState(null, "", `/leaderboards?ruleset=${encodeURIComponent(name)}`);
  rows = await fetch(`/api/leaderboards/${encodeURIComponent(name)}`).then((r) => (r.ok ? r.json() : [])).catch(() => []);
  render();
  document.body.dataset.ready = "true";
}

onLanguageSwitch(() => lang, (chosen) => {
  lang = chosen;
  render();
});

// Without a game in the address: the first, in the lobby's order, where someone is rated.
async function firstRated() {
  for (const { name } of rulesets) {
    const board = await fetch(`/api/leaderboards/${encodeURIComponent(name)}`).then((r) => (r.ok ? r.json() : [])).catch(() => []);
    if (board.length) return name;
  }
  return rulesets[0]?.name;
}

rulesets = inPlayOrder(await fetch("/api/rulesets").then((r) => r.json()).catch(() => []));
if (!rulesets.some((r) => r.name === chosen)) chosen = await firstRated();
await choose(chosen);

// « Parties en cours » (issue 42): the public games in progress, the latest first, each as a spectator sees it.
// A card tells the game, its players, whose turn it is; « Regarder » opens its board, live, without any link.
// The list itself is asked for again every few seconds while the page is shown.

import { el } from "./dom.js";
import { drawHeader, onLanguageSwitch, startingLang } from "./page.js";
import { seatName } from "./lobby-words.js";
import { when } from "./my-games.js";

const TEXT = {
  fr: {
    home: "Accueil", account: "Mon compte", toggle: "English", title: "Parties en cours",
    intro: "Les parties ouvertes aux autres joueurs et les parties classées se regardent librement : le plateau "
      + "tel qu'un spectateur le voit, rien de ce qu'un camp cache.",
    empty: "Aucune partie publique en cours pour l'instant. Ouvre-en une depuis l'accueil !",
    watch: "Regarder", watchLabel: (game) => `Regarder la partie de ${game}`,
    turn: (seats) => `à ${seats} de jouer`, started: (d) => `commencée le ${d}`, byLink: "un joueur par lien",
    computer: "l'ordinateur", free: "place libre", perMove: (n) => (n === 1 ? "1 jour par coup" : `${n} jours par coup`),
    rated: "classée", and: " et ", map: (name) => `carte « ${name} »`,
  },
  en: {
    home: "Home", account: "My account", toggle: "Français", title: "Games in progress",
    intro: "Games opened to other players and rated games may be watched freely: the board as a spectator sees "
      + "it, nothing a side hides.",
    empty: "No public game in progress for now. Open one from the home page!",
    watch: "Watch", watchLabel: (game) => `Watch the game of ${game}`,
    turn: (seats) => `${seats} to play`, started: (d) => `begun on ${d}`, byLink: "a player by link",
    computer: "the computer", free: "free seat", perMove: (n) => (n === 1 ? "1 day per move" : `${n} days per move`),
    rated: "rated", and: " and ", map: (name) => `map “${name}”`,
  },
};
const REFRESH = 15_000;  // milliseconds between two looks at the list

let lang = startingLang(TEXT);
const $ = (id) => document.getElementById(id);
const t = (key, ...args) => (typeof TEXT[lang][key] === "function" ? TEXT[lang][key](...args) : TEXT[lang][key]);
let rulesets = [];
let games = [];

const titleOf = (name) => rulesets.find((r) => r.name === name)?.title?.[lang] ?? name;

function who(player) {
  const holder = player.name ?? (player.bot ? t("computer") : t("byLink"));
  return `${seatName(player.seat, lang)} : ${holder}`;
}

function card(game) {
  const title = titleOf(game.ruleset);
  const schema = rulesets.find((r) => r.name === game.ruleset)?.options_schema ?? {};
  const named = game.map ? [t("map", game.map.name)]  // a map of the shelf (/maps)
    : game.own_scenario ? [] : Object.entries(game.options).map(([k, v]) => schema[k]?.labels?.[v]?.[lang]);
  const table = [game.days_per_move ? t("perMove", game.days_per_move) : null, game.rated ? t("rated") : null];
  const turn = game.to_act.length ? t("turn", game.to_act.map((s) => seatName(s, lang)).join(t("and"))) : null;
  return el("li", { class: "card player-game watched-game", "data-game": game.id },
    el("p", { class: "player-game-what" }, el("strong", {}, title),
      ...[...named, ...table].filter(Boolean).map((word) => ` · ${word}`)),
    el("p", {}, game.players.filter((p) => p.seat !== "imhotep").map(who).join(" · ")),
    el("p", { class: "muted" }, [turn, t("started", when(game.started, lang))].filter(Boolean).join(" · ")),
    el("p", {}, el("a", { class: "button", href: `/play/${encodeURIComponent(game.id)}`, "aria-label": t("watchLabel", title) },
      t("watch"))));
}

function render() {
  drawHeader(lang, TEXT[lang]);
  $("watch").replaceChildren(el("h2", {}, t("title")), el("p", { class: "intro" }, t("intro")),
    games.length ? el("ul", { class: "player-games", id: "watched" }, ...games.map(card))
      : el("p", { class: "muted", id: "watch-empty" }, t("empty")));
}

async function load() {
  games = await fetch("/api/watch").then((r) => (r.ok ? r.json() : games)).catch(() => games);
  render();
  document.body.dataset.ready = "true";
}

onLanguageSwitch(() => lang, (chosen) => {
  lang = chosen;
  render();
});

rulesets = await fetch("/api/rulesets").then((r) => r.json()).catch(() => []);
await load();
setInterval(() => { if (!document.hidden) load(); }, REFRESH);

// A player's public page: who they are, the games they play and have played, against whom, and how it ended.
// Only what the public may see: no game's board, no link.

import { el } from "./dom.js";
import { opponentsWords, seatName } from "./lobby-words.js";
import { ratingChart } from "./rating-chart.js";

const TEXT = {
  fr: {
    home: "Accueil", account: "Mon compte", toggle: "English", since: (d) => `Joue sur Kadesh depuis le ${d}.`,
    playing: "Parties en cours", finished: "Parties terminées", none: "Aucune pour l'instant.",
    against: (o) => `contre ${o}`, alone: "sans adversaire nommé", started: (d) => `commencée le ${d}`,
    won: "victoire", lost: "défaite", over: "terminée", cancelled: "annulée", unknown: "Ce joueur n'existe pas (ou plus).",
    computer: (l) => `l'ordinateur (${l})`, replay: "Revoir la partie",
    ratings: "Classements", rating: (r, p) => `${r}${p ? " ?" : ""}`, provisional: "provisoire : encore peu de parties",
    games: (n) => (n === 1 ? "1 partie classée" : `${n} parties classées`), leaderboard: "Voir le classement",
    chart: (game, r) => `Évolution du classement en ${game}, aujourd'hui ${r}`,
  },
  en: {
    home: "Home", account: "My account", toggle: "Français", since: (d) => `Plays on Kadesh since ${d}.`,
    playing: "Games in progress", finished: "Finished games", none: "None yet.",
    against: (o) => `against ${o}`, alone: "with no named opponent", started: (d) => `begun on ${d}`,
    won: "won", lost: "lost", over: "over", cancelled: "cancelled", unknown: "This player does not exist (or no longer).",
    computer: (l) => `the computer (${l})`, replay: "Replay the game",
    ratings: "Ratings", rating: (r, p) => `${r}${p ? "?" : ""}`, provisional: "provisional: few games yet",
    games: (n) => (n === 1 ? "1 rated game" : `${n} rated games`), leaderboard: "See the leaderboard",
    chart: (game, r) => `Rating in ${game} over time, now ${r}`,
  },
};

let lang = new URLSearchParams(location.search).get("lang") || localStorage.getItem("kadesh.lang") || "fr";
if (!TEXT[lang]) lang = "fr";
const name = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const $ = (id) => document.getElementById(id);
const t = (key, ...args) => (typeof TEXT[lang][key] === "function" ? TEXT[lang][key](...args) : TEXT[lang][key]);
const when = (utc) => new Intl.DateTimeFormat(lang, { dateStyle: "long" }).format(new Date(utc));
let player = null;
let rulesets = [];
let ratings = [];

function opponents(game) {
  const others = game.players.filter((p) => p.seat !== game.seat && p.seat !== "imhotep");
  if (!others.length) return t("alone");
  return t("against", opponentsWords(others, lang, (p) => t("computer", botTitle(game.ruleset, p.bot))));
}

function botTitle(ruleset, level) {
  return rulesets.find((r) => r.name === ruleset)?.bots?.find((b) => b.level === level)?.title?.[lang] ?? level;
}

function result(game) {
  if (!game.outcome) return null;
  const winner = game.outcome.winner;
  if (game.outcome.reason === "cancelled") return t("cancelled");
  if (typeof winner !== "string") return t("over");
  return winner === game.seat ? t("won") : t("lost");
}

function item(game) {
  const title = rulesets.find((r) => r.name === game.ruleset)?.title?.[lang] ?? game.ruleset;
  const outcome = result(game);
  return el("li", { class: `card player-game${outcome === t("won") ? " won" : ""}` },
    el("p", { class: "player-game-what" }, el("strong", {}, title), ` · ${seatName(game.seat, lang)} · ${opponents(game)}`),
    el("p", { class: "muted" }, t("started", when(game.started)), outcome ? ` · ${outcome}` : ""),
    game.replay ? el("p", {}, el("a", { href: game.replay, class: "replay", "aria-label": `${t("replay")} — ${title}` },
      t("replay"))) : null);
}

function list(id, title, games) {
  return el("section", { "aria-labelledby": id },
    el("h3", { id }, title),
    games.length ? el("ul", { class: "player-games" }, ...games.map(item)) : el("p", { class: "muted" }, t("none")));
}

function ratingsSection() {
  if (!ratings.length) return null;
  return el("section", { "aria-labelledby": "ratings-title", class: "player-ratings" },
    el("h3", { id: "ratings-title" }, t("ratings")),
    el("ul", { class: "player-games" }, ...ratings.map((r) => {
      const title = rulesets.find((x) => x.name === r.ruleset)?.title?.[lang] ?? r.ruleset;
      const shown = t("rating", r.rating, r.provisional);
      return el("li", { class: "card rating-card", "data-ruleset": r.ruleset },
        el("p", {}, el("strong", {}, title), " · ", el("span", { class: "rating-value" }, shown),
          ` · ${t("games", r.games)}`, r.provisional ? el("span", { class: "muted" }, ` (${t("provisional")})`) : null),
        r.history.length > 1 ? ratingChart(r.history, { label: t("chart", title, shown), gamesWord: (n) => t("games", n) }) : null,
        el("p", {}, el("a", { href: `/leaderboards?ruleset=${encodeURIComponent(r.ruleset)}` }, t("leaderboard"))));
    })));
}

function render() {
  document.documentElement.lang = lang;
  $("home").textContent = t("home");
  $("account-link").textContent = t("account");
  $("lang").textContent = t("toggle");
  $("lang").lang = lang === "fr" ? "en" : "fr";
  if (!player) {
    $("player").replaceChildren(el("h2", {}, name), el("p", { role: "alert" }, t("unknown")));
    return;
  }
  document.title = `${player.name} · Kadesh`;
  $("player").replaceChildren(...[
    el("h2", {}, player.name),
    el("p", { class: "intro" }, t("since", when(player.since))),
    ratingsSection(),
    list("playing-title", t("playing"), player.playing),
    list("finished-title", t("finished"), player.finished)].filter(Boolean));
}

$("lang").addEventListener("click", () => {
  lang = lang === "fr" ? "en" : "fr";
  localStorage.setItem("kadesh.lang", lang);
  render();
});

[player, rulesets, ratings] = await Promise.all([
  fetch(`/api/players/${encodeURIComponent(name)}`).then((r) => r.json().then((body) => (r.ok ? body : null))).catch(() => null),
  fetch("/api/rulesets").then((r) => r.json()).catch(() => []),
  fetch(`/api/players/${encodeURIComponent(name)}/ratings`).then((r) => (r.ok ? r.json() : [])).catch(() => []),
]);
render();
document.body.dataset.ready = "true";

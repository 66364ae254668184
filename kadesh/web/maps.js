// The shelf of maps (issue 61): the players' published battles and kingdom maps, the last published first, a page
// at a time, one game or all (kept in the address: /maps?ruleset=…&page=…). Each map's picture is drawn by its game's
// own map code from what a game on it shows at its start (POST /api/maps/preview), never by a renderer of its own;
// « Jouer sur cette carte » opens the lobby's card with the map chosen (/?map=<id>), « Repartir de cette carte » the
// designer with a copy of it (/design?from=<id>).

import { el, parseMapCell } from "./dom.js";
import { drawHeader, inPlayOrder, onLanguageSwitch, startingLang } from "./page.js";

const TEXT = {
  fr: {
    home: "Accueil", account: "Mon compte", toggle: "English", title: "Cartes des joueurs",
    intro: "Des batailles et des cartes de royaumes dessinées par les joueurs. Chacune a été vérifiée par le jeu "
      + "lui-même à sa publication : choisis-en une, et la partie se joue sur elle.",
    all: "Toutes", filter: "Jeu", author: "Auteur", deleted: "auteur supprimé", size: "Taille", players: "Joueurs",
    played: "Jouée", sides: (n) => `${n} camps`, kingdoms: (n) => `${n} royaumes`,
    times: (n) => (n === 0 ? "jamais encore" : n === 1 ? "une fois" : `${n} fois`),
    play: "Jouer sur cette carte", playOn: (name) => `Jouer sur la carte « ${name} »`,
    picture: (name) => `La carte « ${name} » au début de la partie`, pictureFailed: "Aperçu indisponible.",
    empty: "Aucune carte publiée ici pour l'instant.", previous: "Page précédente", next: "Page suivante",
    page: (n, of) => `Page ${n} sur ${of}`, report: "Signaler", reason: "Ce qui ne va pas", send: "Envoyer",
    reported: "Merci : la carte est signalée aux modérateurs.", failed: "Échec : ", list: "Cartes publiées",
    design: "Dessiner une carte", copy: "Repartir de cette carte", copyOf: (name) => `Dessiner une carte à partir de « ${name} »`,
  },
  en: {
    home: "Home", account: "My account", toggle: "Français", title: "Players' maps",
    intro: "Battles and kingdom maps drawn by players. Each was checked by the game itself when it was published: "
      + "choose one, and the game is played on it.",
    all: "All", filter: "Game", author: "Author", deleted: "deleted author", size: "Size", players: "Players",
    played: "Played", sides: (n) => `${n} sides`, kingdoms: (n) => `${n} kingdoms`,
    times: (n) => (n === 0 ? "not yet" : n === 1 ? "once" : `${n} times`),
    play: "Play on this map", playOn: (name) => `Play on the map “${name}”`,
    picture: (name) => `The map “${name}” as a game on it starts`, pictureFailed: "No preview.",
    empty: "No map published here yet.", previous: "Previous page", next: "Next page",
    page: (n, of) => `Page ${n} of ${of}`, report: "Report", reason: "What is wrong", send: "Send",
    reported: "Thank you: the map is reported to the moderators.", failed: "Failed: ", list: "Published maps",
    design: "Draw a map", copy: "Start from this map", copyOf: (name) => `Design a map from “${name}”`,
  },
};

// What the picture shows of each game's map: the seats whose start it gathers, and the game's drawing code.
const PICTURED = {
  front: { seats: ["blue", "red"], draw: frontPicture },
  royaumes: { seats: ["imhotep"], draw: royaumesPicture },
};

let lang = startingLang(TEXT);
const $ = (id) => document.getElementById(id);
const t = (key, ...args) => (typeof TEXT[lang][key] === "function" ? TEXT[lang][key](...args) : TEXT[lang][key]);
const query = new URLSearchParams(location.search);
let chosen = query.get("ruleset") || null;  // null: every game
let page = Math.max(1, Number(query.get("page")) || 1);
let rulesets = [];
let shelf = { maps: [], page: 1, pages: 1 };
let account = null;
const pictures = new Map();  // map id → the SVG drawn once (kept across a language switch)

const titleOf = (name) => rulesets.find((r) => r.name === name)?.title?.[lang] ?? name;

// -- pictures, drawn by the games' own map code -------------------------------------------------------------
const modules = {};
async function drawing(ruleset) {
  if (ruleset === "front") modules.front ??= await import("/static/rules/front-map-art.js");
  if (ruleset === "royaumes") modules.royaumes ??= await import("/static/rules/royaumes-map.js");
  return modules[ruleset];
}

// Front: the ground, works, points and both sides' units as each side sees them at the start (its own units).
function frontPicture(art, views) {
  const [blue, red] = views;
  const rows = blue.map.length, cols = blue.map[0].length;
  const at = (name, inner) => { const [x, y] = parseMapCell(name); return `<g transform="translate(${x * art.CELL} ${y * art.CELL})">${inner}</g>`; };
  const built = new Set((blue.structures ?? []).filter((w) => w.kind === "bridge" && w.complete)
    .map((w) => parseMapCell(w.cell).join(",")));
  const structures = new Map([...(blue.structures ?? []), ...(red.structures ?? [])].map((w) => [w.cell, w]));
  let markup = art.terrainMarkup(blue.map, built);
  for (const w of structures.values()) markup += at(w.cell, art.structureArt(w));
  for (const [name, holder] of Object.entries(blue.points ?? {})) markup += at(name, art.pointArt(holder));
  const units = [...(blue.units ?? []).filter((u) => u.side === "blue"), ...(red.units ?? []).filter((u) => u.side === "red")];
  for (const u of units) {
    if (!u.cell || u.aboard) continue;
    markup += at(u.cell, `<g class="unit side-${u.side}">${art.unitSymbol(u.type, {})}</g>`);
  }
  const svg = el("svg:svg", { class: "front-map", viewBox: `0 0 ${cols * art.CELL} ${rows * art.CELL}`, "aria-hidden": "true",
    focusable: "false", preserveAspectRatio: "xMidYMid meet" });
  svg.innerHTML = markup;
  return svg;
}

// Royaumes: the campaign map as the game master sees it at the start (every city and army).
function royaumesPicture(map, views) {
  const [view] = views;
  const svg = map.drawMap(view, { cities: view.cities, armies: view.armies }, { lang, seat: null, label: "" });
  svg.setAttribute("aria-hidden", "true");
  svg.removeAttribute("role");
  svg.removeAttribute("aria-label");
  return svg;
}

async function previewOf(entry) {
  const { toml } = await fetch(`/api/maps/${encodeURIComponent(entry.id)}`).then((r) => r.json());
  return Promise.all(PICTURED[entry.ruleset].seats.map((seat) => fetch("/api/maps/preview", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ruleset: entry.ruleset, toml, seat }) }).then((r) => (r.ok ? r.json() : Promise.reject()))
    .then((answer) => answer.view)));
}

async function drawPicture(entry, frame) {
  if (!pictures.has(entry.id)) {
    const pictured = PICTURED[entry.ruleset];
    const made = pictured ? Promise.all([drawing(entry.ruleset), previewOf(entry)])
      .then(([code, views]) => pictured.draw(code, views)) : Promise.reject();
    pictures.set(entry.id, made.catch(() => null));
  }
  const svg = await pictures.get(entry.id);
  frame.replaceChildren(svg ?? el("p", { class: "muted" }, t("pictureFailed")));
  frame.dataset.drawn = svg ? "true" : "failed";
}

// A picture is drawn when its card comes near the screen: a page of maps does not ask for twenty previews at once.
const nearby = new IntersectionObserver((seen) => {
  for (const { isIntersecting, target } of seen) {
    if (!isIntersecting) continue;
    nearby.unobserve(target);
    drawPicture(target.entry, target);
  }
}, { rootMargin: "200px" });

// -- the list ---------------------------------------------------------------------------------------------------
function players(entry) {
  if (entry.players == null) return "";
  return entry.ruleset === "royaumes" ? t("kingdoms", entry.players) : t("sides", entry.players);
}

function fact(term, value) {
  return el("div", {}, el("dt", {}, term), el("dd", {}, value));
}

function reportBox(entry) {
  if (!account) return null;
  const status = el("p", { class: "muted", role: "status" });
  const reason = el("textarea", { id: `reason-${entry.id}`, rows: "2", maxlength: "1000", required: true });
  const form = el("form", { class: "map-report", onsubmit: async (event) => {
    event.preventDefault();
    const response = await fetch(`/api/maps/${encodeURIComponent(entry.id)}/report`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ reason: reason.value }) });
    const body = response.ok ? {} : await response.json().catch(() => ({}));
    status.textContent = response.ok ? t("reported") : t("failed") + (body[lang] ?? response.statusText);
  } }, el("label", { for: reason.id }, t("reason")), reason, el("button", { type: "submit" }, t("send")), status);
  return el("details", { class: "map-report" }, el("summary", {}, t("report")), form);
}

function card(entry) {
  const frame = el("div", { class: "map-picture", role: "img", "aria-label": t("picture", entry.name), "data-map": entry.id });
  const shown = pictures.get(entry.id);
  frame.entry = entry;
  if (shown) shown.then((svg) => { if (svg) frame.replaceChildren(svg); frame.dataset.drawn = svg ? "true" : "failed"; });
  else queueMicrotask(() => nearby.observe(frame));
  const author = entry.author.deleted ? el("em", {}, t("deleted")) : entry.author.name;
  const size = entry.size ? `${entry.size.columns} × ${entry.size.rows}` : "";
  const titleId = `map-title-${entry.id}`;
  return el("li", { class: "card map-card", "data-map": entry.id },
    frame,
    el("h3", { id: titleId }, entry.name),
    el("dl", { class: "map-facts" }, fact(t("filter"), titleOf(entry.ruleset)), fact(t("author"), author),
      fact(t("size"), size), fact(t("players"), players(entry)), fact(t("played"), t("times", entry.played))),
    entry.description ? el("p", { class: "map-description" }, entry.description) : null,
    el("p", { class: "map-actions" },
      el("a", { class: "primary play", href: `/?map=${encodeURIComponent(entry.id)}`, "aria-label": t("playOn", entry.name) },
        t("play")), " ",
      el("a", { class: "copy", href: `/design?from=${encodeURIComponent(entry.id)}`, "aria-label": t("copyOf", entry.name) },
        t("copy"))),
    reportBox(entry));
}

function pager() {
  if (shelf.pages <= 1) return null;
  const go = (to) => () => { page = to; load(); };
  return el("nav", { class: "shelf-pages", "aria-label": t("page", shelf.page, shelf.pages) },
    el("button", { type: "button", disabled: shelf.page <= 1, onclick: go(shelf.page - 1) }, t("previous")),
    el("span", {}, t("page", shelf.page, shelf.pages)),
    el("button", { type: "button", disabled: shelf.page >= shelf.pages, onclick: go(shelf.page + 1) }, t("next")));
}

function render() {
  drawHeader(lang, TEXT[lang]);
  const designable = rulesets.filter((r) => "scenario_toml" in (r.options_schema ?? {}));
  const tab = (name, label) => el("button", { type: "button", "data-ruleset": name ?? "", "aria-pressed": String(chosen === name),
    onclick: () => { chosen = name; page = 1; load(); } }, label);
  $("shelf").replaceChildren(
    el("h2", {}, t("title")),
    el("p", { class: "intro" }, t("intro"), " ", el("a", { href: "/design" }, t("design"))),
    el("div", { class: "leaderboard-tabs", role: "group", "aria-label": t("filter") },
      tab(null, t("all")), ...designable.map((r) => tab(r.name, r.title?.[lang] ?? r.name))),
    shelf.maps.length
      ? el("ul", { class: "shelf-list", id: "shelf-list", "aria-label": t("list") }, ...shelf.maps.map(card))
      : el("p", { class: "muted", id: "shelf-empty" }, t("empty")),
    pager() ?? "");
}

async function load() {
  const asked = new URLSearchParams({ page: String(page), ...(chosen ? { ruleset: chosen } : {}) });
  history.replaceState(null, "", `/maps?${asked}`);
  document.body.dataset.ready = "false";
  shelf = await fetch(`/api/maps?${asked}`).then((r) => (r.ok ? r.json() : { maps: [], page, pages: 1 }))
    .catch(() => ({ maps: [], page, pages: 1 }));
  render();
  document.body.dataset.ready = "true";
}

onLanguageSwitch(() => lang, (next) => {
  lang = next;
  pictures.clear();  // a Royaumes map names its seas and cities in the page's language
  render();
});

[rulesets, account] = await Promise.all([
  fetch("/api/rulesets").then((r) => r.json()).then(inPlayOrder).catch(() => []),
  fetch("/api/session").then((r) => r.json()).then((body) => body.account ?? null).catch(() => null),
]);
await load();

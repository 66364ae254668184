// The game page shell, the same for every ruleset: it fetches what the seat may see and its
// legal actions from the server, keeps them live over the WebSocket, shows the journal, and
// hands drawing and input to the ruleset's own view module (rules/<ruleset>.js).
// The browser never re-implements a rule: legal moves, targets and odds all come from the server.

import { el } from "/static/dom.js";
import { renderNotices, signalTurn } from "/static/notices.js";
import { offerToKeep } from "/static/keep.js";
import { renderClock } from "/static/clock.js";
import { createTalk } from "/static/talk.js";
import { createReplay } from "/static/replay.js";

const STRINGS = {
  fr: {
    loading: "Chargement…", journal: "Journal", download: "Télécharger le journal", lang: "English",
    seed: "Graine des dés révélée", verify: "Vérification", verified: "conforme : chaque jet est re-dérivé de la graine",
    notVerified: "non conforme", stale: "La partie a changé : vue mise à jour.", offline: "Connexion perdue, reconnexion…",
    seat: { north: "Nord", south: "Sud" }, spectator: "Spectateur", home: "Accueil", lord: "Seigneur du Royaume",
    against: (names) => `contre l'ordinateur : ${names}`, board: "Plateau", gameNav: "Partie",
    pass: (s) => `Passe la main au ${s}.`, passHelp: "L'autre commandant détourne les yeux.", take: (s) => `Je commande le ${s}`,
    rules: "Règles", rulesTitle: (game) => `Règles de ${game}`, close: "Fermer", now: "maintenant",
    choices: "Là où les règles se taisent, Kadesh a choisi", thinking: (name) => `${name} réfléchit…`,
    onTime: (s) => `${s} n'a pas joué à temps.`,
    cancelled: "Partie annulée : elle a été retirée des parties ouvertes avant l'arrivée de tous ses joueurs. Personne ne l'emporte, elle ne compte pas.",
    over: "Partie terminée", won: "Victoire !", wins: (s) => `${s} l'emporte.`, drawn: "Personne ne l'emporte.", rematch: "Revanche", rematchHelp: "Mêmes règles, mêmes options, nouveaux dés.",
    rematchLinks: "Nouvelle partie : envoie son lien à ton adversaire.", open: "Jouer", copy: "Copier", copied: "Copié",
    link: (s) => `Lien du ${s}`, computer: "l'ordinateur",
    lost: "Vérifie le lien reçu (il doit être copié en entier), ou retrouve tes parties depuis l'accueil.",
    emptyJournal: "Rien ne s'est encore passé.", showJournal: "Afficher le journal complet", hideJournal: "Replier le journal",
    owner: "Propriétaire de la partie", ownerHelp: "Tu regardes la partie sans y jouer. Si un lien a été perdu ou divulgué, remplace-le : l'ancien ne marchera plus.",
    replace: (who) => `Remplacer le lien : ${who}`, spectators: "spectateurs", newLink: (who) => `Nouveau lien (${who}) :`,
  },
  en: {
    loading: "Loading…", journal: "Journal", download: "Download the journal", lang: "Français",
    seed: "Revealed dice seed", verify: "Verification", verified: "matches: every roll re-derived from the seed",
    notVerified: "does not match", stale: "The game changed: view updated.", offline: "Connection lost, reconnecting…",
    seat: { north: "North", south: "South" }, spectator: "Spectator", home: "Home", lord: "Lord of the kingdom",
    against: (names) => `against the computer: ${names}`, board: "Board", gameNav: "Game",
    pass: (s) => `Hand over to ${s}.`, passHelp: "The other commander looks away.", take: (s) => `I command ${s}`,
    rules: "Rules", rulesTitle: (game) => `Rules of ${game}`, close: "Close", now: "now",
    choices: "Where the rules are silent, Kadesh chose", thinking: (name) => `${name} is thinking…`,
    onTime: (s) => `${s} did not play in time.`,
    cancelled: "Game cancelled: it was withdrawn from the open games before all its players had come. Nobody wins, it does not count.",
    over: "Game over", won: "You won!", wins: (s) => `${s} wins.`, drawn: "Nobody wins.", rematch: "Rematch", rematchHelp: "Same rules, same options, new dice.",
    rematchLinks: "New game: send its link to your opponent.", open: "Play", copy: "Copy", copied: "Copied",
    link: (s) => `${s}'s link`, computer: "the computer",
    lost: "Check the link you were given (it must be copied whole), or find your games from the home page.",
    emptyJournal: "Nothing has happened yet.", showJournal: "Show the whole journal", hideJournal: "Fold the journal",
    owner: "Game owner", ownerHelp: "You watch the game without playing. If a link was lost or leaked, replace it: the old one stops working.",
    replace: (who) => `Replace the link: ${who}`, spectators: "spectators", newLink: (who) => `New link (${who}):`,
  },
};

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const askedForReplay = new URLSearchParams(location.search).has("replay");  // read before the link is taken

// The link's secret: a seat's token (#token=…), or both seats' on one screen (#north=…&south=…), in the
// fragment, which browsers never send to a server; an old link's ?token=… too. It moves to this tab's
// session storage and off the address bar (history, bookmarks, a copied address) before anything loads,
// and goes to the server only in an Authorization header or the WebSocket's subprotocol.
function takeLink() {
  const key = `kadesh.link.${gameId}`;
  const fragment = Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
  const fromQuery = new URLSearchParams(location.search).get("token");
  let found = null;
  if (fragment.token || fromQuery) found = { token: fragment.token || fromQuery, hotseat: {} };
  else if (Object.keys(fragment).length) found = { token: Object.values(fragment)[0], hotseat: fragment };
  if (found) {
    sessionStorage.setItem(key, JSON.stringify(found));
    history.replaceState(null, "", location.pathname);
    return found;
  }
  return JSON.parse(sessionStorage.getItem(key) || "null") ?? { token: "", hotseat: {} };
}

const taken = takeLink();
// Another link of this game opened in this tab changes only the fragment: load the page again to take it.
window.addEventListener("hashchange", () => { if (location.hash.length > 1) location.reload(); });
const hotseat = taken.hotseat;  // hot seat: each seat's token, one screen
let token = taken.token;
let lang = localStorage.getItem("kadesh.lang") || "fr";
document.documentElement.lang = lang;  // from the start: an error shown before the game loads is in it too
let current = null;   // GameOut from the server
let legal = [];       // this seat's legal actions
let legalAt = -1;     // the version they are the legal actions of (the board may already show a newer one)
let journal = [];
let journalOf = "";   // the language and link the journal was asked with
let rulesView = null; // the ruleset's view module
let socket = null;
let botTitles = {};   // bot level → {fr, en}
let guide = null;     // the ruleset's guide module for players (rules/<ruleset>-guide.js)
let rulesetTitle = {}; // {fr, en}
let deadlines = false; // whether the ruleset's games may have deadlines (a reminder may be asked for)
let talk = null;      // the table's talk (talk.js), once loaded

const $ = (selector) => document.querySelector(selector);

// When this page got each version's answer to its own action, heard each version pushed, and first drew the
// board of each version, in milliseconds since the epoch (comparable between the pages of one browser): read by
// the redraw's test and bench.
const timings = { answered: {}, heard: {}, drawn: {} };
window.__kadesh = { timings };
const now = () => performance.timeOrigin + performance.now();

async function call(path, options = {}) {
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}${path}`, {
    ...options,
    // Without a link, the page plays the seat the signed-in player keeps in their account (the cookie).
    headers: token ? { Authorization: `Bearer ${token}`, "Content-Type": "application/json" } : { "Content-Type": "application/json" },
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(body[lang] || body.detail || response.statusText);
    error.status = response.status;
    error.code = body.code;
    throw error;
  }
  return body;
}

function showError(message) {
  const box = $("#error");
  box.textContent = message || "";
}

let latest = 0;  // refreshes may overlap (an action's answer, a WebSocket push): only the newest is drawn
let known = -1;  // the newest version this page has fetched or was answered: a push at or below it is not news
let acting = 0;  // this page's own actions under way, from sent to drawn
let newest = null;  // the newest refresh's promise

function refresh() {
  newest = refreshAt(++latest);
  return newest;
}

async function refreshAt(ticket) {
  const { game, actions, lines, of } = await fetchGame(ticket);
  known = Math.max(known, game.version);
  // A newer refresh draws (a push came meanwhile): whoever awaits this one waits for it, and then acts on the
  // newest version's legal actions, not on those of before (an action sent for them met a 409).
  if (ticket !== latest) return newest;
  current = game;
  legal = actions;
  legalAt = game.version;
  journal = lines;
  journalOf = of;
  if (handOver()) return;
  if (!rulesView) {
    rulesView = await import(`/static/rules/${current.ruleset}.js`);
    document.head.append(Object.assign(document.createElement("link"),
      { rel: "stylesheet", href: `/static/rules/${current.ruleset}.css` }));
    guide = await import(`/static/rules/${current.ruleset}-guide.js`).catch(() => null);
    const rulesets = await (await fetch("/api/rulesets")).json();
    const mine = rulesets.find((r) => r.name === current.ruleset);
    botTitles = Object.fromEntries((mine?.bots ?? []).map((b) => [b.level, b.title]));
    rulesetTitle = mine?.title ?? {};
    deadlines = (mine?.deadlines ?? false) || Boolean(current.table?.days_per_move);
  }
  if (!talk && !handOverPending()) await loadTalk();
  else await talk?.recheckDraft().catch(() => {});  // a draft of a turn judged is no longer offered
  render();
}

// The game and this seat's legal actions of the same version, asked for together once the page knows it has a
// seat; then the journal, asked for after the game so that it holds the lines of the game's version.
async function fetchGame(ticket) {
  let game, actions;
  do {
    [game, actions] = await Promise.all([call(""), current?.seat ? call("/legal") : null]);
    if (game.seat && !actions) actions = await call("/legal");  // the page's first load
  } while (game.seat && actions.version !== game.version && ticket === latest);
  const { lines, of } = await journalNow();
  return { game, actions: game.seat ? actions.actions : [], lines, of };
}

// The journal as it is now, and the language and link it was asked with. It only grows while they stay (a
// line's visibility and its mark depend on the events before it, never on those after): the lines after the
// newest one held are asked for and appended to those held when asking (an overlapping refresh may replace
// them meanwhile).
async function journalNow() {
  const of = `${lang} ${token}`;
  const held = of === journalOf ? journal : [];
  const since = held.length ? held.at(-1).version : 0;
  const lines = await call(`/journal?lang=${lang}&since=${since}`);
  return { lines: lines.length ? held.concat(lines) : held, of };
}

// A newer version's view, pushed after someone else's action, drawn at once: whose turn it is, the journal and
// this seat's legal actions follow with refresh(). Meanwhile the board keeps the legal actions it had (the other
// side's move seldom changes them), and an action chosen among them is sent for their version: a stale one is
// checked again, as ever. Not while this page's own action is under way: the push may be its own, and its board
// would then offer the moves of before the action. Two seats on one screen wait for refresh() too: the board may
// have to be covered before the other seat's turn.
function drawAtOnce(version, view) {
  if (!current || !rulesView || version <= current.version || acting || handOverPending() || replay.state.open) return;
  current = { ...current, version, view };
  drawBoard();
}

async function loadTalk() {
  const made = createTalk({ gameId, call, onChange: renderTalk, onDraft: render });
  try {
    await made.load(current);
    talk = made;
  } catch {
    talk = null;  // the page plays on without its talk (a server of the release before, say)
  }
}

let talkDrawn = null;  // the talk and the language the panel was last drawn with

// The talk's panel changes with its messages (the talk calls this on each change) and with the language, not
// with a move: a move redraws the page, not the panel (rebuilding it took half the page's script time a move).
function renderTalk() {
  if (!talk || !current) return;
  talk.render($("#talk"), { lang });
  talkDrawn = { talk, lang };
  titleTheTab();
}

function renderTalkIfStale() {
  if (talk && (talkDrawn?.talk !== talk || talkDrawn.lang !== lang)) renderTalk();
  else titleTheTab();
}

function titleTheTab() {
  signalTurn({ current, lang, gameTitle: rulesetTitle[lang] ?? "Kadesh" });
  const unread = talk?.forView(lang).unreadTitle();
  if (unread) document.title = `${unread} · ${document.title}`;
}

const handOverPending = () => Object.keys(hotseat).length > 0;

const sameAction = (a, b) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

// ``independent``: the action means the same whatever others did meanwhile (a Royaumes order
// message), so a stale version is simply retried against the newer one.
// Someone else moving first is no reason to drop a person's click: a computer opponent deploying
// meanwhile writes a dozen times in a row, and a busy server lets several of them in between two tries.
// The action is sent again as long as it still stands; the cap only stops a runaway loop.
const STALE_RETRIES = 50;

async function act(action, options = {}) {
  acting++;
  try {
    await send(action, options);
  } finally {
    acting--;
  }
}

async function send(action, { independent = false } = {}, retries = STALE_RETRIES) {
  showError("");
  try {
    const answer = await call("/actions", { method: "POST", body: JSON.stringify({ expected_version: legalAt, action }) });
    timings.answered[answer.version] ??= now();
    known = Math.max(known, answer.version);  // its own push must not redraw the board a second time
  } catch (error) {
    if (error.code === "stale_version" && retries > 0) {
      await refresh();
      const stands = independent || legal.some((candidate) => sameAction(candidate, action));
      if (stands) return send(action, { independent }, retries - 1);
      showError(STRINGS[lang].stale);
      return;
    }
    showError(error.code === "stale_version" ? STRINGS[lang].stale : error.message);
  }
  await refresh();
}

async function preview(action) {
  return (await call("/preview", { method: "POST", body: JSON.stringify({ action }) })).preview;
}

async function odds(action) {
  try {
    return (await call("/odds", { method: "POST", body: JSON.stringify({ action }) })).odds;
  } catch {
    return null;
  }
}

let listed = [];  // the lines #journal holds, in order

// The journal's list shows ``shown``: a list that only grew gets its new lines appended (a long game's journal is
// not rebuilt at each version: hundreds of lines laid out again on every move, on a phone too); any other change
// rebuilds it.
function fillJournal(list, shown) {
  const grew = listed.length <= shown.length && listed.every((line, index) => line === shown[index].line);
  const item = (entry) => Object.assign(document.createElement("li"), { textContent: entry.line });
  if (grew) list.append(...shown.slice(listed.length).map(item));
  else list.replaceChildren(...shown.map(item));
  listed = shown.map((entry) => entry.line);
}

function renderJournal() {
  const list = $("#journal");
  const shown = replay.state.open ? replayJournal().filter((entry) => entry.version <= replay.state.at) : journal;
  fillJournal(list, shown);
  $("#journal-empty").textContent = STRINGS[lang].emptyJournal;
  $("#journal-empty").hidden = shown.length > 0;
  $("#download").hidden = !current.outcome;
  // A seat replays its own game at any time; everyone may replay it once it is over.
  const replayable = current.version > 0 && !replay.state.open && (["seat", "lord"].includes(current.role) || current.outcome);
  $("#replay-opener").replaceChildren(...(replayable ? [replay.opener(lang, current)] : []));
  // A view that tells the journal itself (Royaumes' reports) keeps the raw record folded away.
  const folded = Boolean(rulesView.reportsJournal) && !journalOpen;
  const toggle = $("#journal-toggle");
  toggle.hidden = !rulesView.reportsJournal;
  toggle.textContent = STRINGS[lang][folded ? "showJournal" : "hideJournal"];
  toggle.setAttribute("aria-expanded", String(!folded));
  list.hidden = folded || shown.length === 0;
  list.scrollTop = list.scrollHeight;  // once shown: a hidden list keeps no scroll
}

// -- replays: the board as it was after a past version, drawn by the ruleset's own view, nothing playable ----------
const replay = createReplay({ call, draw: drawReplay, onClose: () => { $("#replay-slot").replaceChildren(); render(); },
  lang: () => lang });

// The replay's journal: the chosen reader's once the game is over (the public's may tell the whole game), else one's own.
const replayJournal = () => replay.state.journal ?? journal;

// A finished game's address, with ?replay: it opens the public replay for anyone (auth.resolve).
const shareLink = () => `${location.origin}/play/${encodeURIComponent(gameId)}?replay`;

// A ruleset's page replays a stretch of the game (Front: the other side's last turn), played on by itself.
const replayFrom = (version) => replay.open(current, version, true);

// Once the game is over, the replay may show any seat's view: the board then draws it as that seat's.
const replaySeats = () => (current.outcome ? current.seats.map((seat) => ({ seat, name: seatName(seat) })) : null);
const replaySeat = () => (current.seats.includes(replay.state.reader) ? replay.state.reader : current.seat);

function drawReplay(entry) {
  if (!entry || !current) return;
  const past = { ...current, version: entry.version, view: entry.view, to_act: entry.to_act, outcome: entry.outcome };
  rulesView.render($("#board"), { game: past, view: entry.view, seat: replaySeat(), role: current.role, legal: [], lang,
    act: async () => {}, odds: async () => null, preview: async () => null,
    journal: replayJournal().filter((line) => line.version <= entry.version), talk: null, replaying: true });
  $("#board").dataset.replay = String(entry.version);
  $("#board").dataset.reader = replay.state.reader ?? "";
  $("#replay-slot").replaceChildren(replay.bar(lang, current.outcome ? shareLink() : null, replaySeats()));
  renderJournal();
}

let journalOpen = false;

async function renderEnd() {
  const box = $("#verification");
  if (!current.outcome || !current.seed) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  $("#seed").textContent = current.seed;
  try {
    const result = await call("/verify");
    $("#verify-result").textContent = result.ok ? STRINGS[lang].verified : `${STRINGS[lang].notVerified}: ${result.message}`;
    $("#verify-result").dataset.ok = String(result.ok);
  } catch (error) {
    $("#verify-result").textContent = error.message;
  }
}

const seatName = (seat) => rulesView?.seatName?.(current.view, seat, lang) || STRINGS[lang].seat[seat] || seat;

function render() {
  const t = STRINGS[lang];
  document.documentElement.lang = lang;
  $("#lang").textContent = t.lang;
  $("#home").textContent = t.home;
  $("#journal-title").textContent = t.journal;
  $("#download").textContent = t.download;
  $("#seed-label").textContent = t.seed;
  $("#verify-label").textContent = t.verify;
  $("#board").setAttribute("aria-label", t.board);
  $("header nav").setAttribute("aria-label", t.gameNav);
  $("#journal-panel").hidden = false;
  const opponents = Object.values(current.bots || {}).map((level) => botTitles[level]?.[lang] || t.computer);
  $("#who").textContent = (current.seat ? seatName(current.seat) + (current.role === "lord" ? ` — ${t.lord}` : "") : t.spectator)
    + (opponents.length && current.seat ? ` · ${t.against(opponents.join(", "))}` : "");
  signalTurn({ current, lang, gameTitle: rulesetTitle[lang] ?? "Kadesh" });
  renderRules();
  renderThinking();
  renderEnding();
  renderClock($("#clock"), { current, lang, seatName, claim: claimOnTime, closeOpen,
    turnsAtOnce: Boolean(rulesView?.turnsAtOnce) });
  renderOwner();
  // A Seigneur's link sees the kingdom but asks for no notices: they are the seat's holder's (its Chef's).
  renderNotices($("#notices"), { current, lang, call, deadlines,
    hotseat: Object.keys(hotseat).length > 0 || current.role !== "seat" });
  if (replay.state.open) {  // the live game goes on underneath: its board comes back when the replay closes
    replay.redraw();  // its journal asked for again in another language
    renderTalkIfStale();
    remember();
    return;
  }
  drawBoard();
  renderTalkIfStale();
  renderJournal();
  renderEnd();
  remember();
}

function drawBoard() {
  delete $("#board").dataset.replay;
  delete $("#board").dataset.reader;
  rulesView.render($("#board"), { game: current, view: current.view, seat: current.seat, role: current.role, legal,
    lang, act, odds, preview, journal, talk: talk?.forView(lang) ?? null, replay: replayFrom });
  timings.drawn[current.version] ??= now();
  // The version the board can be played at: a board drawn from a push waits for its legal actions.
  if (legalAt === current.version) $("#board").dataset.version = String(current.version);
}

// In hot seat, when the other seat must act, cover the board until its commander takes over.
function handOver() {
  const next = current.to_act.find((seat) => hotseat[seat]);
  const cover = $("#pass");
  if (!next || next === current.seat) {
    cover.hidden = true;
    return false;
  }
  const t = STRINGS[lang];
  const name = t.seat[next] || next;
  $("#board").replaceChildren();
  $("#journal").replaceChildren();
  listed = [];
  cover.replaceChildren(
    Object.assign(document.createElement("p"), { textContent: t.pass(name), className: "pass-title" }),
    Object.assign(document.createElement("p"), { textContent: t.passHelp }),
    Object.assign(document.createElement("button"), {
      type: "button", id: "take-over", textContent: t.take(name),
      onclick: async () => { token = hotseat[next]; cover.hidden = true; await refresh(); },
    }),
  );
  cover.hidden = false;
  return true;
}

// "My games" on the home page: the games this browser joined (a hot-seat game once, under its first seat).
function remember() {
  if (!current.seat || !token) return;  // a game kept in the account is listed from the server
  const seated = Object.keys(hotseat).length > 0;
  const first = seated ? Object.values(hotseat)[0] : token;
  const games = JSON.parse(localStorage.getItem("kadesh.games") || "[]")
    .filter((g) => g.token !== first && !(seated && g.id === gameId));
  const secret = seated ? new URLSearchParams(hotseat).toString() : `token=${encodeURIComponent(first)}`;
  const link = `${location.pathname}#${secret}`;
  games.unshift({ id: gameId, token: first, seat: seated ? Object.keys(hotseat)[0] : current.seat, ruleset: current.ruleset,
    link, hotseat: seated, opened: Date.now() });
  localStorage.setItem("kadesh.games", JSON.stringify(games.slice(0, 50)));
}

// -- the rules panel: the ruleset's guide for players, the current phase's section open ----------
let rulesDrawn = "";  // the language, the phase's section and the game's numbers the panel was drawn with

// Drawn again only when one of them changes, not at each version (the guide is some thirty paragraphs).
function renderRules() {
  const toggle = $("#rules-toggle");
  const text = guide?.GUIDE?.[lang];
  toggle.hidden = !text;
  if (!text) return;
  const t = STRINGS[lang];
  toggle.textContent = t.rules;
  $("#rules-close").textContent = t.close;
  $("#rules-title").textContent = t.rulesTitle(text.title);
  const now = guide.phaseKey?.(current.view, current.seat) ?? null;
  const values = guide.fill?.(current.view) ?? {};
  // A guide may hold sections and choices for one kind of game only (Bataille: one against one, or on a field).
  const shown = guide.textFor?.(text, current.view) ?? text;
  const drawing = JSON.stringify([lang, now, values, (shown.sections ?? []).map((section) => section.title)]);
  if (drawing === rulesDrawn) return;
  rulesDrawn = drawing;
  const open = new Set([...document.querySelectorAll("#rules-body details[open]")].map((d) => d.dataset.key));
  const sections = (shown.sections ?? []).map((section) => {
    const summary = el("summary", {}, section.title, section.key === now ? el("span", { class: "now" }, t.now) : null);
    const details = el("details", { "data-key": section.key }, summary, ...section.text.map((p) => el("p", {}, filled(p, values))));
    details.open = section.key === now || open.has(section.key);
    return details;
  });
  const choices = shown.choices?.length
    ? [el("h3", {}, t.choices), el("ul", { class: "choices" }, ...shown.choices.map((line) => el("li", {}, line)))] : [];
  $("#rules-body").replaceChildren(el("p", { class: "tagline" }, text.tagline), ...sections, ...choices);
}

// A guide's sentence with the numbers of the game on the page (« tenir {points_to_win} des {points} points »).
function filled(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => values[key] ?? whole);
}

function showRules(shown) {
  $("#rules-panel").hidden = !shown;
  $("#rules-toggle").setAttribute("aria-expanded", String(shown));
  (shown ? $("#rules-close") : $("#rules-toggle")).focus();
}

// -- a computer opponent's turn: say it is thinking -----------------------------------------------
function renderThinking() {
  const thinking = current.outcome ? [] : current.to_act.filter((seat) => current.bots?.[seat]);
  const box = $("#thinking");
  box.hidden = thinking.length === 0;
  if (thinking.length) {
    const level = current.bots[thinking[0]];
    box.replaceChildren(el("span", { class: "spinner", "aria-hidden": "true" }),
      STRINGS[lang].thinking(botTitles[level]?.[lang] ?? STRINGS[lang].computer));
  }
}

async function claimOnTime() {
  showError("");
  try {
    const answer = await call("/timeout", { method: "POST" });
    known = Math.max(known, answer.version);
  } catch (error) {
    showError(error.message);
  }
  await refresh();
}

async function closeOpen() {
  showError("");
  try {
    await call("/open", { method: "DELETE" });
  } catch (error) {
    showError(error.message);
  }
  await refresh();
}

// -- the owner: replace a lost or leaked link ------------------------------------------------------
const replaced = {};  // holder → the new link, shown once

function renderOwner() {
  const box = $("#owner");
  box.hidden = current.role !== "owner";
  if (box.hidden) return;
  const t = STRINGS[lang];
  const name = (holder) => (holder === "spectator" ? t.spectators : seatName(holder));
  const rows = [...current.seats, "spectator"].map((holder) => el("li", {},
    el("button", { type: "button", "data-holder": holder, onclick: () => replaceLink(holder) }, t.replace(name(holder))),
    replaced[holder] ? el("span", {}, " ", t.newLink(name(holder)), " ",
      el("input", { value: replaced[holder], readonly: true, size: 40, "aria-label": t.newLink(name(holder)) })) : null));
  box.replaceChildren(el("h2", {}, t.owner), el("p", { class: "muted" }, t.ownerHelp), el("ul", { class: "owner-links" }, ...rows));
}

async function replaceLink(holder) {
  showError("");
  try {
    const link = await call(`/tokens/${encodeURIComponent(holder)}`, { method: "POST" });
    replaced[holder] = new URL(link.link, location.origin).href;
  } catch (error) {
    showError(error.message);
  }
  renderOwner();
}

// -- the end: the rematch ----------------------------------------------------------------------------
let rematchLinks = null;  // the new game's answer, once asked for

function renderEnding() {
  const box = $("#ending");
  box.hidden = !current.outcome || !current.seat;
  if (box.hidden) return;
  const t = STRINGS[lang];
  const winner = current.outcome.winner;
  const outcome = winner === current.seat ? t.won : winner ? t.wins(seatName(winner)) : t.drawn;
  if (current.outcome.reason === "cancelled") {  // never played out: nothing to rematch
    box.replaceChildren(el("h2", {}, t.over), el("p", { class: "verdict" }, t.cancelled));
    return;
  }
  const verdict = current.outcome.reason === "time" ? `${t.onTime(seatName(current.outcome.late))} ${outcome}` : outcome;
  const parts = [el("h2", {}, t.over), el("p", { class: "verdict" }, verdict),
    el("button", { type: "button", id: "rematch", class: "primary", onclick: askRematch }, t.rematch),
    el("span", { class: "muted" }, " ", t.rematchHelp)];
  if (rematchLinks) {
    parts.push(el("p", {}, t.rematchLinks), el("ul", { class: "rematch-links" },
      ...Object.entries(rematchLinks.seats).map(([seat, link]) => linkItem(seat, link.link))));
  }
  box.replaceChildren(...parts);
}

function linkItem(seat, link) {
  const url = new URL(link, location.origin).href;
  const copy = el("button", { type: "button" }, STRINGS[lang].copy);
  copy.addEventListener("click", async () => {
    await navigator.clipboard?.writeText(url);
    copy.textContent = STRINGS[lang].copied;
  });
  const label = STRINGS[lang].link(seatName(seat));
  return el("li", {}, el("span", {}, label), " ",
    seat === current.seat ? el("a", { href: link, class: "primary" }, STRINGS[lang].open)
      : el("input", { value: url, readonly: true, "aria-label": label, size: 40 }), " ", copy);
}

async function askRematch() {
  showError("");
  let created;
  try {
    created = await call("/rematch", { method: "POST" });
  } catch (error) {
    return showError(error.message);
  }
  const seats = Object.keys(created.seats);
  if (Object.keys(hotseat).length) {  // the same screen plays both sides again
    const tokens = seats.map((seat) => `${seat}=${encodeURIComponent(created.seats[seat].token)}`);
    location.href = `/play/${encodeURIComponent(created.id)}#${tokens.join("&")}`;
    return;
  }
  const humans = seats.filter((seat) => !current.bots?.[seat]);
  if (humans.length === 1) {  // alone against the computer: straight to the board
    location.href = created.seats[current.seat].link;
    return;
  }
  rematchLinks = created;
  renderEnding();
}

function connect(delay = 500) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const since = current ? current.version : 0;
  // The token rides in the subprotocols offered, not in the URL, which servers and proxies log.
  const heard = talk ? talk.state.last : 0;
  socket = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}?since=${since}&lang=${lang}&messages_since=${heard}`,
    token ? ["kadesh", `kadesh.bearer.${token}`] : ["kadesh"]);
  socket.onmessage = async (message) => {
    const data = JSON.parse(message.data);
    if (data.type === "update") timings.heard[data.version] ??= now();
    if (data.type === "update" && data.version > known) {
      drawAtOnce(data.version, data.view);
      await refresh();
    }
    if (data.type === "messages") talk?.receive(data);
    // The table changed (a seat taken, a vacation, the rating settled): the game is asked for again. The first
    // update says how often it had, for a change made between this page's load and its socket's opening.
    const tableChanges = data.type === "table" ? data.changes : data.table_changes;
    if (tableChanges > (current?.table_changes ?? 0)) await refresh();
    $("#offline").hidden = true;
  };
  socket.onclose = (event) => {
    // Refused: a wrong or replaced token will not get better; too many sockets (4429: this address's, or the
    // server's) may, later.
    if (event.code >= 4400 && event.code < 4500 && event.code !== 4429) return;
    $("#offline").textContent = STRINGS[lang].offline;
    $("#offline").hidden = false;
    setTimeout(() => connect(Math.min(delay * 2, 10000)), delay);
  };
}

function download() {
  const blob = new Blob([journal.map((entry) => entry.line).join("\n") + "\n"], { type: "text/plain" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `kadesh-${gameId}-${lang}.txt`;
  link.click();
}

$("#lang").addEventListener("click", async () => {
  lang = lang === "fr" ? "en" : "fr";
  localStorage.setItem("kadesh.lang", lang);
  await refresh();
});
$("#download").addEventListener("click", download);
document.addEventListener("visibilitychange", () => { if (!document.hidden) renderTalk(); });  // read on return
$("#journal-toggle").addEventListener("click", () => {
  journalOpen = !journalOpen;
  renderJournal();
});
$("#rules-toggle").addEventListener("click", () => showRules($("#rules-panel").hidden));
$("#rules-close").addEventListener("click", () => showRules(false));
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && !$("#rules-panel").hidden) showRules(false);
});

// The seat is kept in the signed-in player's account: the link leaves this tab and this browser's list.
async function useAccount() {
  sessionStorage.removeItem(`kadesh.link.${gameId}`);
  const games = JSON.parse(localStorage.getItem("kadesh.games") || "[]").filter((g) => g.token !== token);
  localStorage.setItem("kadesh.games", JSON.stringify(games));
  token = "";
  if (socket) {
    socket.onclose = null;
    socket.close();
  }
  connect();
}

try {
  await refresh();
  connect();
  if (askedForReplay && current.outcome) await replay.open(current);
  if (!Object.keys(hotseat).length) {
    offerToKeep($("#keep"), { id: gameId, token, seat: current.seat, lang }, useAccount, showError);
  }
} catch (error) {  // a wrong, cut or replaced link: say what to do, in the page's language
  showError(error.message);
  if (error.status >= 400 && error.status < 500) $("#error").append(" ", STRINGS[lang].lost);
  $("#home").textContent = STRINGS[lang].home;
  $("#lang").hidden = true;
}

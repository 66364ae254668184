// The game page shell, the same for every ruleset: it fetches what the seat may see and its
// legal actions from the server, keeps them live over the WebSocket, shows the journal, and
// hands drawing and input to the ruleset's own view module (rules/<ruleset>.js).
// The browser never re-implements a rule: legal moves, targets and odds all come from the server.

const STRINGS = {
  fr: {
    loading: "Chargement…", journal: "Journal", download: "Télécharger le journal", lang: "English",
    seed: "Graine des dés révélée", verify: "Vérification", verified: "conforme : chaque jet est re-dérivé de la graine",
    notVerified: "non conforme", stale: "La partie a changé : vue mise à jour.", offline: "Connexion perdue, reconnexion…",
    seat: { north: "Nord", south: "Sud" }, spectator: "Spectateur", home: "Accueil", against: "contre",
    pass: (s) => `Passe la main au ${s}.`, passHelp: "L'autre commandant détourne les yeux.", take: (s) => `Je commande le ${s}`,
  },
  en: {
    loading: "Loading…", journal: "Journal", download: "Download the journal", lang: "Français",
    seed: "Revealed dice seed", verify: "Verification", verified: "matches: every roll re-derived from the seed",
    notVerified: "does not match", stale: "The game changed: view updated.", offline: "Connection lost, reconnecting…",
    seat: { north: "North", south: "South" }, spectator: "Spectator", home: "Home", against: "against",
    pass: (s) => `Hand over to ${s}.`, passHelp: "The other commander looks away.", take: (s) => `I command ${s}`,
  },
};

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
// Hot seat: both seats' tokens in the fragment (never sent to the server in a URL), one screen.
const hotseat = Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
let token = new URLSearchParams(location.search).get("token") || Object.values(hotseat)[0] || "";
let lang = localStorage.getItem("kadesh.lang") || "fr";
let current = null;   // GameOut from the server
let legal = [];       // this seat's legal actions
let journal = [];
let rulesView = null; // the ruleset's view module
let socket = null;
let botTitles = {};   // bot level → {fr, en}

const $ = (selector) => document.querySelector(selector);

async function call(path, options = {}) {
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}${path}`, {
    ...options,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
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

async function refresh() {
  const ticket = ++latest;
  let game, actions;
  do {  // the legal actions must belong to the version shown
    game = await call("");
    actions = game.seat ? await call("/legal") : { version: game.version, actions: [] };
  } while (actions.version !== game.version && ticket === latest);
  known = Math.max(known, game.version);
  const lines = await call(`/journal?lang=${lang}`);
  if (ticket !== latest) return;
  current = game;
  legal = actions.actions;
  journal = lines;
  if (handOver()) return;
  if (!rulesView) {
    rulesView = await import(`/static/rules/${current.ruleset}.js`);
    document.head.append(Object.assign(document.createElement("link"),
      { rel: "stylesheet", href: `/static/rules/${current.ruleset}.css` }));
    const rulesets = await (await fetch("/api/rulesets")).json();
    const mine = rulesets.find((r) => r.name === current.ruleset);
    botTitles = Object.fromEntries((mine?.bots ?? []).map((b) => [b.level, b.title]));
  }
  render();
}

const sameAction = (a, b) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

// ``independent``: the action means the same whatever others did meanwhile (a Royaumes order
// message), so a stale version is simply retried once against the newer one.
async function act(action, { independent = false } = {}, retried = false) {
  showError("");
  try {
    const answer = await call("/actions", { method: "POST", body: JSON.stringify({ expected_version: current.version, action }) });
    known = Math.max(known, answer.version);  // its own push must not redraw the board a second time
  } catch (error) {
    if (error.code === "stale_version" && !retried) {
      // Someone else moved first (the opponent deploying, a bot): if the action still stands, send it again.
      await refresh();
      if (independent || legal.some((candidate) => sameAction(candidate, action))) return act(action, { independent }, true);
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
  } catch (error) {
    return null;
  }
}

function renderJournal() {
  const list = $("#journal");
  list.replaceChildren(...journal.map((entry) => {
    const item = document.createElement("li");
    item.textContent = entry.line;
    return item;
  }));
  list.scrollTop = list.scrollHeight;
  $("#download").hidden = !current.outcome;
}

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

function render() {
  const t = STRINGS[lang];
  document.documentElement.lang = lang;
  $("#lang").textContent = t.lang;
  $("#home").textContent = t.home;
  $("#journal-title").textContent = t.journal;
  $("#download").textContent = t.download;
  $("#seed-label").textContent = t.seed;
  $("#verify-label").textContent = t.verify;
  const opponents = Object.values(current.bots || {}).map((level) => botTitles[level]?.[lang] || level);
  const seatName = (seat) => rulesView.seatName?.(current.view, seat, lang) || t.seat[seat] || seat;
  $("#who").textContent = (current.seat ? seatName(current.seat) : t.spectator)
    + (opponents.length ? ` ${t.against} ${opponents.join(", ")}` : "");
  rulesView.render($("#board"), { game: current, view: current.view, seat: current.seat, legal, lang, act, odds,
    preview, journal });
  $("#board").dataset.version = String(current.version);
  renderJournal();
  renderEnd();
  remember();
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

function remember() {
  if (!current.seat || Object.keys(hotseat).length) return;
  const games = JSON.parse(localStorage.getItem("kadesh.games") || "[]").filter((g) => g.token !== token);
  games.unshift({ id: gameId, token, seat: current.seat, ruleset: current.ruleset, link: location.pathname + location.search });
  localStorage.setItem("kadesh.games", JSON.stringify(games.slice(0, 50)));
}

function connect(delay = 500) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const since = current ? current.version : 0;
  socket = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}?token=${encodeURIComponent(token)}&since=${since}&lang=${lang}`);
  socket.onmessage = async (message) => {
    const data = JSON.parse(message.data);
    if (data.type === "update" && data.version > known) await refresh();
    $("#offline").hidden = true;
  };
  socket.onclose = (event) => {
    // Refused: a wrong or replaced token will not get better; a crowded game (4429) may, later.
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

try {
  await refresh();
  connect();
} catch (error) {
  showError(error.message);
}

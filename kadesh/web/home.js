// Home page: list the rulesets, create a Manœuvre game or a Royaumes campaign, show the seat links. No build step.

const TEXT = {
  fr: {
    intro: "Jeux de guerre au tour par tour, joués sur plusieurs jours : chaque jet de dé est consigné.",
    rulesets: "Règles disponibles", new_game: "Nouvelle partie de Manœuvre", create: "Créer la partie",
    links: "Liens de la partie", commitment: "Engagement des dés (SHA-256 de la graine) :",
    links_help: "Qui ouvre une manœuvre commande le Nord ; envoie le lien du Sud à ton adversaire. Qui a un lien joue ce siège : ne le publie pas.",
    play_north: "Commander le Nord", hotseat: "Jouer les deux camps sur cet écran (passe la main)",
    my_games: "Mes parties", your_turn: "à toi de jouer", their_turn: "à l'adversaire", over: "terminée",
    bow: "archer", blade: "lame",
    vs_computer: "Contre l'ordinateur", play_computer: "Jouer contre l'ordinateur", level: "Adversaire",
    side: "Je commande", random: "Hasard",
    seat: "Siège", spectator: "Spectateurs", owner: "Propriétaire", open: "Ouvrir", copy: "Copier",
    copied: "Copié", toggle: "English", failed: "La création a échoué : ",
    north: "Nord", south: "Sud",
    new_campaign: "Nouvelle campagne Royaumes", scenario: "Scénario", create_campaign: "Créer la campagne",
    campaign_links: "Liens de la campagne", open_console: "Ouvrir la console d'Imhotep",
    campaign_help: "Envoie à chaque royaume son lien ; garde celui d'Imhotep, le maître du jeu.",
  },
  en: {
    intro: "Turn-based wargames played over several days: every die roll is on the record.",
    rulesets: "Available rulesets", new_game: "New game of Manoeuvre", create: "Create the game",
    links: "Game links", commitment: "Dice commitment (SHA-256 of the seed):",
    links_help: "Whoever opens a manoeuvre commands North; send the South link to your opponent. Whoever has a link plays that seat: don't publish it.",
    play_north: "Command North", hotseat: "Play both sides on this screen (hand over)",
    my_games: "My games", your_turn: "your turn", their_turn: "opponent's turn", over: "over",
    bow: "bow", blade: "blade",
    vs_computer: "Against the computer", play_computer: "Play against the computer", level: "Opponent",
    side: "I command", random: "Random",
    seat: "Seat", spectator: "Spectators", owner: "Owner", open: "Open", copy: "Copy",
    copied: "Copied", toggle: "Français", failed: "Could not create the game: ",
    north: "North", south: "South",
    new_campaign: "New Royaumes campaign", scenario: "Scenario", create_campaign: "Create the campaign",
    campaign_links: "Campaign links", open_console: "Open Imhotep's console",
    campaign_help: "Send each kingdom its link; keep Imhotep's, the game master's.",
  },
};

let lang = localStorage.getItem("kadesh.lang") || "fr";
let rulesets = [];
let created = null;
let campaign = null;  // {created, names}: a new Royaumes campaign and its kingdoms' names

const $ = (id) => document.getElementById(id);
const t = (key) => TEXT[lang][key] ?? key;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

function render() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  $("lang").textContent = t("toggle");
  $("rulesets").replaceChildren(...rulesets.map((r) => el("li", {}, `${r.title[lang] ?? r.name} (v${r.version})`)));
  const manoeuvre = rulesets.find((r) => r.name === "manoeuvre");
  const fields = [];
  for (const [name, spec] of Object.entries(manoeuvre?.options_schema ?? {})) {
    fields.push(el("legend", {}, spec[lang] ?? name));
    for (const value of spec.values ?? []) {
      const input = el("input", { type: "radio", name, value, id: `opt-${name}-${value}` });
      input.checked = value === spec.default;
      fields.push(el("label", { for: input.id }, input, ` ${t(value)}`));
    }
  }
  $("options").replaceChildren(...fields);
  renderVersus(manoeuvre);
  renderScenarios(rulesets.find((r) => r.name === "royaumes"));
  if (created) renderLinks();
  if (campaign) renderCampaign();
  renderMyGames();
}

function absolute(link) {
  return new URL(link, window.location.origin).href;
}

function linkRow(label, link) {
  const url = absolute(link);
  const copy = el("button", { type: "button" }, t("copy"));
  copy.addEventListener("click", async () => {
    await navigator.clipboard?.writeText(url);
    copy.textContent = t("copied");
  });
  return el("tr", {}, el("th", {}, label), el("td", {}, el("a", { href: url, target: "_blank" }, t("open"))),
            el("td", {}, el("input", { value: url, readonly: "", size: "60" })), el("td", {}, copy));
}

function renderLinks() {
  $("created").hidden = false;
  $("commitment").textContent = created.commitment;
  const rows = Object.entries(created.seats).map(([seat, link]) => linkRow(`${t("seat")} ${t(seat)}`, link.link));
  rows.push(linkRow(t("spectator"), created.spectator.link), linkRow(t("owner"), created.owner.link));
  $("links").replaceChildren(...rows);
  $("play-north").href = created.seats.north ? created.seats.north.link : Object.values(created.seats)[0].link;
  const tokens = Object.entries(created.seats).map(([seat, link]) => `${seat}=${encodeURIComponent(link.token)}`);
  $("hotseat").href = `/play/${encodeURIComponent(created.id)}#${tokens.join("&")}`;
}

// "My games": the seat links this browser has opened, with whose turn it is.
async function renderMyGames() {
  const games = JSON.parse(localStorage.getItem("kadesh.games") || "[]");
  $("my-games-section").hidden = games.length === 0;
  const items = await Promise.all(games.map(async (game) => {
    let state = "";
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(game.id)}`, { headers: { Authorization: `Bearer ${game.token}` } });
      if (!response.ok) return null;
      const body = await response.json();
      state = body.outcome ? t("over") : body.to_act.includes(body.seat) ? t("your_turn") : t("their_turn");
    } catch (error) {
      return null;
    }
    return el("li", { class: "my-game" }, el("a", { href: game.link }, `${game.ruleset} · ${t(game.seat)} · ${game.id}`), ` — ${state}`);
  }));
  $("my-games").replaceChildren(...items.filter(Boolean));
}

function radios(name, legend, choices, checked) {
  const nodes = [el("legend", {}, legend)];
  for (const [value, label] of choices) {
    const input = el("input", { type: "radio", name, value, id: `${name}-${value}` });
    input.checked = value === checked;
    nodes.push(el("label", { for: input.id }, input, ` ${label}`));
  }
  return nodes;
}

function renderVersus(ruleset) {
  const bots = ruleset?.bots ?? [];
  const previous = new FormData($("versus"));
  $("bot-levels").replaceChildren(...radios("level", t("level"),
    bots.map((b) => [b.level, b.title[lang] ?? b.level]), previous.get("level") ?? "maladroit"));
  $("bot-side").replaceChildren(...radios("side", t("side"),
    (ruleset?.seats ?? []).map((s) => [s, t(s)]), previous.get("side") ?? "north"));
}

async function playComputer(event) {
  event.preventDefault();
  $("error").textContent = "";
  const choice = new FormData($("versus"));
  const manoeuvre = rulesets.find((r) => r.name === "manoeuvre");
  const side = choice.get("side");
  const bots = Object.fromEntries(manoeuvre.seats.filter((s) => s !== side).map((s) => [s, choice.get("level")]));
  const options = Object.fromEntries(new FormData($("create")).entries());
  const response = await fetch("/api/games", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ruleset: "manoeuvre", options, bots }),
  });
  const body = await response.json();
  if (!response.ok) {
    $("error").textContent = t("failed") + (body[lang] ?? response.statusText);
    return;
  }
  window.location.href = body.seats[side].link;
}

async function create(event) {
  event.preventDefault();
  $("error").textContent = "";
  const options = Object.fromEntries(new FormData($("create")).entries());
  const response = await fetch("/api/games", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ruleset: "manoeuvre", options }),
  });
  const body = await response.json();
  if (!response.ok) {
    $("error").textContent = t("failed") + (body[lang] ?? response.statusText);
    return;
  }
  created = body;
  render();
}

function renderScenarios(royaumes) {
  const spec = royaumes?.options_schema?.scenario;
  const select = $("scenario");
  const chosen = select.value || spec?.default;
  select.replaceChildren(...(spec?.values ?? []).map((value) => el("option", { value }, value)));
  if (chosen) select.value = chosen;
}

function renderCampaign() {
  $("campaign-created").hidden = false;
  const { created: game, names } = campaign;
  const rows = Object.entries(game.seats).map(([seat, link]) => linkRow(names[seat]?.[lang] ?? seat, link.link));
  rows.push(linkRow(t("spectator"), game.spectator.link));
  $("campaign-links").replaceChildren(...rows);
  $("open-console").href = game.seats.imhotep.link;
}

async function createCampaign(event) {
  event.preventDefault();
  $("error").textContent = "";
  const response = await fetch("/api/games", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ruleset: "royaumes", options: { scenario: $("scenario").value } }),
  });
  const body = await response.json();
  if (!response.ok) {
    $("error").textContent = t("failed") + (body[lang] ?? response.statusText);
    return;
  }
  const game = await (await fetch(`/api/games/${encodeURIComponent(body.id)}`, {
    headers: { Authorization: `Bearer ${body.seats.imhotep.token}` } })).json();
  const names = Object.fromEntries(game.view.kingdoms.map((k) => [k.id, k.names]));
  names.imhotep = { fr: "Imhotep (maître du jeu)", en: "Imhotep (game master)" };
  campaign = { created: body, names };
  render();
}

// Rulesets whose view module offers a set-up panel (``setup``) get their own section here.
const panels = {};

async function renderPanels() {
  for (const ruleset of rulesets) {
    if (!(ruleset.name in panels)) {
      const module = await import(`/static/rules/${ruleset.name}.js`).catch(() => null);
      panels[ruleset.name] = module?.setup ? module : null;
    }
    const module = panels[ruleset.name];
    if (!module) continue;
    let section = document.getElementById(`panel-${ruleset.name}`);
    if (!section) {
      section = el("section", { id: `panel-${ruleset.name}`, class: "ruleset-panel" });
      $("panels").append(section);
    }
    const body = el("div", {});
    section.replaceChildren(el("h2", {}, ruleset.title[lang] ?? ruleset.name), body);
    module.setup(body, { ruleset, lang, create: createFor, simulate: (request) => simulateFor(ruleset.name, request) });
  }
}

async function createFor(request) {
  $("error").textContent = "";
  const response = await fetch("/api/games", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request),
  });
  const body = await response.json();
  if (!response.ok) {
    $("error").textContent = t("failed") + (body[lang] ?? response.statusText);
    return null;
  }
  return body;
}

async function simulateFor(name, request) {
  const response = await fetch(`/api/rulesets/${encodeURIComponent(name)}/simulate`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request),
  });
  const body = await response.json();
  if (!response.ok) {
    $("error").textContent = body[lang] ?? response.statusText;
    return null;
  }
  return body;
}

$("lang").addEventListener("click", () => {
  lang = lang === "fr" ? "en" : "fr";
  localStorage.setItem("kadesh.lang", lang);
  render();
  renderPanels();
});
$("create").addEventListener("submit", create);
$("versus").addEventListener("submit", playComputer);
$("campaign").addEventListener("submit", createCampaign);

rulesets = await (await fetch("/api/rulesets")).json();
render();
await renderPanels();

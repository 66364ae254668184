// Home page: the lobby. Each ruleset is a card (its picture, what it is, how long it takes) with one click to
// play: against the computer, two on this screen, or by a link; after creating, the links show in the card.
// A ruleset's view module may add a set-up table (``setup``), shown under the cards. No build step.

import { el } from "./dom.js";
import { picture } from "./lobby-art.js";
import { forgetMapInAddress, goneNote, mapInAddress, mapNote } from "./lobby-map.js";
import { PICTURES, SEATS, TEXT, VALUES, seatName } from "./lobby-words.js";
import { renderMyGames } from "./my-games.js";
import { followOpenGames, renderOpenGames } from "./open-games.js";
import { inPlayOrder } from "./page.js";
import { pairingBox, resumePairing } from "./pairing.js";

let lang = localStorage.getItem("kadesh.lang") || "fr";
let rulesets = [];
let account = null;  // the signed-in player (AccountOut), or null
const pictures = {};  // ruleset → its own lobby picture (a plugin's: rules/<ruleset>-guide.js lobbyPicture)
const guides = {};    // ruleset → GUIDE (title, tagline, duration, players), from rules/<ruleset>-guide.js
const created = {};   // ruleset → {body, names}: the game just created here and its seats' names
const chosen = {};    // ruleset → {field: value}: the player's choices in the card, kept across a language switch
let shelfMap = null;  // a map of the shelf chosen by the address (/?map=<id>): its game's card plays on it
const MAP_REPLACES = new Set(["scenario", "scenario_toml"]);  // the options a map of the shelf stands for
const onShelfMap = (name, key) => shelfMap?.ruleset === name && MAP_REPLACES.has(key);

const $ = (id) => document.getElementById(id);
const t = (key, ...args) => {
  const value = TEXT[lang][key];
  return typeof value === "function" ? value(...args) : value ?? key;
};

// Ids the other pages' tests and links know (Manœuvre's forms, Royaumes' campaign, Front's links) stay as they were.
const SPECIAL_IDS = {
  manoeuvre: { versus: "versus", create: "create", created: "created", links: "links", first: "play-north",
    hotseatLink: "hotseat", commitment: "commitment" },
  royaumes: { create: "campaign", created: "campaign-created", links: "campaign-links", first: "open-console" },
  front: { link: "front-create", links: "front-links" },
};
const OPTION_IDS = { royaumes: { scenario: "scenario" }, front: { scenario: "front-scenario" } };
const CREATOR = { royaumes: "imhotep" };  // the seat whoever creates the game takes (else the first)
// View modules whose ``setup`` the card already does (Front's picks a scenario and hands out links).
const COVERED_BY_CARD = new Set(["front"]);

function ids(name) {
  return { card: `card-${name}`, versus: `versus-${name}`, computer: `play-computer-${name}`, create: `create-${name}`,
    hotseat: `hotseat-${name}`, link: `link-${name}`, error: `error-${name}`, created: `created-${name}`,
    links: `links-${name}`, first: `play-first-${name}`, hotseatLink: `hotseat-link-${name}`,
    commitment: `commitment-${name}`, ...SPECIAL_IDS[name] };
}

function radioId(name, group, value) {
  return name === "manoeuvre" ? `${group}-${value}` : `${name}-${group}-${value}`;
}

function optionId(name, key) {
  return OPTION_IDS[name]?.[key] ?? `opt-${name}-${key}`;
}

function remembered(name, field, fallback) {
  return chosen[name]?.[field] ?? fallback;
}

function keep(name, field, value) {
  chosen[name] = { ...chosen[name], [field]: value };
}

// -- the card ----------------------------------------------------------------------------------------
function card(ruleset) {
  const { name } = ruleset;
  const id = ids(name);
  const guide = guides[name]?.[lang] ?? {};
  const title = guide.title ?? ruleset.title[lang] ?? ruleset.title.fr;
  const two = ruleset.seats.length === 2;
  const parts = [
    el("h3", { class: "game-title", id: `title-${name}` }, title),
    guide.tagline ? el("p", { class: "tagline" }, guide.tagline) : null,
    el("dl", { class: "game-facts" },
      guide.duration ? el("div", {}, el("dt", {}, t("duration")), el("dd", {}, guide.duration)) : null,
      guide.players ? el("div", {}, el("dt", {}, t("players")), el("dd", {}, guide.players)) : null),
  ];
  if (shelfMap?.ruleset === name) parts.push(mapNote(shelfMap, lang, () => dropShelfMap(ruleset)));
  if (two && ruleset.bots?.length) parts.push(versusForm(ruleset, id));
  parts.push(createForm(ruleset, id, two));
  if (account && ruleset.clocks) parts.push(pairingBox(ruleset, lang));  // a rated game between accounts, with a clock
  parts.push(el("p", { class: "card-error", id: id.error, role: "alert" }));
  const done = created[name] ? createdBlock(ruleset, id) : null;
  return el("article", { class: `card game-card${done ? " has-created" : ""}`, id: id.card, "aria-labelledby": `title-${name}`,
    "data-ruleset": name },
  picture(name, PICTURES[lang][name] ?? guide.picture ?? title, pictures[name]), el("div", { class: "card-body" }, ...parts), done);
}

function radios(name, group, legend, choices, checked, changed = null) {
  return el("fieldset", { class: "chips" }, el("legend", {}, legend), el("div", { class: "chip-row" }, ...choices.map(([value, label]) => {
    const input = el("input", { type: "radio", name: group, value, id: radioId(name, group, value),
      onchange: () => { keep(name, group, value); changed?.(value); } });
    input.checked = value === checked;
    return el("label", { class: "chip", for: input.id }, input, ` ${label}`);
  })));
}

function hintOf(bots, level) {
  const bot = bots.find((b) => b.level === level);
  return bot?.hint ? `${bot.title[lang]}${lang === "fr" ? " : " : ": "}${bot.hint[lang]}` : "";
}

function versusForm(ruleset, id) {
  const { name, bots, seats } = ruleset;
  const level = remembered(name, "level", bots[0].level);
  const side = remembered(name, "side", seats[0]);
  // How strong the chosen opponent is and how it plays: a newcomer picks one knowingly (issue 44).
  const hint = el("p", { class: "bot-hint muted", id: `bot-hint-${name}`, "aria-live": "polite" }, hintOf(bots, level));
  return el("form", { id: id.versus, class: "versus", onsubmit: (event) => { event.preventDefault(); playComputer(ruleset); } },
    el("h4", {}, t("vs_computer")),
    radios(name, "level", t("level"), bots.map((b) => [b.level, b.title[lang] ?? b.level]), level,
      (chosen) => { hint.textContent = hintOf(bots, chosen); }),
    hint,
    radios(name, "side", t("side"), seats.map((s) => [s, seatName(s, lang)]), side),
    el("button", { type: "submit", class: "primary", id: id.computer }, t("play_computer")));
}

function createForm(ruleset, id, two) {
  const { name } = ruleset;
  const buttons = two
    ? [el("h4", {}, t("other_ways")),
      tableChoices(ruleset),
      talkChoices(ruleset),
      el("p", { class: "ways" },
        el("button", { type: "button", id: id.hotseat, onclick: () => playHotseat(ruleset) }, t("hotseat_button")),
        el("button", { type: "submit", id: id.link }, t("link_button")),
        el("button", { type: "button", id: `open-${name}`, onclick: () => openToOthers(ruleset) }, t("open_button")))]
    : [el("p", { class: "campaign-intro", id: `intro-${name}` }, campaignIntro(ruleset, remembered(name, "referee", "person"))),
      refereeChoices(ruleset),
      rulersBox(ruleset),
      talkChoices(ruleset),
      el("p", { class: "ways" }, el("button", { type: "submit", class: "primary", id: id.link }, t("campaign_button")))];
  return el("form", { id: id.create, class: "create", onsubmit: (event) => { event.preventDefault(); createLinks(ruleset); } },
    ...buttons, optionsBox(ruleset));
}

// The table of a game played by people: its time per move (where the rules keep no deadlines of their own) and,
// signed in, whether a game opened to others is rated.
const DAYS_PER_MOVE = [1, 2, 3, 7, 14];

function tableChoices(ruleset) {
  const { name } = ruleset;
  if (!ruleset.clocks) return null;
  const clockId = `clock-${name}`;
  const select = el("select", { id: clockId, name: "clock", onchange: (event) => keep(name, "clock", event.target.value) },
    el("option", { value: "" }, t("no_clock")), ...DAYS_PER_MOVE.map((n) => el("option", { value: String(n) }, t("days", n))));
  select.value = remembered(name, "clock", "");
  const rated = el("input", { type: "checkbox", id: `rated-${name}`, name: "rated",
    onchange: (event) => keep(name, "rated", event.target.checked) });
  rated.checked = Boolean(remembered(name, "rated", false));
  const timeoutId = `timeout-${name}`;
  const timeout = el("select", { id: timeoutId, name: "on_timeout", onchange: (event) => keep(name, "on_timeout", event.target.value) },
    el("option", { value: "claim" }, t("timeout_claim")), el("option", { value: "computer" }, t("timeout_computer")));
  timeout.value = remembered(name, "on_timeout", "claim");
  const whenOut = el("p", { hidden: !select.value }, el("label", { for: timeoutId }, t("on_timeout")), " ", timeout);
  select.addEventListener("change", () => { whenOut.hidden = !select.value; });  // only with a time per move
  return el("div", { class: "table-choices" },
    el("p", {}, el("label", { for: clockId }, t("per_move")), " ", select),
    whenOut,
    account ? el("p", {}, rated, " ", el("label", { for: rated.id }, t("rated_choice"))) : null);
}

// Who referees a campaign (issue 59): the game master's seat held by a person (the creator), or Kadesh alone, each
// turn judged once every kingdom's orders are in or at its deadline, the computer writing a late kingdom's orders.
const REFEREE_DAYS = 2;  // the time per turn the card offers first under Kadesh alone

function campaignIntro(ruleset, referee) {
  return referee === "kadesh" ? t("campaign_intro_kadesh")
    : t("campaign_intro", seatName(CREATOR[ruleset.name] ?? ruleset.seats[0], lang, true));
}

function refereeChoices(ruleset) {
  const { name } = ruleset;
  if (!ruleset.game_master) return null;
  const referee = remembered(name, "referee", "person");
  const daysId = `referee-days-${name}`;
  const days = el("select", { id: daysId, name: "referee_days", onchange: (event) => keep(name, "referee_days", event.target.value) },
    ...DAYS_PER_MOVE.map((n) => el("option", { value: String(n) }, t("days_per_turn", n))));
  days.value = remembered(name, "referee_days", String(REFEREE_DAYS));
  const deadline = el("div", { id: `referee-deadline-${name}`, hidden: referee !== "kadesh" },
    el("p", {}, el("label", { for: daysId }, t("per_turn")), " ", days),
    el("p", { class: "muted small" }, t("referee_kadesh_help")));
  return el("div", { class: "referee-choices" },
    radios(name, "referee", t("referee"), [["person", t("referee_person")], ["kadesh", t("referee_kadesh")]], referee,
      (chosen) => {
        deadline.hidden = chosen !== "kadesh";
        $(`intro-${name}`).textContent = campaignIntro(ruleset, chosen);
      }),
    deadline);
}

function chosenReferee(ruleset) {
  if (!document.querySelector(`#${radioId(ruleset.name, "referee", "kadesh")}:checked`)) return {};
  const days = Number($(`referee-days-${ruleset.name}`).value);
  return { referee: "kadesh", clock: { days_per_move: days, on_timeout: "computer" } };
}

// The table's talk (issue 43): who may write to whom, as webDiplomacy's press; where the rules have them, a
// Seigneur beside each kingdom's Chef militaire, and whether the game master reads the kingdoms' talk.
function talkChoices(ruleset) {
  const { name } = ruleset;
  const pressId = `press-${name}`;
  const press = el("select", { id: pressId, name: "press", onchange: (event) => keep(name, "press", event.target.value) },
    el("option", { value: "full" }, t(ruleset.seats.length > 2 ? "press_full" : "press_on")),
    ruleset.seats.length > 2 ? el("option", { value: "public" }, t("press_public")) : null,
    el("option", { value: "none" }, t(ruleset.game_master ? "press_none_master" : "press_none")));
  press.value = remembered(name, "press", "full");
  const check = (key, words) => {
    const box = el("input", { type: "checkbox", id: `${key}-${name}`, onchange: (event) => keep(name, key, event.target.checked) });
    box.checked = Boolean(remembered(name, key, false));
    return el("p", {}, box, " ", el("label", { for: box.id }, t(words)));
  };
  return el("div", { class: "talk-choices" },
    el("p", {}, el("label", { for: pressId }, t("press")), " ", press),
    ruleset.councils ? check("councils", "councils_choice") : null,
    ruleset.game_master ? check("master_reads", "master_reads_choice") : null);
}

function chosenTalk(ruleset) {
  const press = $(`press-${ruleset.name}`)?.value || "full";
  return { ...(press !== "full" ? { press } : {}), ...($(`councils-${ruleset.name}`)?.checked ? { councils: true } : {}),
    ...($(`master_reads-${ruleset.name}`)?.checked ? { master_reads: true } : {}) };
}

function redrawPairing() {
  for (const ruleset of rulesets.filter((r) => r.clocks)) {
    $(`pairing-${ruleset.name}`)?.replaceWith(pairingBox(ruleset, lang));
  }
}

function chosenTable(ruleset, opening) {
  const days = Number($(`clock-${ruleset.name}`)?.value || 0);
  const rated = opening && account && $(`rated-${ruleset.name}`)?.checked;
  const onTimeout = $(`timeout-${ruleset.name}`)?.value || "claim";
  return { ...(days ? { clock: { days_per_move: days, on_timeout: onTimeout } } : {}), ...(rated ? { rated: true } : {}),
    ...chosenTalk(ruleset) };
}

// A campaign's seats that the computer may take: a person (a link to send) or a computer level for each.
// The random baseline is not offered here: a kingdom that sends empty orders is no opponent.
// The seats follow the chosen map: the server lists them (and checks a map of one's own) as the options change.
const seatsFor = {};  // ruleset → {bot_seats, names} for the options now chosen in its card

function rulersBox(ruleset) {
  const { name } = ruleset;
  const levels = (ruleset.bots ?? []).filter((b) => b.level !== "random");
  const { bot_seats: seats, names } = seatsFor[name] ?? { bot_seats: ruleset.bot_seats ?? [], names: {} };
  if (!levels.length || !seats.length) return null;
  return el("fieldset", { class: "rulers", id: `rulers-${name}` }, el("legend", {}, t("rulers")),
    ...seats.map((seat) => {
      const fieldId = `ruler-${name}-${seat}`;
      const select = el("select", { id: fieldId, name: `ruler-${seat}`, onchange: (event) => keep(name, `ruler:${seat}`, event.target.value) },
        el("option", { value: "" }, t("ruler_person")),
        ...levels.map((b) => el("option", { value: b.level }, t("ruler_computer", b.title[lang] ?? b.level))));
      select.value = remembered(name, `ruler:${seat}`, "");
      return el("p", {}, el("label", { for: fieldId }, names[seat]?.[lang] ?? seatName(seat, lang)), " ", select);
    }),
    el("ul", { class: "bot-hints muted" }, ...levels.filter((b) => b.hint).map((b) => el("li", {}, hintOf(levels, b.level)))));
}

async function refreshRulers(ruleset) {
  const { name } = ruleset;
  const box = $(`rulers-${name}`);
  if (!box) return;
  const error = $(ids(name).error);
  try {
    const response = await fetch(`/api/rulesets/${encodeURIComponent(name)}/seats`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ options: options(ruleset) }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      error.textContent = body[lang] ?? response.statusText;
      return;
    }
    error.textContent = "";
    seatsFor[name] = { bot_seats: body.bot_seats, names: body.names };
    $(`rulers-${name}`)?.replaceWith(rulersBox(ruleset) ?? "");
  } catch (failure) {
    error.textContent = failure.message;
  }
}

function chosenRulers(ruleset) {
  const bots = {};
  for (const seat of (seatsFor[ruleset.name] ?? ruleset).bot_seats ?? []) {
    const level = $(`ruler-${ruleset.name}-${seat}`)?.value;
    if (level) bots[seat] = level;
  }
  return Object.keys(bots).length ? bots : null;
}

// The ruleset's options: a choice is a select, a yes/no a checkbox, a text a text area, a group its troop.
function optionsBox(ruleset) {
  const { name } = ruleset;
  const fields = [];
  for (const [key, spec] of Object.entries(ruleset.options_schema ?? {})) {
    if (onShelfMap(name, key)) continue;
    const fieldId = optionId(name, key);
    // ``suggested``: what the card offers first when it is not the API's default (Bataille's field)
    const value = remembered(name, `opt:${key}`, spec.type === "group" ? spec.default?.troop : spec.suggested ?? spec.default);
    const onchange = (event) => {
      keep(name, `opt:${key}`, event.target.type === "checkbox" ? event.target.checked : event.target.value);
      hideExcluded(ruleset);
      refreshRulers(ruleset);
    };
    if (spec.type === "choice") {
      const values = spec.offered ?? spec.values ?? [];
      const select = el("select", { id: fieldId, name: key, onchange },
        ...values.map((v) => el("option", { value: v }, spec.labels?.[v]?.[lang] ?? VALUES[lang][v] ?? v)));
      select.value = value;
      fields.push(el("p", {}, el("label", { for: fieldId }, spec[lang] ?? key), " ", select));
    } else if (spec.type === "bool") {
      const box = el("input", { type: "checkbox", id: fieldId, name: key, onchange });
      box.checked = Boolean(value);
      fields.push(el("p", {}, el("label", { for: fieldId }, box, ` ${spec[lang] ?? key}`)));
    } else if (spec.type === "text") {
      // A text of one's own (a scenario's TOML): no player's everyday option, folded away under « Avancé »
      // with the file to load first (issue 44); the API takes the text as before.
      const area = el("textarea", { id: fieldId, name: key, rows: "4", maxlength: spec.max_length, onchange });
      area.value = value ?? "";
      const advanced = `advanced:${key}`;
      const open = Boolean(remembered(name, advanced, false) || area.value);
      const box = el("div", { class: "advanced-box", id: `${fieldId}-advanced`, hidden: open ? null : true },
        el("p", { class: "muted" }, t("advanced_hint")),
        spec.file ? fileLoader(fieldId, spec.file, area, onchange) : null,
        el("p", { class: "text-option" }, el("label", { for: fieldId }, spec[lang] ?? key), area));
      const toggle = el("button", { type: "button", class: "advanced-toggle", "aria-expanded": String(open), "aria-controls": box.id,
        onclick: () => {
          box.hidden = !box.hidden;
          toggle.setAttribute("aria-expanded", String(!box.hidden));
          keep(name, advanced, !box.hidden);
        } }, t("advanced"));
      fields.push(el("div", { class: "advanced" }, toggle, box));
    } else if (spec.type === "group" && spec.catalogue) {
      const select = el("select", { id: fieldId, name: key, onchange },
        ...Object.entries(spec.catalogue).map(([troop, data]) => el("option", { value: troop }, data.names?.[lang] ?? troop)));
      select.value = value;
      fields.push(el("p", {}, el("label", { for: fieldId }, seatName(key, lang)), " ", select));
    }
  }
  if (tableModule(name)) {
    fields.push(el("p", {}, el("a", { href: `#panel-${name}` }, t("setup_more", guides[name]?.[lang]?.title ?? name))));
  }
  if (!fields.length) return null;
  queueMicrotask(() => hideExcluded(ruleset));
  return el("details", { class: "options", open: chosen[name]?.open ? true : null,
    ontoggle: (event) => keep(name, "open", event.target.open) },
  el("summary", {}, t("options")), ...fields);
}

// A text option that may come from a file (Front's scenario of one's own): the file's text fills the area.
function fileLoader(fieldId, accept, area, onchange) {
  const input = el("input", { type: "file", id: `${fieldId}-file`, accept, class: "file-option" });
  input.addEventListener("change", async () => {
    const [file] = input.files;
    if (!file) return;
    area.value = await file.text();
    onchange({ target: area });
  });
  return el("p", { class: "file-loader" }, el("label", { for: `${fieldId}-file` }, t("load_file")), " ", input);
}

// The options a chosen value makes pointless (Bataille's groups once a field is chosen), by key.
function excluded(ruleset) {
  const out = new Set();
  for (const [key, spec] of Object.entries(ruleset.options_schema ?? {})) {
    if (spec.excludes && $(optionId(ruleset.name, key))?.value) for (const k of spec.excludes) out.add(k);
  }
  return out;
}

function hideExcluded(ruleset) {
  const gone = excluded(ruleset);
  for (const key of Object.keys(ruleset.options_schema ?? {})) {
    const row = $(optionId(ruleset.name, key))?.closest("p");
    if (row) row.hidden = gone.has(key);
  }
}

// What the card's options ask for, as the server wants it.
function options(ruleset) {
  const out = shelfMap?.ruleset === ruleset.name ? { map: shelfMap.id } : {};
  const gone = excluded(ruleset);
  for (const [key, spec] of Object.entries(ruleset.options_schema ?? {})) {
    const field = $(optionId(ruleset.name, key));
    if (!field || gone.has(key) || onShelfMap(ruleset.name, key)) continue;
    if (spec.type === "bool") out[key] = field.checked;
    else if (spec.type === "group") out[key] = { troop: field.value };
    else if (spec.type === "text") { if (field.value.trim()) out[key] = field.value; }
    else out[key] = field.value;
  }
  return out;
}

// -- creating ------------------------------------------------------------------------------------------
async function post(ruleset, bots, open, table = {}) {
  const id = ids(ruleset.name);
  $(id.error).textContent = "";
  const form = $(id.card);
  const buttons = [...form.querySelectorAll("button")];
  for (const button of buttons) button.disabled = true;
  try {
    const response = await fetch("/api/games", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ruleset: ruleset.name, options: options(ruleset), ...(bots ? { bots } : {}), ...(open ? { open } : {}),
        ...table }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      $(id.error).textContent = t("failed") + (body[lang] ?? response.statusText);
      return null;
    }
    return body;
  } catch (error) {
    $(id.error).textContent = t("failed") + error.message;
    return null;
  } finally {
    for (const button of buttons) button.disabled = false;
  }
}

async function playComputer(ruleset) {
  const form = $(ids(ruleset.name).versus);
  const choice = new FormData(form);
  const side = choice.get("side");
  const bots = Object.fromEntries(ruleset.seats.filter((s) => s !== side).map((s) => [s, choice.get("level")]));
  const body = await post(ruleset, bots);
  if (body) window.location.href = body.seats[side].link;
}

function hotseatLink(body) {
  const tokens = Object.entries(body.seats).map(([seat, link]) => `${seat}=${encodeURIComponent(link.token)}`);
  return `/play/${encodeURIComponent(body.id)}#${tokens.join("&")}`;
}

// The creator takes the first seat; the others wait in « Parties ouvertes » for whoever takes them.
async function openToOthers(ruleset) {
  const [mine, ...others] = ruleset.seats;
  const table = chosenTable(ruleset, true);
  const to = table.rated ? "accounts" : "anyone";  // a rated game is played between accounts
  const body = await post(ruleset, null, Object.fromEntries(others.map((seat) => [seat, to])), table);
  if (!body) return;
  remember(ruleset.name, body, mine);
  window.location.href = body.seats[mine].link;
}

async function playHotseat(ruleset) {
  const body = await post(ruleset);
  if (body) window.location.href = hotseatLink(body);
}

async function createLinks(ruleset) {
  const bots = chosenRulers(ruleset);
  const refereed = chosenReferee(ruleset);
  const body = await post(ruleset, bots, null, { ...chosenTable(ruleset, false), ...refereed });
  if (!body) return;
  const names = Object.fromEntries(Object.keys(body.seats).map((seat) => [seat, { fr: seatName(seat, "fr"), en: seatName(seat, "en") }]));
  // Under Kadesh alone nobody holds the game master's seat: the creator keeps the first kingdom a person rules.
  const masters = refereed.referee ? new Set([CREATOR[ruleset.name]]) : new Set();
  const creator = refereed.referee ? Object.keys(body.seats).find((seat) => !masters.has(seat) && !bots?.[seat])
    : CREATOR[ruleset.name] ?? Object.keys(body.seats)[0];
  try {  // a scenario names its own kingdoms
    const game = await (await fetch(`/api/games/${encodeURIComponent(body.id)}`, {
      headers: { Authorization: `Bearer ${body.seats[creator].token}` } })).json();
    for (const kingdom of game.view?.kingdoms ?? []) if (kingdom.names) names[kingdom.id] = kingdom.names;
  } catch { /* the static names will do */ }
  created[ruleset.name] = { body, names, creator, bots: bots ?? {}, masters, days: refereed.clock?.days_per_move };
  remember(ruleset.name, body, creator);
  const id = ids(ruleset.name);
  await renderMyGames($("my-games-section"), { lang, rulesets, guides, account });  // before scrolling: the list may push the card
  $(id.card).replaceWith(card(ruleset));
  const block = $(id.created);
  block.scrollIntoView({ block: "start" });
  block.querySelector("h4").focus({ preventScroll: true });
}

// The creator's seat goes into « Mes parties » at once: closing the tab must not lose the game.
function remember(name, body, seat) {
  const games = JSON.parse(localStorage.getItem("kadesh.games") || "[]").filter((g) => g.token !== body.seats[seat].token);
  games.unshift({ id: body.id, token: body.seats[seat].token, seat, ruleset: name, link: body.seats[seat].link, opened: Date.now() });
  localStorage.setItem("kadesh.games", JSON.stringify(games.slice(0, 50)));
}

function absolute(link) {
  return new URL(link, window.location.origin).href;
}

function copyButton(url, what) {
  const button = el("button", { type: "button", class: "copy", "aria-label": t("copy_label", what) }, t("copy"));
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {  // no clipboard (plain http, old browser): select the text for the player to copy
      button.closest("tr, p")?.querySelector("input")?.select();
    }
    button.textContent = t("copied");
  });
  return button;
}

function linkRow(label, link, side) {
  const url = absolute(link);
  return el("tr", {}, el("th", { scope: "row" }, label),
    el("td", { class: "url" }, el("input", { value: url, readonly: true, "aria-label": t("link_label", label) })),
    el("td", {}, copyButton(url, label)),
    el("td", {}, el("a", { href: url, "data-side": side }, t("open"))));
}

function computerRow(label, level) {
  return el("tr", { class: "computer-seat" }, el("th", { scope: "row" }, label),
    el("td", { colspan: "3", class: "muted" }, t("ruled_by_computer", level)));
}

function refereeRow(label) {
  return el("tr", { class: "referee-seat" }, el("th", { scope: "row" }, label),
    el("td", { colspan: "3", class: "muted" }, t("refereed_by_kadesh")));
}

function createdBlock(ruleset, id) {
  const { body, names, creator, bots, masters, days } = created[ruleset.name];
  const name = (seat) => names[seat]?.[lang] ?? seatName(seat, lang);
  const seats = Object.keys(body.seats);
  const others = seats.filter((s) => s !== creator);
  const campaign = seats.length > 2;
  const levelTitle = (level) => (ruleset.bots ?? []).find((b) => b.level === level)?.title[lang] ?? level;
  const rows = seats.flatMap((seat) => (masters.has(seat) ? [refereeRow(name(seat))] : bots?.[seat]
    ? [computerRow(name(seat), levelTitle(bots[seat]))]
    : [linkRow(body.lords?.[seat] ? t("chief_of", name(seat)) : name(seat), body.seats[seat].link, seat),
      ...(body.lords?.[seat] ? [linkRow(t("lord_of", name(seat)), body.lords[seat].link, `lord-${seat}`)] : [])]));
  rows.push(linkRow(t("spectator"), body.spectator.link, "spectator"));
  const ownerUrl = absolute(body.owner.link);
  const help = masters.size ? t("campaign_help_kadesh", name(creator), days) : campaign ? t("campaign_help")
    : t("links_help", seatName(creator, lang, true), others.map((s) => t("link_of", seatName(s, lang, 2))).join(t("and")));
  const first = el("a", { id: id.first, class: "primary", href: body.seats[creator].link },
    masters.size ? t("play_seat", SEATS[lang][creator] ? seatName(creator, lang, true) : name(creator)) : campaign ? t("open_console") : t("play_seat", seatName(creator, lang, true)));
  return el("section", { class: "created", id: id.created, "aria-labelledby": `${id.created}-title` },
    el("h4", { id: `${id.created}-title`, tabindex: "-1" }, campaign ? t("campaign_ready") : t("ready")),
    el("p", {}, help),
    el("p", { class: "ways" }, first,
      campaign ? null : el("a", { id: id.hotseatLink, href: hotseatLink(body) }, t("hotseat"))),
    el("table", { class: "links" }, el("tbody", { id: id.links }, ...rows)),
    el("p", { class: "muted small" }, t("spectator_help")),
    el("div", { class: "owner" },
      el("p", { class: "owner-link" }, el("label", { for: `${id.created}-owner` }, t("owner")),
        el("input", { id: `${id.created}-owner`, value: ownerUrl, readonly: true }), copyButton(ownerUrl, t("owner"))),
      el("p", { class: "muted small" }, t("owner_help"))),
    el("details", { class: "dice" }, el("summary", {}, t("dice")),
      el("p", {}, t("dice_help")),
      el("p", {}, `${t("fingerprint")} : `, el("code", { id: id.commitment }, body.commitment))));
}

// -- set-up tables from the view modules ------------------------------------------------------------------
const modules = {};  // ruleset → its view module, when it offers a set-up table the card does not cover

function tableModule(name) {
  return modules[name] ?? null;
}

async function loadModules() {
  await Promise.all(rulesets.map(async ({ name }) => {
    const [guide, module] = await Promise.all([
      import(`/static/rules/${name}-guide.js`).catch(() => null),
      COVERED_BY_CARD.has(name) ? null : import(`/static/rules/${name}.js`).catch(() => null),
    ]);
    if (guide?.GUIDE) guides[name] = guide.GUIDE;
    if (guide?.lobbyPicture) pictures[name] = guide.lobbyPicture;
    if (module?.setup) {
      modules[name] = module;
      if (!document.querySelector(`link[data-ruleset="${name}"]`)) {
        document.head.append(el("link", { rel: "stylesheet", href: `/static/rules/${name}.css`, "data-ruleset": name }));
      }
    }
  }));
}

function renderPanels() {
  const panels = [];
  for (const ruleset of rulesets) {
    const module = tableModule(ruleset.name);
    if (!module) continue;
    const title = guides[ruleset.name]?.[lang]?.title ?? ruleset.title[lang];
    const body = el("div", {});
    panels.push(el("section", { id: `panel-${ruleset.name}`, class: "card ruleset-panel", "aria-labelledby": `panel-${ruleset.name}-title` },
      el("h2", { id: `panel-${ruleset.name}-title` }, t("setup_title", title)), el("p", { class: "muted" }, t("setup_help")), body));
    module.setup(body, { ruleset, lang, create: createFor, simulate: (request) => simulateFor(ruleset.name, request) });
  }
  $("panels").replaceChildren(...panels);
}

async function createFor(request) {
  $("error").textContent = "";
  const response = await fetch("/api/games", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request),
  });
  const body = await response.json().catch(() => ({}));
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
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    $("error").textContent = body[lang] ?? response.statusText;
    return null;
  }
  return body;
}

// -- a map of the shelf ----------------------------------------------------------------------------------
function dropShelfMap(ruleset) {
  shelfMap = null;
  forgetMapInAddress();
  delete seatsFor[ruleset.name];
  render();
  $(ids(ruleset.name).card)?.focus();
}

// The card of the map's game, brought into view with the map chosen (its kingdoms asked for, a campaign's rulers).
async function showShelfMap() {
  if (!shelfMap) return;
  if (shelfMap.gone) {
    $("error").textContent = goneNote(lang);
    shelfMap = null;
    return;
  }
  const ruleset = rulesets.find((r) => r.name === shelfMap.ruleset);
  if (!ruleset) return;
  await refreshRulers(ruleset);
  const shown = $(ids(ruleset.name).card);
  shown?.scrollIntoView({ block: "start" });
  shown?.setAttribute("tabindex", "-1");
  shown?.focus({ preventScroll: true });
}

// -- the page ------------------------------------------------------------------------------------------
function render() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  $("lang").textContent = t("toggle");
  $("lang").lang = lang === "fr" ? "en" : "fr";  // the button speaks the other language
  $("lobby").replaceChildren(...rulesets.map(card));
  renderPanels();
  $("account-link").textContent = account ? account.name : t("sign_in");
  $("leaderboards-link").textContent = t("leaderboards");
  $("design-link").textContent = t("design");
  $("watch-link").textContent = t("watching");
  $("maps-link").textContent = t("maps");
  renderMyGames($("my-games-section"), { lang, rulesets, guides, account });
  renderOpenGames($("open-games-section"), { lang, rulesets, guides, account });
}

$("lang").addEventListener("click", () => {
  lang = lang === "fr" ? "en" : "fr";
  localStorage.setItem("kadesh.lang", lang);
  render();
});

[rulesets, account, shelfMap] = await Promise.all([
  fetch("/api/rulesets").then((r) => r.json()),
  fetch("/api/session").then((r) => r.json()).then((body) => body.account ?? null).catch(() => null),
  mapInAddress(),
]);
rulesets = inPlayOrder(rulesets);
await loadModules();
render();
await showShelfMap();
followOpenGames($("open-games-section"));
if (account) await resumePairing(redrawPairing);  // a wait for an opponent begun before goes on
document.body.dataset.ready = "true";

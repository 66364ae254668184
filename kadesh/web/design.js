// The designer (/design, issue 61): a map drawn on the game's own board, checked live by the server. The page's
// state is the map's document (its TOML as JSON); each edit is undoable (Ctrl+Z, Ctrl+Y), and a moment after the
// last one the server checks the document (POST /api/maps/check): each fault it names is shown on its cell or
// field, in its words, and « Jouable » once none is left. A playable map can be previewed as each side sees it,
// tried against the computer in one click, downloaded as its TOML text, and saved or published by a signed-in
// player; back from trying it, the map is as it was left (the tab keeps the work in hand). The ruleset's part (its
// palette, settings and drawing) is its own module: rules/<ruleset>-design.js.

import { el } from "./dom.js";
import { drawHeader, onLanguageSwitch, startingLang } from "./page.js";
import { TEXT } from "./design-words.js";
import * as maps from "./maps-api.js";

const CHECK_AFTER_MS = 350;   // the pause after an edit before the server is asked: a stroke is checked once
const UNDO_DEPTH = 200;
const NAME_LENGTH = 80, DESCRIPTION_LENGTH = 2000;  // the shelf's own limits (kadesh/store/maps.py)
const KEPT = "kadesh.design";  // the tab's work in hand (sessionStorage)
const $ = (id) => document.getElementById(id);

let lang = startingLang(TEXT);
const t = () => TEXT[lang];
const params = new URLSearchParams(location.search);
const DESIGNABLE = ["front", "royaumes"];
// /design?map=<id>: one's draft; /design?from=<id>: a copy of a published map; either is drawn by its own game's part.
const shelfId = params.get("map") ?? params.get("from");
const fromShelf = shelfId ? await maps.fetchMap(shelfId) : null;
const wanted = fromShelf?.body?.ruleset ?? params.get("ruleset");
const ruleset = DESIGNABLE.includes(wanted) ? wanted : "front";
const rules = (await fetch("/api/rulesets").then((r) => r.json()).catch(() => [])).find((r) => r.name === ruleset) ?? {};
const designs = await import(`/static/rules/${ruleset}-design.js`);

let doc = designs.blank({ words: t() });
let undone = [], redone = [], strokeSaved = false;
let checked = { faults: [], playable: false, toml: "" };
let checking = true, asked = 0, timer = null;
let edits = 0;  // edits made: an answer about a map edited since it was asked is not this map's verdict
let refused = null;  // why the server gave no verdict (out of reach, too many checks, a text too long), or null
let part = null;
let account = null, draftId = null;
let namedByHand = false;  // the shelf's name follows the map's title until the player writes one
let shelfFields = { name: "", description: "" };  // the name and description shown first: one's draft's, the work kept
let shelfNote = "";  // what became of the map the address asked for, said once the page is drawn
let download = null;  // the object URL of the text offered for download

// -- editing ----------------------------------------------------------------------------------------------------
function edit(change, continues = false) {
  if (!continues) strokeSaved = false;
  const before = JSON.stringify(doc);
  const next = JSON.parse(before);
  change(next);
  if (JSON.stringify(next) === before) return;
  if (!strokeSaved) {
    undone.push(before);
    if (undone.length > UNDO_DEPTH) undone.shift();
    strokeSaved = true;
  }
  redone = [];
  doc = next;
  changed();
}
function undo() {
  if (!undone.length) return;
  redone.push(JSON.stringify(doc));
  doc = JSON.parse(undone.pop());
  strokeSaved = false;
  changed();
}
function redo() {
  if (!redone.length) return;
  undone.push(JSON.stringify(doc));
  doc = JSON.parse(redone.pop());
  strokeSaved = false;
  changed();
}
function changed() {
  edits += 1;
  checking = true;
  drawDocument();
  clearTimeout(timer);
  timer = setTimeout(check, CHECK_AFTER_MS);
}

// -- the server's check -----------------------------------------------------------------------------------------
async function check() {
  const mine = ++asked, edit = edits;
  const answer = await maps.check(ruleset, { document: doc });
  // Overtaken by a newer check, or by an edit whose own check follows: not the verdict of the map shown.
  if (mine !== asked || edit !== edits) return;
  checking = false;
  refused = answer.ok ? null : answer.status ? answer.body[lang] ?? String(answer.status) : t().unreachable;
  if (answer.ok) checked = answer.body;
  if (answer.status === 429) {  // past the rate of checks: asked again when the server says
    refused = t().tooFast;
    timer = setTimeout(check, 1000 * (Number(answer.body.retry_after) || 5));
  }
  drawDocument();
  document.body.dataset.checked = String(asked);
}

function faultText(fault) {
  return lang === "en" ? fault.message_en ?? fault.message : fault.message;
}

function drawVerdict() {
  const faults = checked.faults ?? [];
  const verdict = $("design-verdict");
  verdict.dataset.state = refused ? "down" : checking ? "checking" : faults.length ? "faults" : "playable";
  verdict.textContent = refused ?? (checking ? t().checking : faults.length ? t().unplayable(faults.length) : t().playable);
  $("design-faults").replaceChildren(...faults.map((fault) => el("li", {}, el("span", {}, faultText(fault)),
    fault.cell ? el("button", { type: "button", class: "design-see", onclick: () => part.centerOn(fault.cell) }, t().faultAt(fault.cell)) : null)));
  for (const node of document.querySelectorAll(".design-field-fault")) { node.hidden = true; node.textContent = ""; }
  for (const node of document.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
  for (const fault of faults) {
    const field = fault.where ? part.fieldOf(fault.where) : null;
    const note = field?.querySelector(":scope > .design-field-fault");
    if (!note) continue;
    note.hidden = false;
    note.textContent = faultText(fault);
    for (let fold = field.closest("details"); fold; fold = fold.parentElement?.closest("details")) fold.open = true;
    const control = field.querySelector("input, select");
    control?.setAttribute("aria-invalid", "true");
    control?.setAttribute("aria-describedby", note.id);
  }
  const ready = !checking && !refused && checked.playable;
  const seats = part.seats();
  const shown = [...$("design-previews").children].map((b) => b.dataset.seat).join(" ");
  if (shown !== seats.map((s) => s.seat).join(" ")) {
    $("design-previews").replaceChildren(...seats.map((s) => el("button", { type: "button", id: `design-preview-${s.seat}`,
      "data-seat": s.seat, onclick: () => preview(s) }, s.label)));
  }
  for (const button of [...$("design-previews").children, $("design-play")]) button.disabled = !ready;
  $("design-try-hint").textContent = ready ? part.againstTheComputer().hint : t().notPlayable;
}

function drawText() {
  const area = $("design-toml");
  if (checked.toml && document.activeElement !== area && area.dataset.shown !== checked.toml) {
    area.value = checked.toml;
    area.dataset.shown = checked.toml;
  }
  if (download) URL.revokeObjectURL(download);
  download = URL.createObjectURL(new Blob([checked.toml ?? ""], { type: "application/toml" }));
  const link = $("design-download");
  link.href = download;
  link.download = `${fileName(doc.scenario?.[lang] ?? doc.scenario?.fr ?? "")}.toml`;
}
const fileName = (title) => title.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-")
  .replace(/^-|-$/g, "") || "scenario";

function drawDocument() {
  part.draw(doc, checked.faults ?? []);  // the last answer's faults stay shown while the next is awaited
  drawVerdict();
  drawText();
  if ($("design-name") && !namedByHand) $("design-name").value = doc.scenario?.[lang] ?? doc.scenario?.fr ?? "";
  $("design-undo").disabled = !undone.length;
  $("design-redo").disabled = !redone.length;
}

// -- trying the map ---------------------------------------------------------------------------------------------
async function preview({ seat, title }) {
  const status = $("design-try-status");
  status.textContent = "";
  const answer = await maps.preview(ruleset, checked.toml, seat);
  if (!answer.ok) { status.textContent = t().failed(answer.body[lang] ?? answer.status); return; }
  const section = $("design-preview");
  section.hidden = false;
  const heading = $("design-preview-title");
  heading.textContent = title;
  const host = $("design-preview-map");
  host.replaceChildren();
  part.drawPreview(host, answer.body.view, seat);
  heading.focus();
}

async function playComputer() {
  const status = $("design-try-status");
  status.textContent = "";
  const level = rules.bots?.find((b) => b.level !== "random")?.level ?? rules.bots?.[0]?.level;
  const { seat: mine, body: shape } = part.againstTheComputer(level);
  const response = await fetch("/api/games", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ruleset, options: { scenario_toml: checked.toml }, ...shape }),
  }).catch(() => null);
  const body = await response?.json().catch(() => ({}));
  if (!response?.ok) { status.textContent = t().failed(body?.[lang] ?? response?.statusText ?? ""); return; }
  // in « Mes parties » at once, as the lobby does: closing the tab must not lose the game
  const seat = body.seats[mine];
  const games = JSON.parse(localStorage.getItem("kadesh.games") || "[]").filter((g) => g.token !== seat.token);
  games.unshift({ id: body.id, token: seat.token, seat: mine, ruleset, link: seat.link, opened: Date.now() });
  localStorage.setItem("kadesh.games", JSON.stringify(games.slice(0, 50)));
  location.href = seat.link;
}

// -- the text: in through the server's check (a document back), out as a download --------------------------------
async function loadText(text) {
  const note = $("design-text-status");
  const answer = await maps.check(ruleset, { toml: text });
  if (!answer.ok || !answer.body.document) {
    note.textContent = [t().notToml, ...(answer.body.faults ?? []).map(faultText)].join(" ");
    return;
  }
  note.textContent = t().loaded;
  const loaded = answer.body.document;
  edit((d) => { for (const key of Object.keys(d)) delete d[key]; Object.assign(d, loaded); });
}

// -- the shelf ----------------------------------------------------------------------------------------------------
function shelfTree() {
  if (!account) {
    return [el("p", {}, t().signInToSave, " ", el("a", { href: "/account" }, t().signIn))];
  }
  const title = doc.scenario?.[lang] ?? doc.scenario?.fr ?? "";
  return [
    el("div", { class: "design-field" }, el("label", { for: "design-name" }, t().mapName),
      el("input", { id: "design-name", maxlength: NAME_LENGTH, value: $("design-name")?.value || shelfFields.name || title,
        oninput: () => { namedByHand = true; } })),
    el("div", { class: "design-field" }, el("label", { for: "design-description" }, t().description),
      el("textarea", { id: "design-description", rows: 3, maxlength: DESCRIPTION_LENGTH },
        $("design-description")?.value ?? shelfFields.description)),
    el("div", { class: "design-buttons" },
      el("button", { type: "button", id: "design-save", onclick: save }, t().save),
      el("button", { type: "button", id: "design-publish", class: "primary", onclick: publish }, t().publish)),
    el("details", { class: "design-mine", ontoggle: (event) => { if (event.target.open) drawMine(); } },
      el("summary", {}, t().myMaps), el("ul", { id: "design-mine-list" })),
  ];
}
// One's maps (GET /api/maps/mine), asked for when their list is unfolded: each opened here, a published one taken
// off the shelf (a draft again, to change: games played on it keep their copy).
async function drawMine() {
  const answer = await maps.mine();
  const items = answer.ok ? answer.body.map(mineItem) : [el("li", {}, t().shelfDown)];
  $("design-mine-list")?.replaceChildren(...(items.length ? items : [el("li", { class: "muted" }, t().mineEmpty)]));
}
function mineItem(map) {
  const w = t(), published = map.status === "published";
  const unpublish = async () => {
    const answer = await maps.unpublish(map.id);
    $("design-shelf-status").textContent = answer.ok ? w.unpublished(map.name) : w.failed(answer.body[lang] ?? answer.status);
    await drawMine();
  };
  return el("li", { "data-map": map.id }, el("span", {}, `${map.name} · ${w.games[map.ruleset] ?? ""} · ${published ? w.publishedState : w.draftState}`),
    " ", el("a", { href: `/design?map=${encodeURIComponent(map.id)}`, "aria-label": w.openLabel(map.name) }, w.open),
    published ? el("button", { type: "button", class: "design-unpublish", "aria-label": w.unpublishLabel(map.name), onclick: unpublish },
      w.unpublish) : null);
}
async function save() {
  const status = $("design-shelf-status");
  if (checking) { clearTimeout(timer); await check(); }  // the text saved is the map as drawn now, not as last checked
  const answer = await maps.saveDraft(draftId, { ruleset, name: $("design-name").value, description: $("design-description").value,
    toml: checked.toml });
  if (!answer.ok) { status.textContent = answer.status ? t().failed(answer.body[lang] ?? answer.status) : t().shelfDown; return false; }
  draftId = answer.body.id;
  history.replaceState(null, "", `/design?map=${encodeURIComponent(draftId)}`);
  status.textContent = t().saved;
  return true;
}
async function publish() {
  if (!(await save())) return;
  const answer = await maps.publish(draftId);
  const status = $("design-shelf-status");
  if (!answer.ok) { status.textContent = t().failed(answer.body[lang] ?? answer.status); return; }
  status.replaceChildren(t().published, " ",
    el("a", { id: "design-on-shelf", href: `/maps?ruleset=${encodeURIComponent(ruleset)}` }, t().onShelf));
}
// The map the address names, as the shelf gave it: drawn from its text, through the server's check.
async function openFromShelf() {
  if (!fromShelf) return;
  if (!fromShelf.ok || typeof fromShelf.body.toml !== "string") {
    shelfNote = fromShelf.status === 404 ? t().noSuchMap : t().shelfDown;
    return;
  }
  if (params.has("map")) {  // one's draft: saved again under its own name, not the map's title
    draftId = shelfId;
    shelfFields = { name: fromShelf.body.name ?? "", description: fromShelf.body.description ?? "" };
  }
  const loaded = await maps.check(ruleset, { toml: fromShelf.body.toml });
  if (loaded.ok && loaded.body.document) { doc = loaded.body.document; undone = []; redone = []; }
}

// A blank map of the same game, in place of the one drawn (undoable): saved, it is a new draft.
function newMap() {
  draftId = null;
  namedByHand = false;
  shelfFields = { name: "", description: "" };
  if ($("design-description")) $("design-description").value = "";
  $("design-shelf-status").textContent = "";
  history.replaceState(null, "", `/design?ruleset=${encodeURIComponent(ruleset)}`);
  edit((d) => { for (const key of Object.keys(d)) delete d[key]; Object.assign(d, designs.blank({ words: t() })); });
}

// -- the work in hand, kept for the tab ---------------------------------------------------------------------------
// Trying the map against the computer leaves the page: the way back (or a reload) finds the map as it was, with its
// draft, name and description, rather than a blank one. The tab keeps the last page's work, for its address alone:
// another address (another game's designer, a draft saved since) opens as it would.
const here = () => `${location.pathname}${location.search}`;
function keepWork() {
  const work = { address: here(), ruleset, doc, draftId, name: namedByHand ? $("design-name")?.value ?? "" : "",
    description: $("design-description")?.value ?? shelfFields.description };
  try {
    sessionStorage.setItem(KEPT, JSON.stringify(work));
  } catch { /* refused, or full: the work stays on the page alone */ }
}
function takeUpKeptWork() {
  let work = null;
  try { work = JSON.parse(sessionStorage.getItem(KEPT) ?? "null"); } catch { /* none to take up */ }
  if (work?.address !== here() || work.ruleset !== ruleset || typeof work.doc !== "object" || !work.doc) return;
  doc = work.doc;
  draftId = work.draftId ?? draftId;
  shelfFields = { name: work.name || shelfFields.name, description: work.description ?? shelfFields.description };
}
addEventListener("pagehide", keepWork);

// -- the page -----------------------------------------------------------------------------------------------------
function build() {
  const w = t();
  drawHeader(lang, w);
  const button = (id, text, onclick, extra = {}) => el("button", { type: "button", id, onclick, ...extra }, text);
  const fileInput = el("input", { type: "file", id: "design-file", accept: ".toml,text/plain", class: "visually-hidden",
    onchange: async (event) => { const file = event.target.files[0]; if (file) { $("design-toml").value = await file.text(); loadText($("design-toml").value); } } });
  $("design").replaceChildren(
    el("h2", {}, w.title),
    el("p", { class: "intro muted" }, w.intro[ruleset]),
    el("nav", { class: "design-games", "aria-label": w.whichGame }, ...DESIGNABLE.map((name) =>
      el("a", { href: `/design?ruleset=${name}`, class: "button", "aria-current": name === ruleset ? "page" : null }, w.games[name]))),
    el("div", { class: "design-check card" },
      el("p", { id: "design-verdict", role: "status", "aria-live": "polite" }),
      el("ul", { id: "design-faults", class: "design-faults" })),
    el("div", { class: "design-layout" },
      el("section", { class: "design-board", "aria-labelledby": "design-map-title" },
        el("div", { class: "design-board-head" }, el("h3", { id: "design-map-title" }, w.map),
          el("div", { class: "design-buttons" }, button("design-undo", w.undo, undo, { "aria-keyshortcuts": "Control+Z" }),
            button("design-redo", w.redo, redo, { "aria-keyshortcuts": "Control+Y" }), button("design-new", w.newMap, newMap))),
        el("p", { id: "design-current", class: "design-current" }),
        el("div", { id: "design-map", class: "front-map-host" }),
        el("p", { class: "muted design-keys" }, w.keys)),
      el("section", { class: "design-palette", "aria-labelledby": "design-palette-title" },
        el("h3", { id: "design-palette-title" }, w.palette), el("div", { id: "design-palette" })),
      el("div", { class: "design-side" },
        el("section", { class: "card", "aria-labelledby": "design-try-title" }, el("h3", { id: "design-try-title" }, w.tryIt),
          el("div", { class: "design-buttons", id: "design-previews" }),
          el("div", { class: "design-buttons" }, button("design-play", w.playComputer, playComputer, { class: "primary" })),
          el("p", { id: "design-try-hint", class: "muted" }), el("p", { id: "design-try-status", role: "status", class: "problem" })),
        el("section", { class: "card", "aria-labelledby": "design-settings-title" },
          el("h3", { id: "design-settings-title" }, w.settings), el("div", { id: "design-settings" })),
        el("details", { class: "card design-text" }, el("summary", {}, w.text),
          el("p", { class: "muted" }, w.textHint),
          el("label", { for: "design-toml" }, w.textLabel),
          el("textarea", { id: "design-toml", rows: 12, spellcheck: "false" }),
          el("div", { class: "design-buttons" }, button("design-load", w.load, () => loadText($("design-toml").value)),
            el("label", { for: "design-file", class: "button" }, w.openFile), fileInput,
            el("a", { id: "design-download", class: "button", href: "#", download: "scenario.toml" }, w.download)),
          el("p", { id: "design-text-status", role: "status" })),
        el("section", { class: "card", "aria-labelledby": "design-shelf-title" }, el("h3", { id: "design-shelf-title" }, w.shelf),
          el("div", { id: "design-shelf" }, ...shelfTree()), el("p", { id: "design-shelf-status", role: "status" })))),
    el("section", { id: "design-preview", class: "card design-preview", hidden: true, "aria-labelledby": "design-preview-title" },
      el("div", { class: "design-board-head" }, el("h3", { id: "design-preview-title", tabindex: "-1" }),
        button("design-preview-close", w.closePreview, () => { $("design-preview").hidden = true; $("design-previews").firstChild?.focus(); })),
      el("div", { id: "design-preview-map", class: "front-map-host" })));
  part = designs.createDesign({ lang, glossary: rules.glossary ?? {}, edit, words: w },
    { map: $("design-map"), palette: $("design-palette"), settings: $("design-settings"), current: $("design-current") });
  drawDocument();
}

document.addEventListener("keydown", (event) => {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
  if (event.target.closest?.("input, textarea, select")) return;  // the field's own undo
  const key = event.key.toLowerCase();
  if (key === "z" && !event.shiftKey) { event.preventDefault(); undo(); }
  else if (key === "y" || (key === "z" && event.shiftKey)) { event.preventDefault(); redo(); }
});

onLanguageSwitch(() => lang, (chosen) => {
  lang = chosen;
  build();
});

[account] = await Promise.all([maps.signedIn(), openFromShelf()]);
takeUpKeptWork();
namedByHand = Boolean(shelfFields.name);
build();
$("design-shelf-status").textContent = shelfNote;
await check();
document.body.dataset.ready = "true";

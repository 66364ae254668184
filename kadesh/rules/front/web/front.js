// Front's page: the map (front-map.js) and around it the orders of the selected unit, the information
// panel (front-panel.js) and the end of the turn. Click or pick with the cursor one of your units: the
// cells it may reach and the targets it may hit come from the server's legal actions; pointing at a cell
// asks the server for the way and its cost, pointing at a target for the damage and the chance of
// destroying it; a second click (or Enter) gives the order, Escape takes it back, Tab ends the turn.

import { el } from "/static/dom.js";
import { createMap } from "/static/rules/front-map.js";
import { ORDER_WORDS, FIRE, layerOf, actionKey as key, keyed, costText, oddsText, ordersBar }
  from "/static/rules/front-orders.js";
import { WORDS, namer, clock, unitCard, cellCard, pointsCard, missionCard, otherTurn, traces, summaryBox }
  from "/static/rules/front-panel.js";

// The ruleset's words and numbers (names, hit points, costs…), from the server, once.
const GLOSSARY = await fetch("/api/rulesets").then((r) => r.json())
  .then((all) => all.find((r) => r.name === "front")?.glossary ?? {}).catch(() => ({}));

export function seatName(_view, seat, lang) {  // the game page calls seatName(view, seat, lang)
  return WORDS[lang === "en" ? "en" : "fr"].sides[seat] ?? seat;
}

// -- what the page remembers between two drawings ---------------------------------------------------
let ctx = null;          // the shell's latest
let ui = null;           // the page's lasting parts: the map keeps its zoom and pan from one drawing to the next
let version = null;
let selected = null;     // own unit id
let inspected = null;    // a cell looked at (an enemy, a point…)
let hovered = null;      // the cell under the pointer or the map's cursor
let pending = null;      // {kind: "move"|"aim"|"order", cell, …}: what a second click gives
let choosing = null;     // {label, actions: Map(cell → action)}: an order waiting for its cell
let journalCell = null;  // a cell named by the journal line under the pointer
let busy = false;        // an order is on its way: nothing else is sent meanwhile
let answers = new Map(); // previews and odds of this version, by action
let summaryShut = null;  // the turn whose summary was closed
let lastTurn = null;     // the turn and side drawn last

const lang = () => (ctx?.lang === "en" ? "en" : "fr");
const words = () => ORDER_WORDS[lang()];
const names = () => namer(lang(), GLOSSARY);
const units = () => ctx.view.units ?? [];
const unitById = (id) => units().find((u) => u.id === id);
const onMap = (u) => u.cell && !u.aboard;
const myTurn = () => ctx.legal.some((a) => a.type === "end_turn");
const mayResign = () => ctx.legal.some((a) => a.type === "resign");  // at any time while the battle runs
const actionsOf = (id) => ctx.legal.filter((a) => a.unit === id);

// Ask the server once per version and action; the answer redraws what waits for it.
function ask(kind, action) {
  const id = `${kind}:${key(action)}`;
  if (!answers.has(id)) {
    const entry = { value: undefined, error: null };
    entry.promise = (kind === "preview" ? ctx.preview(action) : ctx.odds(action))
      .then((value) => { entry.value = value; }, (error) => { entry.value = null; entry.error = error.message; })
      .then(() => { if (answers.get(id) === entry) update(); });
    answers.set(id, entry);
  }
  return answers.get(id);
}

// -- the map's state from the legal actions -----------------------------------------------------------
function movesOf(id) {
  return new Map(actionsOf(id).filter((a) => a.type === "move").map((a) => [a.to, a]));
}
function firesOf(id) {
  return actionsOf(id).filter((a) => FIRE.has(a.type));
}

function spentUnits() {
  if (!myTurn()) return new Set();
  const acting = new Set(ctx.legal.map((a) => a.unit));
  return new Set(units().filter((u) => u.side === ctx.seat && onMap(u) && !acting.has(u.id)).map((u) => u.id));
}

function mapState() {
  const unit = unitById(selected);
  const reachable = new Set(busy ? [] : choosing ? choosing.actions.keys() : selected ? movesOf(selected).keys() : []);
  const targets = new Map();
  if (selected && !busy && !choosing) {
    for (const a of firesOf(selected)) {
      const layer = layerOf(a);
      if (!targets.has(a.target) || layer === "ground") targets.set(a.target, layer);
    }
  }
  let path = [];
  const shown = pending?.kind === "move" ? pending.cell : !pending && !choosing && reachable.has(hovered) ? hovered : null;
  if (shown && unit) {  // a way pointed at is drawn once its answer is in (asked after a short pause)
    const move = movesOf(selected).get(shown);
    const answer = pending ? ask("preview", move) : answers.get(`preview:${key(move)}`);
    if (answer?.value?.path) path = [unit.cell, ...answer.value.path];
  }
  return { view: ctx.view, seat: ctx.seat, selected, reachable, path, targets, spent: spentUnits(),
    hover: journalCell ?? pending?.cell ?? null, traces: tracesShown() };
}

// -- clicks and keys on the map -----------------------------------------------------------------------
function onCell(cell, info = {}) {
  if (!ctx || busy) return;
  inspected = cell;
  if (pending && pending.cell === cell && (pending.kind !== "aim" || !info.layer || pending.layers.has(info.layer))) {
    return confirm();
  }
  if (choosing) {
    const action = choosing.actions.get(cell);
    pending = action ? { kind: "order", cell, action, label: choosing.label } : null;
    if (!action) choosing = null;
    return update();
  }
  const clickedUnit = info.unit ? unitById(info.unit) : null;
  if (selected) {
    const aims = firesOf(selected).filter((a) => a.target === cell);
    if (aims.length) {
      const layer = info.layer ?? layerOf(aims[0]);
      const first = aims.filter((a) => layerOf(a) === layer || (layer === "ground" && layerOf(a) === "structure"));
      const options = [...first, ...aims.filter((a) => !first.includes(a))];
      pending = { kind: "aim", cell, options, layers: new Set(first.length ? first.map(layerOf) : options.map(layerOf)) };
      for (const a of options) ask("odds", a);
      return update();
    }
    const move = movesOf(selected).get(cell);
    if (move && !(clickedUnit && clickedUnit.side === ctx.seat && clickedUnit.id !== selected)) {
      pending = { kind: "move", cell, action: move };
      return update();
    }
  }
  const own = clickedUnit?.side === ctx.seat ? clickedUnit
    : units().find((u) => u.side === ctx.seat && onMap(u) && u.cell === cell && (info.layer !== "air" || u.flying));
  pending = null;
  if (own) selected = selected === own.id ? null : own.id;
  update();
}

// The pointer or the cursor on a cell: the panel tells of it at once; the way there, or the odds of a shot at
// it, are asked for once the pointer has rested a moment (not for every cell it crosses).
let resting = null;
function onHover(cell) {
  if (!ctx || cell === hovered) return;
  hovered = cell;
  clearTimeout(resting);
  if (selected && !pending && !choosing) {
    resting = setTimeout(() => {
      if (hovered !== cell || !selected || pending || choosing) return;
      const move = movesOf(selected).get(cell);
      if (move) ask("preview", move);
      for (const a of firesOf(selected).filter((f) => f.target === cell)) ask("odds", a);
    }, 60);
  }
  update({ map: selected && !pending && !choosing });
}

function confirm() {
  if (!pending) return;
  const action = pending.kind === "aim" ? pending.options[0] : pending.action;
  play(action);
}

function cancel() {
  if (pending) pending = null;
  else if (choosing) choosing = null;
  else if (selected) selected = null;
  else if (summary()) summaryShut = turnKey();
  else return false;
  update();
  return true;
}

async function play(action) {
  if (busy || !ctx) return;
  busy = true;
  pending = null;
  choosing = null;
  summaryShut = turnKey();
  update();
  try {
    await ctx.act(action);
  } finally {
    busy = false;
    update();
  }
}

// -- the end of the turn --------------------------------------------------------------------------------
function stillActing() {
  const acting = new Set(ctx.legal.filter((a) => a.unit).map((a) => a.unit));
  return units().filter((u) => acting.has(u.id));
}

function askEndTurn() {
  if (!ctx || busy || !myTurn()) return;
  const waiting = stillActing();
  if (!waiting.length) return play({ type: "end_turn" });
  const t = words();
  const n = names();
  const shown = waiting.slice(0, 6).map((u) => el("li", {}, `${n.unit(u)} · ${t.ap(u.ap)}`));
  if (waiting.length > 6) shown.push(el("li", {}, t.more(waiting.length - 6)));
  const yes = el("button", { type: "button", class: "primary", id: "front-end-yes",
    onclick: () => { ui.dialog.close(); play({ type: "end_turn" }); } }, t.endYes);
  const no = el("button", { type: "button", id: "front-end-no", onclick: () => ui.dialog.close() }, t.endNo);
  ui.dialog.replaceChildren(el("h2", { id: "front-end-title" }, t.endTitle), el("p", {}, t.endText(waiting.length)),
    el("ul", { class: "front-list" }, ...shown), el("div", { class: "front-dialog-buttons" }, yes, no));
  ui.dialog.showModal();
  yes.focus();
}

// -- resigning: the other side wins; asked first, « Non » at hand ---------------------------------------------------
function askResign() {
  if (!ctx || busy || !mayResign()) return;
  const t = words();
  const yes = el("button", { type: "button", id: "confirm-resign",
    onclick: () => { ui.dialog.close(); play({ type: "resign" }); } }, t.resignYes);
  const no = el("button", { type: "button", id: "cancel-resign", onclick: () => ui.dialog.close() }, t.resignNo);
  const other = seatName(ctx.view, ctx.seat === "blue" ? "red" : "blue", lang());
  ui.dialog.replaceChildren(el("h2", { id: "front-end-title" }, t.resignTitle), el("p", {}, t.resignText(other)),
    el("div", { class: "front-dialog-buttons" }, no, yes));
  ui.dialog.showModal();
  no.focus();
}

function onKey(event) {
  if (!ctx || !ui?.container.isConnected) return;
  const dialog = ui.dialog;
  if (dialog.open) {
    if (event.key === "Tab") {  // the focus stays in the dialog
      const buttons = [...dialog.querySelectorAll("button")];
      const at = buttons.indexOf(document.activeElement);
      event.preventDefault();
      buttons[(at + (event.shiftKey ? buttons.length - 1 : 1)) % buttons.length].focus();
    }
    return;
  }
  if (!document.querySelector("#rules-panel")?.hidden) return;
  const active = document.activeElement;
  const grid = ui.mapHost.querySelector('[role="grid"]');
  const onBoard = !active || active === document.body || Boolean(grid?.contains(active)) || active === grid;
  if (event.key === "Escape") {
    if (cancel()) event.preventDefault();
  } else if (event.key === "Tab" && !event.shiftKey && onBoard && myTurn() && !busy) {
    event.preventDefault();
    askEndTurn();
  } else if (event.key === "Enter" && pending && (!active || active === document.body)) {
    event.preventDefault();
    confirm();
  }
}
document.addEventListener("keydown", onKey);

// A journal line under the pointer lights the last cell it names on the map.
function onJournalHover(event) {
  if (!ctx || !ui?.container.isConnected) return;
  const line = event.target.closest?.("#journal li, .front-line");
  const cells = line ? line.textContent.match(/\b[A-Z]{1,2}\d{1,2}\b/g) : null;
  const cell = cells ? cells[cells.length - 1] : null;
  if (cell === journalCell) return;
  journalCell = cell;
  for (const node of document.querySelectorAll(".front-lit")) node.classList.remove("front-lit");
  line?.classList.toggle("front-lit", Boolean(cell));
  update({ panel: false });
}
document.addEventListener("mouseover", onJournalHover);

// -- drawing ------------------------------------------------------------------------------------------------
export function render(root, next) {
  ctx = next;
  if (ctx.game.version !== version) {
    version = ctx.game.version;
    answers = new Map();
    pending = null;
    choosing = null;
    const turn = `${ctx.view.turn}:${ctx.view.active}`;
    // a new turn starts with no unit chosen; a unit lost, or the other seat's (hot seat), is let go
    if (turn !== lastTurn || unitById(selected)?.side !== ctx.seat) selected = null;
    lastTurn = turn;
  }
  if (!ui || ui.root !== root || !root.contains(ui.container) || ui.lang !== lang()) build(root);
  update();
}

function build(root) {
  const t = words();
  const mapHost = el("div", { class: "front-map-host" });
  ui = {
    root, lang: lang(), mapHost,
    clock: el("div", { class: "front-clock" }),
    whose: el("div", { class: "front-whose-host", role: "status" }),
    endTurn: el("button", { type: "button", id: "end-turn", class: "primary", onclick: askEndTurn }, ...keyed(t.endTurn)),
    resign: el("button", { type: "button", id: "resign", onclick: askResign }, t.resign),
    summary: el("div", { class: "front-summary-host" }),
    tag: el("div", { class: "front-tag", "aria-hidden": "true", hidden: true }),
    bar: el("section", { class: "front-bar card", "aria-label": t.orders }),
    side: el("div", { class: "front-side" }),
    dialog: el("dialog", { class: "front-dialog", "aria-labelledby": "front-end-title" }),
  };
  // The orders (beside the map on a wide screen, under it and at hand on a phone), the map, then the panel: the
  // orders come first in the document, so that the keyboard reaches them without crossing the map (where Tab
  // ends the turn). What the pointer passes over is not read aloud as it changes.
  ui.container = el("div", { class: "front" },
    el("div", { class: "front-top" }, ui.clock, el("div", { class: "front-whose-box" }, ui.whose, ui.endTurn, ui.resign)),
    el("div", { class: "front-main" }, ui.bar, el("div", { class: "front-stage", "aria-live": "off" }, mapHost, ui.tag),
      el("div", { class: "front-side-wrap", "aria-live": "off" }, ui.summary, ui.side)), ui.dialog);
  root.replaceChildren(ui.container);
  ui.map = createMap(mapHost, { lang: lang(), glossary: GLOSSARY, onCell, onHover });
  ui.dialog.addEventListener("close", () => (ui.mapHost.querySelector('[role="grid"]') ?? ui.endTurn).focus());
  // the map pans and zooms by itself: the cost or odds beside a cell follow it
  const follow = () => requestAnimationFrame(placeTag);
  for (const kind of ["wheel", "pointermove", "pointerup", "keydown"]) mapHost.addEventListener(kind, follow, { passive: true });
}

// When the side's turn begins, what it saw since its last one, until closed or an order is given.
const turnKey = () => `${ctx.seat}:${ctx.view.turn}`;
function summary() {
  if (!myTurn() || summaryShut === turnKey()) return null;
  return otherTurn(ctx.journal ?? [], ctx.seat, lang());
}

// Drawn on the map: with the summary, all the other side was seen doing in its turn; in a replay, what the
// move shown did.
function tracesShown() {
  if (ctx.replaying) return traces((ctx.journal ?? []).filter((entry) => entry.version === ctx.game.version));
  return traces(summary()?.entries ?? []);
}

function update({ map = true, panel = true } = {}) {
  if (!ctx || !ui) return;
  const view = ctx.view;
  ui.container.dataset.hour = view.hour ?? "";
  ui.container.setAttribute("aria-busy", String(busy));
  if (map) drawMap();
  placeTag();
  if (!panel) return;
  const outcome = ctx.game.outcome ?? null;
  const [time, whose] = clock({ view, outcome, seat: ctx.seat, myTurn: myTurn(), lang: lang() });
  ui.clock.replaceChildren(time);
  ui.whose.replaceChildren(whose);
  ui.endTurn.hidden = !myTurn();
  ui.endTurn.disabled = busy;
  ui.resign.hidden = !mayResign();
  ui.resign.disabled = busy;
  const aim = (cell, layer) => { onCell(cell, { layer }); showCell(cell); };
  const choose = (group) => { choosing = group; pending = null; update(); };
  keepFocus(ui.bar, () => ui.bar.replaceChildren(...ordersBar({ lang: lang(), glossary: GLOSSARY, view, seat: ctx.seat,
    legal: ctx.legal, busy, myTurn: myTurn(), outcome, unit: unitById(selected), pending, choosing, ask, play, confirm,
    cancel, aim, choose })));
  const other = summary();
  const close = () => { summaryShut = turnKey(); update(); };
  ui.summary.replaceChildren(other ? summaryBox({ entries: other.entries, lang: lang(), onClose: close,
    other: seatName(view, ctx.seat === "blue" ? "red" : "blue", lang()),
    onReplay: ctx.replay ? () => ctx.replay(other.from) : null }) : "");
  const looked = hovered ?? inspected;
  const under = looked ? unitsAt(looked) : [];
  const shown = under[0] ?? unitById(selected);
  const unitClass = GLOSSARY.units?.[unitById(selected)?.type]?.class;
  ui.side.replaceChildren(...[
    unitCard({ unit: shown, view, glossary: GLOSSARY, lang: lang(), spent: shown && spentUnits().has(shown.id) }),
    ...under.slice(1).map((u) => unitCard({ unit: u, view, glossary: GLOSSARY, lang: lang(), spent: spentUnits().has(u.id) })),
    cellCard({ cell: looked ?? shown?.cell, view, glossary: GLOSSARY, lang: lang(), classOf: unitClass }),
    pointsCard({ view, glossary: GLOSSARY, lang: lang() }),
    missionCard({ view, glossary: GLOSSARY, lang: lang() }),
  ].filter(Boolean));
}

// The map is drawn again only when what it shows has changed (a pointer moving over it changes the panel only; a
// replay may show another view of the same version: the whole battle's, a side's, or the live one once closed).
let drawn = null;
function drawMap() {
  const state = mapState();
  const signature = JSON.stringify([version, ctx.seat, ctx.lang, state.selected, [...state.reachable], state.path,
    [...state.targets], [...state.spent], state.hover, state.traces]);
  const replayed = ctx.replaying ? ctx.view : null;  // a replay's view, or the live board's (null)
  if (signature === drawn && ui.drawnBy === ui.map && ui.replayed === replayed) return;
  drawn = signature;
  ui.drawnBy = ui.map;
  ui.replayed = replayed;
  ui.map.render(state);
}

// the units on a cell, an aircraft in flight first
const unitsAt = (cell) => units().filter((u) => onMap(u) && u.cell === cell)
  .sort((a, b) => Boolean(b.flying) - Boolean(a.flying));

function keepFocus(box, redraw) {
  const focused = box.contains(document.activeElement) ? document.activeElement.dataset.key : null;
  redraw();
  if (focused) box.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
}

// A target chosen from the orders' bar: the map moves to it when it lies out of the map's view.
function showCell(cell) {
  const spot = ui.mapHost.querySelector(`[data-cell="${cell}"]`)?.getBoundingClientRect();
  const frame = ui.mapHost.querySelector(".fm-viewport")?.getBoundingClientRect();
  const outside = spot && frame && (spot.left < frame.left || spot.right > frame.right || spot.top < frame.top
    || spot.bottom > frame.bottom);
  if (outside) {
    ui.map.centerOn(cell);
    placeTag();
  }
}

// The cost or the odds beside the cell they are about (the same words are in the orders' bar).
function placeTag() {
  const text = tagText();
  const cell = pending?.cell ?? hovered;
  const spot = text && cell ? ui.mapHost.querySelector(`[data-cell="${cell}"]`)?.getBoundingClientRect() : null;
  const view = ui.mapHost.querySelector(".fm-viewport")?.getBoundingClientRect() ?? spot;
  const inView = spot && spot.right > view.left && spot.left < view.right && spot.bottom > view.top && spot.top < view.bottom;
  ui.tag.hidden = !inView;
  if (!inView) return;
  const box = spot;
  const frame = ui.tag.parentElement.getBoundingClientRect();
  ui.tag.textContent = text;
  const half = ui.tag.offsetWidth / 2;
  const above = box.top - frame.top - ui.tag.offsetHeight - 4 >= 0;  // over the cell, or under it at the map's top
  ui.tag.classList.toggle("below", !above);
  ui.tag.style.left = `${Math.max(half, Math.min(frame.width - half, box.left - frame.left + box.width / 2))}px`;
  ui.tag.style.top = `${above ? box.top - frame.top : box.bottom - frame.top}px`;
}

function tagText() {
  if (!selected || choosing) return "";
  const cell = pending?.cell ?? hovered;
  const move = pending?.kind === "move" || !pending ? movesOf(selected).get(cell) : null;
  if (move) return costText(lang(), answers.get(`preview:${key(move)}`)?.value, unitById(move.unit));
  const aim = (pending?.kind === "aim" ? pending.options : firesOf(selected).filter((a) => a.target === cell))[0];
  const odds = aim ? answers.get(`odds:${key(aim)}`)?.value : null;
  return odds ? oddsText(lang(), odds, true) : "";
}

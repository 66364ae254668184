// Front's part of the designer (/design, kadesh/web/design.js): a battle's document (its scenario's TOML as JSON,
// docs/scenarios.md) painted on the game's own map (front-map.js) with a palette of the glossary's grounds, units and
// works, and its settings (title, season, hour, size, victory). It only edits the document: whether the battle is
// playable is the server's answer (POST /api/maps/check), which the page shows on the cells and fields named here.
//
//   const part = createDesign({ lang, glossary, edit, words }, { palette, map, settings, current });
//   part.draw(doc, faults);  part.centerOn("C4");  part.fieldOf("scenario.season") → the field's node or null
//
// hosts.current: a line over the map that says what a click paints (on a phone the palette is far below).
// edit(change, continues): the page applies change(doc) to its document (undoable; `continues`: the same stroke
// as the edit before, one undo for both) and draws again.

import { area, onMap, resizeRows, rowsOf, setMark, sizeOf, within } from "/static/design-grid.js";
import { el, update } from "/static/dom.js";
import * as art from "/static/rules/front-map-art.js";
import { createMap } from "/static/rules/front-map.js";
import { WORDS as PANEL } from "/static/rules/front-panel.js";

export const MAX_SIDE = 64;  // docs/scenarios.md: a map is at most 64 × 64
const SEASONS = ["spring", "summer", "autumn", "winter"];
const HOURS = ["dawn", "morning", "afternoon", "dusk", "night"];
const SIDES = ["blue", "red"];
// A ground's usual character in a scenario's legend (docs/scenarios.md's example); another free one if taken.
const MARKS = { meadow: ".", road: "=", bridge: "#", forest: "f", hill: "h", swamp: "s", ruins: "v", water: "~",
  burnt: "b", crater: "c", wreck: "w" };
const SPARE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+*%&@";
const LISTS = ["units", "mines", "structures", "points"];
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
// A new battle: a meadow of 12 × 8 cells, no unit yet (the server says each side needs one).
export function blank({ columns = 12, rows = 8 } = {}) {
  return { scenario: { fr: "Ma bataille", en: "My battle", season: "summer", hour: "morning" },
    legend: { ".": "meadow" }, map: { rows: Array.from({ length: rows }, () => ".".repeat(columns)) }, units: [] };
}

// -- the document's cells -------------------------------------------------------------------------------------
// The legend's character for a ground, added to the legend if it has none.
function markOf(doc, ground) {
  doc.legend ??= {};
  const found = Object.keys(doc.legend).find((mark) => doc.legend[mark] === ground);
  if (found !== undefined) return found;
  const mark = [MARKS[ground], ...SPARE].find((m) => m && !(m in doc.legend));
  doc.legend[mark] = ground;
  return mark;
}
// What the chosen tool and palette item do to a cell, in place (`pick`: { kind, id, side, objective }; `tool`:
// "fill" fills the area of one ground, any other paints the cell): the page's edits, and the tests' random ones.
export function paintAt(doc, name, pick, tool = "brush") {
  for (const cell of tool === "fill" && pick.kind === "terrain" ? area(doc, name) : [name]) paint(doc, cell, pick);
}
function paint(doc, name, pick) {
  const side = pick.side === "none" ? null : pick.side;
  const put = (list, item) => {
    const items = within(doc, list, []);
    const at = items.findIndex((i) => i?.cell === name);
    if (at >= 0) items[at] = item;
    else items.push(item);
  };
  if (pick.kind === "terrain") setMark(doc, name, markOf(doc, pick.id));
  else if (pick.kind === "unit") put("units", { side: side ?? "blue", type: pick.id, cell: name });
  else if (pick.kind === "mine") put("mines", { side: side ?? "blue", cell: name });
  else if (pick.kind === "structure") put("structures", { kind: pick.id, cell: name, ...(side ? { side } : {}) });
  else if (pick.kind === "point") { if (!(doc.points ?? []).some((p) => p?.cell === name)) put("points", { cell: name }); }
  else if (pick.kind === "hold") {
    const objective = doc.victory?.objectives?.[pick.objective];
    if (objective && !within(objective, "cells", []).includes(name)) objective.cells.push(name);
  } else if (pick.kind === "eraser") erase(doc, name);
}
function erase(doc, name) {
  for (const list of LISTS) {
    if (!Array.isArray(doc[list])) continue;
    doc[list] = doc[list].filter((item) => item?.cell !== name);
    if (!doc[list].length && list !== "units") delete doc[list];
  }
  for (const objective of doc.victory?.objectives ?? []) {
    if (Array.isArray(objective.cells)) objective.cells = objective.cells.filter((c) => c !== name);
  }
}
// A new size: rows and columns cut or added (of meadow); what stood off the new map is removed.
export function resize(doc, columns, rows) {
  resizeRows(doc, columns, rows, markOf(doc, "meadow"));
  for (const list of LISTS) if (Array.isArray(doc[list])) doc[list] = doc[list].filter((item) => onMap(doc, item?.cell));
  for (const objective of doc.victory?.objectives ?? []) {
    for (const key of ["cells", "exit"]) if (Array.isArray(objective[key])) objective[key] = objective[key].filter((c) => onMap(doc, c));
  }
}

// The document as the map draws a battle (front-map.js's view): grounds by name, units with their full hit points.
function viewOf(doc, glossary) {
  const legend = doc.legend ?? {}, size = sizeOf(doc), terrain = glossary.terrain ?? {};
  const ground = (mark) => (legend[mark] in terrain ? legend[mark] : "meadow");
  const map = rowsOf(doc).map((row) => Array.from({ length: size.columns }, (_, x) => ground(row[x])));
  const placed = (list) => (Array.isArray(doc[list]) ? doc[list] : []).filter((item) => onMap(doc, item?.cell));
  return {
    scenario: { fr: doc.scenario?.fr, en: doc.scenario?.en }, season: doc.scenario?.season, hour: doc.scenario?.hour, map,
    units: placed("units").map((u, i) => ({ id: `u${i + 1}`, side: u.side, type: u.type, cell: u.cell,
      hp: glossary.units?.[u.type]?.hp ?? 1, flying: u.flying === true, tag: u.tag })),
    structures: placed("structures").map((s) => ({ kind: s.kind, cell: s.cell, side: s.side ?? null, complete: s.complete !== false })),
    points: Object.fromEntries(placed("points").map((p) => [p.cell, null])),
    mines: placed("mines").map((m) => m.cell),
    victory: { objectives: (doc.victory?.objectives ?? []).map((o) => ({ ...o,
      cells: (o.cells ?? []).filter((c) => onMap(doc, c)), exit: (o.exit ?? []).filter((c) => onMap(doc, c)) })) },
  };
}

// -- the page's part ------------------------------------------------------------------------------------------
export function createDesign({ lang, glossary, edit, words }, hosts) {
  const W = words, P = PANEL[lang];
  const name = (table, id) => cap(glossary[table]?.[id]?.[lang] ?? id);
  let doc = null;
  let pick = { kind: "terrain", id: "forest", side: "blue" };
  let tool = matchMedia("(max-width: 560px)").matches ? "hand" : "brush";  // a phone's finger moves the map first
  let strokeOpen = false;

  const apply = (cell, continues) => edit((d) => paintAt(d, cell, pick, tool), continues);
  const map = createMap(hosts.map, {
    lang, glossary,
    onCell: (cell) => apply(cell, false),
    painter: {
      painting: () => tool === "brush",
      start: (cell) => { strokeOpen = true; apply(cell, false); },
      over: (cell) => { if (strokeOpen) apply(cell, true); },
      end: () => { strokeOpen = false; },
    },
  });

  // ---- the palette: a tool, a side, and one item among the ruleset's own ----------------------------------
  const swatch = (markup, box = "0 0 40 40") => {
    const svg = el("svg:svg", { viewBox: box, width: 30, height: 30, class: "fm-swatch front-map", "aria-hidden": "true" });
    svg.innerHTML = markup;
    return svg;
  };
  const meadow = art.terrainSwatch("meadow").replace(/<path class="t-grid"[^>]*>/, "");
  const chosen = (item) => pick.kind === item.kind && pick.id === item.id && pick.objective === item.objective;
  const itemButton = (item, markup, label, box) => el("button", { type: "button", class: "design-item", "aria-pressed": String(chosen(item)),
    "data-pick": `${item.kind}:${item.id ?? item.objective ?? ""}`, title: label,
    onclick: () => { pick = { side: pick.side, ...item }; drawPalette(); } }, swatch(markup, box), el("span", {}, label));
  const group = (title, ...items) => el("section", { class: "design-group" }, el("h3", {}, title), el("div", { class: "design-items" }, ...items));
  const side = () => (pick.side === "none" ? null : pick.side);

  function paletteTree() {
    const terrain = Object.keys(glossary.terrain ?? {}).map((id) =>
      itemButton({ kind: "terrain", id }, art.terrainSwatch(id), name("terrain", id)));
    const units = Object.entries(glossary.units ?? {}).filter(([, u]) => u.aircraft !== "drone").map(([id, u]) =>
      itemButton({ kind: "unit", id }, `<g class="unit side-${side() ?? "blue"} own">${art.unitSymbol(id, u)}</g>`, name("units", id), "3 0 34 34"));
    const works = Object.keys(glossary.structures ?? {}).map((id) =>
      itemButton({ kind: "structure", id }, `${id === "bridge" ? art.terrainSwatch("bridge") : meadow}${art.structureArt({ kind: id, side: side(), complete: true })}`,
        name("structures", id)));
    const marks = [
      itemButton({ kind: "mine" }, `${meadow}${art.MINE}`, W.mine(W.sides[side() ?? "blue"])),
      itemButton({ kind: "point" }, `${meadow}${art.pointArt(null)}`, W.point),
      itemButton({ kind: "eraser" }, `${meadow}<path class="fm-lost" d="M9 9L31 31M31 9L9 31"/>`, W.eraser),
    ];
    const holds = (doc?.victory?.objectives ?? []).map((o, i) => (o?.kind === "hold"
      ? itemButton({ kind: "hold", objective: i }, `${meadow}<rect class="fm-objective hold" x="2" y="2" width="36" height="36"/>`, W.holdCell(i + 1))
      : null)).filter(Boolean);
    const radio = (groupName, value, label, checked, onchange) => el("label", { class: "design-choice" },
      el("input", { type: "radio", name: groupName, value, checked, onchange }), label);
    return el("div", { class: "design-palette-inner" },
      el("fieldset", { class: "design-tools" }, el("legend", {}, W.tools),
        ...["brush", "fill", "hand"].map((t) => radio("design-tool", t, W.tool[t], tool === t, () => { tool = t; drawPalette(); })),
        el("p", { class: "muted design-tool-hint" }, W.toolHint[tool])),
      el("fieldset", { class: "design-sides" }, el("legend", {}, W.side),
        ...["blue", "red", "none"].map((s) => radio("design-side", s, W.sides[s], pick.side === s, () => { pick = { ...pick, side: s }; drawPalette(); }))),
      group(W.sections.terrain, ...terrain), group(W.sections.units, ...units), group(W.sections.works, ...works),
      group(W.sections.marks, ...marks), holds.length ? group(W.sections.objective, ...holds) : null);
  }
  let paletteNode = el("div"), paletteHolds = null;
  hosts.palette.append(paletteNode);
  function drawPalette() {
    paletteNode = update(paletteNode, paletteTree());
    const item = paletteNode.querySelector(".design-item[aria-pressed='true']")?.title ?? "";
    const sided = ["unit", "structure"].includes(pick.kind) ? ` · ${W.sides[pick.side]}` : "";
    hosts.current.replaceChildren(`${W.tool[tool]} · ${item}${sided} `, el("a", { href: "#design-palette-title" }, W.change));
  }

  // ---- the settings: title, season, hour, size, victory ---------------------------------------------------
  const field = (label, control, key) => el("div", { class: "design-field", "data-field": key },
    el("label", { for: control.id }, label), control, el("p", { class: "design-field-fault", id: `${control.id}-fault`, hidden: true }));
  const choose = (id, values, label, current, onchange) => el("select", { id, onchange },
    ...values.map((v) => el("option", { value: v, selected: v === current }, cap(label(v)))));
  const changeHead = (key) => (event) => { const value = event.target.value; edit((d) => { within(d, "scenario", {})[key] = value; }); };
  const number = (id, value, low, high, onchange, extra = {}) => el("input", { id, type: "number", min: low, max: high,
    value: value ?? "", inputmode: "numeric", onchange, ...extra });

  function objectiveTree(o, i) {
    const n = i + 1, id = `design-objective-${n}`;
    const set = (key, value) => edit((d) => { const target = d.victory.objectives[i]; if (value === "" || value === null) delete target[key]; else target[key] = value; });
    const turn = (key, label, optional) => field(label, number(`${id}-${key}`, o[key], 1, 999,
      (e) => set(key, e.target.value === "" && optional ? null : Number(e.target.value))), `victory.objectives[${n}].${key}`);
    const parts = o.kind === "hold" ? [turn("until", W.until, false), el("p", { class: "muted" }, W.cellsHeld((o.cells ?? []).length))]
      : o.kind !== "destroy" || "tag" in o ? [el("p", { class: "muted" }, W.byText)]  // an escort, a tag: the text's
      : [field(W.target, choose(`${id}-target`, Object.keys(glossary.units ?? {}).filter((u) => glossary.units[u].aircraft !== "drone"),
        (u) => name("units", u), o.target, (e) => set("target", e.target.value)), `victory.objectives[${n}].target`),
      turn("by", W.by, true)];
    return el("fieldset", { class: "design-objective", "data-field": `victory.objectives[${n}]` },
      el("legend", {}, o.kind === "hold" ? W.objectiveHold(n) : o.kind === "escort" ? W.objectiveEscort(n) : W.objectiveDestroy(n)),
      field(W.objectiveSide, choose(`${id}-side`, SIDES, (s) => W.sides[s], o.side, (e) => set("side", e.target.value)), `victory.objectives[${n}].side`),
      ...parts,
      el("button", { type: "button", onclick: () => edit((d) => {
        d.victory.objectives.splice(i, 1);
        if (!d.victory.objectives.length) delete d.victory.objectives;
      }) }, W.removeObjective(n)),
      el("p", { class: "design-field-fault", id: `${id}-fault`, hidden: true }));
  }
  function settingsTree() {
    const head = doc.scenario ?? {}, size = sizeOf(doc), victory = doc.victory ?? {};
    const addObjective = (objective) => edit((d) => { within(within(d, "victory", {}), "objectives", []).push(objective); });
    const resizeButton = el("button", { type: "button", id: "design-resize", onclick: () => {
      const columns = Number(document.getElementById("design-columns").value), rows = Number(document.getElementById("design-rows").value);
      if (!(columns >= 1 && columns <= MAX_SIDE && rows >= 1 && rows <= MAX_SIDE)) return;
      edit((d) => resize(d, columns, rows));
    } }, W.resize);
    return el("div", { class: "design-settings-inner" },
      field(W.scenarioTitle, el("input", { id: "design-title-fr", value: head.fr ?? "", maxlength: 200, onchange: changeHead("fr") }), "scenario.fr"),
      field(W.scenarioTitleEn, el("input", { id: "design-title-en", value: head.en ?? "", maxlength: 200, onchange: changeHead("en") }), "scenario.en"),
      field(W.season, choose("design-season", SEASONS, (s) => P.seasons[s], head.season, changeHead("season")), "scenario.season"),
      field(W.hour, choose("design-hour", HOURS, (h) => P.hours[h], head.hour, changeHead("hour")), "scenario.hour"),
      el("fieldset", { class: "design-size", "data-field": "map" }, el("legend", {}, W.size),
        el("div", { class: "design-size-row" },
          field(W.columns, number("design-columns", size.columns, 1, MAX_SIDE, null), "map.columns"),
          field(W.rows, number("design-rows", size.rows, 1, MAX_SIDE, null), "map.rows"), resizeButton),
        el("p", { class: "muted" }, W.sizeHint(MAX_SIDE)), el("p", { class: "design-field-fault", id: "design-size-fault", hidden: true })),
      el("fieldset", { class: "design-victory", "data-field": "victory" }, el("legend", {}, W.victory),
        el("label", { class: "design-choice" }, el("input", { type: "checkbox", id: "design-default", checked: victory.default !== false,
          onchange: (e) => { const on = e.target.checked; edit((d) => { d.victory ??= {}; if (on) delete d.victory.default; else d.victory.default = false; }); } }),
        W.defaultVictory),
        field(W.pointsToWin, number("design-points", victory.points_to_win ?? 4, 1, 26,
          (e) => { const n = Number(e.target.value); edit((d) => { within(d, "victory", {}).points_to_win = n; }); }), "victory.points_to_win"),
        el("h3", {}, W.objectives),
        ...(victory.objectives ?? []).map(objectiveTree),
        el("div", { class: "design-add" },
          el("button", { type: "button", id: "design-add-hold", onclick: () => addObjective({ kind: "hold", side: "blue", cells: [], until: 8 }) }, W.addHold),
          el("button", { type: "button", id: "design-add-destroy", onclick: () => addObjective({ kind: "destroy", side: "blue", target: "general" }) }, W.addDestroy)),
        el("p", { class: "design-field-fault", id: "design-victory-fault", hidden: true })));
  }
  let settingsNode = el("div");
  hosts.settings.append(settingsNode);
  function drawSettings() {
    settingsNode = update(settingsNode, settingsTree());
    // update() keeps the nodes (and the focus); a field's value is its property, set anew unless being typed in
    for (const input of settingsNode.querySelectorAll("input, select")) {
      if (input === document.activeElement) continue;
      if (input.type === "checkbox") input.checked = input.hasAttribute("checked");
      else if (input.tagName === "SELECT") input.value = input.querySelector("option[selected]")?.value ?? input.value;
      else input.value = input.getAttribute("value") ?? "";
    }
  }

  // ---- drawing the whole ----------------------------------------------------------------------------------
  function draw(next, faults) {
    doc = next;
    if (pick.kind === "hold" && doc.victory?.objectives?.[pick.objective]?.kind !== "hold") pick = { kind: "terrain", id: "forest", side: pick.side };
    map.render({ view: viewOf(doc, glossary), seat: null, faults: faults.map((f) => f.cell).filter((c) => onMap(doc, c)) });
    // the palette changes with the objectives to hold only (and with a choice, which draws it itself): a stroke
    // over a large map does not draw its forty swatches again at each cell
    const holds = JSON.stringify((doc.victory?.objectives ?? []).map((o) => o?.kind));
    if (holds !== paletteHolds) { paletteHolds = holds; drawPalette(); }
    drawSettings();
  }

  // The field a fault names (`where`, such as « scenario.season » or « victory.objectives[2].until »): the closest
  // one drawn for it, else null (a fault of the map's cells is shown on the map).
  function fieldOf(where) {
    const nodes = [...hosts.settings.querySelectorAll("[data-field]")];
    let best = null;
    for (const node of nodes) {
      const key = node.dataset.field;
      if ((where === key || where.startsWith(`${key}.`) || where.startsWith(`${key}[`)) && (!best || key.length > best.dataset.field.length)) best = node;
    }
    return best;
  }

  // A preview: the battle as one side sees it on the first turn, the game's own view (POST /api/maps/preview).
  function drawPreview(host, view, seat) {
    const shown = createMap(host, { lang, glossary });
    shown.render({ view, seat });
    return shown;
  }

  // The seats a preview is asked for; a game against the computer: Blue played, Red the computer's.
  const seats = () => SIDES.map((seat) => ({ seat, label: seat === "blue" ? W.previewBlue : W.previewRed, title: W.previewOf(W.sides[seat]) }));
  const againstTheComputer = (level) => ({ seat: "blue", hint: W.playAs, body: level ? { bots: { red: level } } : {} });
  return { draw, fieldOf, drawPreview, centerOn: map.centerOn, seats, againstTheComputer };
}


// Royaumes' part of the designer (/design?ruleset=royaumes, kadesh/web/design.js): a campaign map's document (its
// TOML as JSON, docs/rules/royaumes.md « A map of one's own ») painted on the game's own map (royaumes-map.js): land
// and water, the Nile, each kingdom's cities and starting armies; its settings (title, size, each kingdom's names,
// colour, levels, resources and cities' names). It only edits the document: the server says whether it is playable.
//
//   const part = createDesign({ lang, glossary, edit, words }, { palette, map, settings, current });
//   part.draw(doc, faults);  part.centerOn("C4");  part.fieldOf("kingdoms.koush.cities[2].cell") → a node or null
//
// The map is clicked, dragged over or walked with the arrow keys (a cursor; Enter paints its cell).

import { area, onMap, resizeRows, rowsOf, setMark, sizeOf, within } from "/static/design-grid.js";
import { el, columnName, parseMapCell, update } from "/static/dom.js";
import { drawMap } from "/static/rules/royaumes-map.js";
import { shownLayer } from "/static/rules/royaumes-report.js";

export const MAX_SIDE = 200;  // kadesh/rules/royaumes/scenario.py
const MAX_KINGDOMS = 8;
const LAND = ".", WATER = "~";
const COLOURS = ["#b8452f", "#2f6db8", "#3a8a3a", "#c9a227", "#7b4aa8", "#2a8c8c", "#a8577b", "#5a5a5a"];
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

function ensureStylesheet() {
  if (document.querySelector("link[data-royaumes]")) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/rules/royaumes.css", "data-royaumes": true }));
}

// A new map: 16 × 12 cells of land, four kingdoms with no city yet (the server says each needs one).
export function blank({ words }) {
  const named = words.royaumes.defaultKingdoms;
  const kingdom = (index) => ({ fr: named.fr[index], en: named.en[index], colour: COLOURS[index],
    cities: [], armies: [], military_level: 2, population: 500, resources: { gold: 400 } });
  return {
    scenario: { id: "ma_carte", fr: "Ma carte", en: "My map", resources: ["gold"] },
    map: { rows: Array.from({ length: 12 }, () => LAND.repeat(16)) },
    costs: { army: { gold: 100 }, spy: { gold: 50 }, guild: { gold: 150 } },
    kingdoms: Object.fromEntries(["nord", "sud", "est", "ouest"].map((id, i) => [id, kingdom(i)])),
  };
}

// -- the document's cells -------------------------------------------------------------------------------------
const kingdomsOf = (doc) => Object.entries(doc.kingdoms && typeof doc.kingdoms === "object" ? doc.kingdoms : {});
const citiesOf = (kingdom) => (Array.isArray(kingdom?.cities) ? kingdom.cities : []);
const armiesOf = (kingdom) => (Array.isArray(kingdom?.armies) ? kingdom.armies : []);
function river(doc) {
  const features = within(within(doc, "map", {}), "features", []);
  let found = features.find((f) => f?.kind === "river" && Array.isArray(f.path));
  if (!found) {
    found = { kind: "river", fr: "Nil", en: "Nile", path: [] };
    features.unshift(found);
  }
  return found;
}
// A city's name not yet taken on the map: « Cité 3 ».
function freshCityName(doc, word) {
  const taken = new Set(kingdomsOf(doc).flatMap(([, k]) => citiesOf(k).map((c) => String(c?.name).toLowerCase())));
  for (let n = 1; ; n++) if (!taken.has(`${word} ${n}`.toLowerCase())) return `${word} ${n}`;
}

// What the chosen tool and palette item do to a cell, in place (`words`: the designer's Royaumes words, for a new
// city's or sea's name): the page's edits, and the tests' random ones.
export function paintAt(doc, name, pick, tool, words) {
  const ground = pick.kind === "land" || pick.kind === "water";
  for (const cell of tool === "fill" && ground ? area(doc, name) : [name]) paint(doc, cell, pick, words);
}
// What a palette item does to one cell (`pick`: { kind, kingdom }).
function paint(doc, name, pick, words) {
  if (pick.kind === "land" || pick.kind === "water") setMark(doc, name, pick.kind === "land" ? LAND : WATER);
  else if (pick.kind === "river") { const nile = river(doc); if (nile.path.at(-1) !== name) nile.path.push(name); }
  else if (pick.kind === "city") {
    const kingdom = doc.kingdoms?.[pick.kingdom];
    if (!kingdom || kingdomsOf(doc).some(([, k]) => citiesOf(k).some((c) => c?.cell === name))) return;
    within(kingdom, "cities", []).push({ name: freshCityName(doc, words.city), cell: name });
  } else if (pick.kind === "army") {
    const kingdom = doc.kingdoms?.[pick.kingdom];
    if (kingdom) within(kingdom, "armies", []).push(name);
  } else if (pick.kind === "waterName") {
    const features = within(within(doc, "map", {}), "features", []);
    if (features.some((f) => f?.label === name)) return;
    const n = features.filter((f) => f?.kind !== "river").length + 1;
    features.push({ kind: "sea", fr: `${words.seaWord.fr} ${n}`, en: `${words.seaWord.en} ${n}`, label: name });
  } else if (pick.kind === "eraser") erase(doc, name);
}
function erase(doc, name) {
  for (const [, kingdom] of kingdomsOf(doc)) {
    if (Array.isArray(kingdom.cities)) kingdom.cities = kingdom.cities.filter((c) => c?.cell !== name);
    if (Array.isArray(kingdom.armies)) kingdom.armies = kingdom.armies.filter((cell) => cell !== name);
  }
  for (const feature of doc.map?.features ?? []) {
    if (Array.isArray(feature?.path)) feature.path = feature.path.filter((cell) => cell !== name);
    if (feature?.label === name && feature.kind === "river") delete feature.label;
  }
  if (Array.isArray(doc.map?.features)) {  // a river with no course left, a sea's name rubbed out
    doc.map.features = doc.map.features.filter((f) => (f?.kind === "river" ? !Array.isArray(f.path) || f.path.length : f?.label !== name));
  }
}
export function resize(doc, columns, rows) {
  resizeRows(doc, columns, rows, LAND);
  for (const [, kingdom] of kingdomsOf(doc)) {
    if (Array.isArray(kingdom.cities)) kingdom.cities = kingdom.cities.filter((c) => onMap(doc, c?.cell));
    if (Array.isArray(kingdom.armies)) kingdom.armies = kingdom.armies.filter((cell) => onMap(doc, cell));
  }
  for (const feature of doc.map.features ?? []) {
    if (Array.isArray(feature?.path)) feature.path = feature.path.filter((cell) => onMap(doc, cell));
    if ("label" in (feature ?? {}) && !onMap(doc, feature.label)) delete feature.label;
  }
}

// The document as the game's map draws a campaign's first turn (royaumes-map.js's view and layer).
function viewOf(doc) {
  const size = sizeOf(doc);
  const rows = rowsOf(doc).map((row) => row.padEnd(size.columns, LAND));
  const kingdoms = kingdomsOf(doc).map(([id, k]) => ({ id, colour: /^#[0-9a-fA-F]{6}$/.test(k?.colour ?? "") ? k.colour : "#888888",
    names: { fr: String(k?.fr ?? id), en: String(k?.en ?? id) } }));
  const seen = new Set();
  const cities = [], owned = [];
  for (const [id, k] of kingdomsOf(doc)) {
    citiesOf(k).forEach((c, i) => {
      if (!onMap(doc, c?.cell) || seen.has(c.cell)) return;
      seen.add(c.cell);
      const cityName = String(c.name ?? "");
      cities.push({ name: cityName, cell: c.cell, ...(i === 0 ? { initial_of: id } : {}) });
      owned.push({ name: cityName, owner: id, destroyed: false });
    });
  }
  const counts = new Map();
  for (const [id, k] of kingdomsOf(doc)) {
    for (const cell of armiesOf(k)) if (onMap(doc, cell)) counts.set(`${id}@${cell}`, (counts.get(`${id}@${cell}`) ?? 0) + 1);
  }
  const armies = [...counts].map(([key, count]) => { const [kingdom, cell] = key.split("@"); return { kingdom, cell, count }; });
  const features = (Array.isArray(doc.map?.features) ? doc.map.features : []).filter((f) => f && typeof f === "object").map((f) => ({
    kind: f.kind, names: { fr: f.fr ?? "", en: f.en ?? "" },
    ...(Array.isArray(f.path) ? { path: f.path.filter((c) => onMap(doc, c)) } : {}),
    ...(onMap(doc, f.label) ? { label: f.label } : {}),
  })).filter((f) => f.kind !== "river" || f.path?.length);
  return { view: { map: { width: size.columns, height: size.rows, rows, features }, cities, kingdoms, turn: 1 },
    layer: { cities: owned, armies } };
}

// -- the page's part ------------------------------------------------------------------------------------------
export function createDesign({ lang, edit, words }, hosts) {
  ensureStylesheet();
  const W = words, R = words.royaumes;
  let doc = null, faultCells = [];
  let pick = { kind: "land" };
  let tool = matchMedia("(max-width: 560px)").matches ? "hand" : "brush";  // a phone's finger scrolls the map first
  let cursor = [0, 0];
  let stroking = null;
  const opened = new Set();  // the kingdoms whose settings are unfolded

  const apply = (cell, continues) => edit((d) => paintAt(d, cell, pick, tool, R), continues);

  // ---- the map: the game's drawing, a cursor and the cells at fault laid over it --------------------------
  const said = el("p", { class: "visually-hidden", "aria-live": "polite" });
  const hint = el("p", { id: "design-royaumes-hint", class: "visually-hidden" }, R.mapHint);
  const frame = el("div", { class: "design-royaumes-map", tabindex: "0", role: "application", "aria-label": R.mapLabel,
    "aria-describedby": "design-royaumes-hint" });
  hosts.map.append(frame, said, hint);
  const cursorName = () => `${columnName(cursor[0])}${cursor[1] + 1}`;
  const cellBox = (svg, name) => svg.querySelector(`rect[data-cell="${name}"]`);
  function overlay(svg) {
    const mark = (name, cls) => {
      const box = cellBox(svg, name);
      if (!box) return;
      svg.append(el("svg:rect", { x: box.getAttribute("x"), y: box.getAttribute("y"), width: box.getAttribute("width"),
        height: box.getAttribute("height"), class: cls }));
    };
    for (const name of faultCells) mark(name, "design-fault-mark");
    mark(cursorName(), "design-cursor-mark");
  }
  // The cursor moved alone, the map left as drawn (a large map is long to draw again).
  function placeCursor() {
    const svg = frame.querySelector("svg"), mark = svg?.querySelector(".design-cursor-mark"), box = svg && cellBox(svg, cursorName());
    if (!mark || !box) { drawMapNow(); return; }
    for (const key of ["x", "y"]) mark.setAttribute(key, box.getAttribute(key));
    mark.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }
  function drawMapNow() {
    const { view, layer } = viewOf(doc);
    if (!view.map.width) { frame.replaceChildren(); return; }
    const svg = drawMap(view, layer, { lang, seat: null, label: R.mapLabel });
    overlay(svg);
    frame.replaceChildren(svg);
  }
  function cellAt(event) {
    const svg = frame.querySelector("svg"), first = svg && cellBox(svg, "A1");
    if (!first) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
    const size = Number(first.getAttribute("width")), margin = Number(first.getAttribute("x"));
    const x = Math.floor((point.x - margin) / size), y = Math.floor((point.y - margin) / size), { columns, rows } = sizeOf(doc);
    return x >= 0 && y >= 0 && x < columns && y < rows ? [x, y] : null;
  }
  frame.addEventListener("pointerdown", (event) => {
    if (tool === "hand" || (event.pointerType === "mouse" && event.button !== 0)) return;
    const at = cellAt(event);
    if (!at) return;
    stroking = event.pointerId;
    frame.setPointerCapture(event.pointerId);
    cursor = at;
    apply(cursorName(), false);
  });
  frame.addEventListener("pointermove", (event) => {
    if (event.pointerId !== stroking) return;
    const at = cellAt(event);
    if (!at || (at[0] === cursor[0] && at[1] === cursor[1])) return;
    cursor = at;
    apply(cursorName(), true);
  });
  frame.addEventListener("click", (event) => {  // the hand: a drag scrolls the map, a tap paints
    if (tool !== "hand") return;
    const at = cellAt(event);
    if (!at) return;
    cursor = at;
    apply(cursorName(), false);
  });
  const endStroke = (event) => { if (event.pointerId === stroking) stroking = null; };
  frame.addEventListener("pointerup", endStroke);
  frame.addEventListener("pointercancel", endStroke);
  frame.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    const { columns, rows } = sizeOf(doc);
    if (step) {
      event.preventDefault();
      const n = event.shiftKey ? 5 : 1;
      cursor = [Math.max(0, Math.min(columns - 1, cursor[0] + step[0] * n)), Math.max(0, Math.min(rows - 1, cursor[1] + step[1] * n))];
      placeCursor();
      said.textContent = frame.querySelector(`rect[data-cell="${cursorName()}"] title`)?.textContent ?? cursorName();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      apply(cursorName(), false);
    }
  });

  // ---- the palette ------------------------------------------------------------------------------------------
  const swatch = (inner) => {
    const svg = el("svg:svg", { viewBox: "0 0 30 30", width: 30, height: 30, class: "campaign-map design-swatch", "aria-hidden": "true" });
    svg.innerHTML = inner;
    return svg;
  };
  const landCell = `<rect class="cell land" width="30" height="30"/>`;
  const chosen = (item) => pick.kind === item.kind && pick.kingdom === item.kingdom;
  const itemButton = (item, inner, label) => el("button", { type: "button", class: "design-item", "aria-pressed": String(chosen(item)),
    "data-pick": `${item.kind}:${item.kingdom ?? ""}`, title: label, onclick: () => { pick = item; drawPalette(); } },
  swatch(inner), el("span", {}, label));
  const group = (title, ...items) => el("section", { class: "design-group" }, el("h3", {}, title), el("div", { class: "design-items" }, ...items));
  function paletteTree() {
    const radio = (value, label) => el("label", { class: "design-choice" },
      el("input", { type: "radio", name: "design-tool", value, checked: tool === value, onchange: () => { tool = value; drawPalette(); } }), label);
    const kingdoms = kingdomsOf(doc).map(([id, k]) => {
      const colour = /^#[0-9a-fA-F]{6}$/.test(k?.colour ?? "") ? k.colour : "#888888", named = String(k?.[lang] ?? id);
      return group(named,
        itemButton({ kind: "city", kingdom: id }, `${landCell}<rect x="5" y="5" width="20" height="20" rx="3" fill="${colour}"/>`, R.cityOf(named)),
        itemButton({ kind: "army", kingdom: id }, `${landCell}<circle cx="15" cy="16" r="9" fill="${colour}"/>`, R.armyOf(named)));
    });
    return el("div", { class: "design-palette-inner" },
      el("fieldset", { class: "design-tools" }, el("legend", {}, W.tools), radio("brush", W.tool.brush), radio("fill", W.tool.fill),
        radio("hand", W.tool.hand),
        el("p", { class: "muted design-tool-hint" }, W.toolHint[tool])),
      group(R.ground,
        itemButton({ kind: "land" }, landCell, R.land),
        itemButton({ kind: "water" }, `<rect class="cell water" width="30" height="30"/>`, R.water),
        itemButton({ kind: "river" }, `${landCell}<path class="river main" d="M2,26 Q10,6 15,16 T28,4"/>`, R.nile),
        itemButton({ kind: "waterName" }, `<rect class="cell water" width="30" height="30"/><text x="15" y="20" class="water-label" text-anchor="middle">Aa</text>`, R.waterName),
        itemButton({ kind: "eraser" }, `${landCell}<path d="M7 7L23 23M23 7L7 23" stroke="#a00" stroke-width="3"/>`, R.eraser)),
      ...kingdoms);
  }
  let paletteNode = el("div");
  hosts.palette.append(paletteNode);
  function drawPalette() {
    paletteNode = update(paletteNode, paletteTree());
    frame.classList.toggle("design-hand", tool === "hand");
    const item = paletteNode.querySelector(".design-item[aria-pressed='true']")?.title ?? "";
    hosts.current.replaceChildren(`${W.tool[tool]} · ${item} `, el("a", { href: "#design-palette-title" }, W.change));
  }

  // ---- the settings -------------------------------------------------------------------------------------------
  const field = (label, control, key) => el("div", { class: "design-field", "data-field": key },
    el("label", { for: control.id }, label), control, el("p", { class: "design-field-fault", id: `${control.id}-fault`, hidden: true }));
  const number = (id, value, low, high, onchange) => el("input", { id, type: "number", min: low, max: high, value: value ?? "",
    inputmode: "numeric", onchange });
  const text = (id, value, onchange) => el("input", { id, value: value ?? "", maxlength: 60, onchange });
  function kingdomTree([id, k], index) {
    const key = `kingdoms.${id}`, base = `design-kingdom-${index + 1}`;
    const set = (change) => edit((d) => change(d.kingdoms[id]));
    const resources = Array.isArray(doc.scenario?.resources) ? doc.scenario.resources : [];
    // each kingdom folded under its name (a phone's page would be long), kept open once opened
    return el("details", { class: "design-kingdom", "data-field": key, open: opened.has(id),
      ontoggle: (e) => { if (e.target.open) opened.add(id); else opened.delete(id); } },
    el("summary", {}, String(k?.[lang] ?? id)),
      field(R.nameFr, text(`${base}-fr`, k?.fr, (e) => { const v = e.target.value; set((x) => { x.fr = v; }); }), `${key}.fr`),
      field(R.nameEn, text(`${base}-en`, k?.en, (e) => { const v = e.target.value; set((x) => { x.en = v; }); }), `${key}.en`),
      field(R.colour, el("input", { id: `${base}-colour`, type: "color", value: k?.colour ?? "#888888",
        onchange: (e) => { const v = e.target.value; set((x) => { x.colour = v; }); } }), `${key}.colour`),
      field(R.military, number(`${base}-military`, k?.military_level, 1, 100,
        (e) => { const v = Number(e.target.value); set((x) => { x.military_level = v; }); }), `${key}.military_level`),
      field(R.population, number(`${base}-population`, k?.population, 0, 1e9,
        (e) => { const v = Number(e.target.value); set((x) => { x.population = v; }); }), `${key}.population`),
      ...resources.map((r) => field(cap(doc.resource_names?.[r]?.[lang] ?? R.resources[r] ?? r), number(`${base}-resource-${r}`, k?.resources?.[r], 0, 1e9,
        (e) => { const v = Number(e.target.value); set((x) => { within(x, "resources", {})[r] = v; }); }), `${key}.resources.${r}`)),
      el("h4", {}, R.cities),
      citiesOf(k).length ? el("ul", { class: "design-cities" }, ...citiesOf(k).map((c, i) => el("li", {},
        field(R.cityName(String(c?.cell ?? ""), i === 0), text(`${base}-city-${i + 1}`, c?.name,
          (e) => { const v = e.target.value; set((x) => { x.cities[i].name = v; }); }), `${key}.cities[${i + 1}]`))))
        : el("p", { class: "muted" }, R.noCity),
      el("p", { class: "muted" }, R.armies(armiesOf(k).length)),
      kingdomsOf(doc).length > 2 ? el("button", { type: "button", onclick: () => edit((d) => { delete d.kingdoms[id]; }) }, R.removeKingdom(String(k?.[lang] ?? id))) : null,
      el("p", { class: "design-field-fault", id: `${base}-fault`, hidden: true }));
  }
  // Seas' and lakes' names, written on the map where their label was put (the rules never read them).
  function watersTree() {
    const features = Array.isArray(doc.map?.features) ? doc.map.features : [];
    const named = features.map((f, i) => [f, i]).filter(([f]) => f && f.kind !== "river");
    const one = ([f, i]) => {
      const key = `map.features[${i + 1}]`, base = `design-water-${i + 1}`;
      const set = (change) => edit((d) => change(d.map.features[i]));
      const title = String(f[lang] || f.fr || f.en || R.waterName);
      return el("fieldset", { class: "design-water", "data-field": key }, el("legend", {}, `${title} (${f.label ?? ""})`),
        field(R.waterKind, el("select", { id: `${base}-kind`, onchange: (e) => { const v = e.target.value; set((x) => { x.kind = v; }); } },
          ...["sea", "lake"].map((k) => el("option", { value: k, selected: f.kind === k }, R.waterKinds[k]))), `${key}.kind`),
        field(R.nameFr, text(`${base}-fr`, f.fr, (e) => { const v = e.target.value; set((x) => { x.fr = v; }); }), `${key}.fr`),
        field(R.nameEn, text(`${base}-en`, f.en, (e) => { const v = e.target.value; set((x) => { x.en = v; }); }), `${key}.en`),
        el("button", { type: "button", onclick: () => edit((d) => { d.map.features.splice(i, 1); }) }, R.removeWater(title)));
    };
    return el("section", { "data-field": "map.features" }, el("h3", {}, R.waters),
      named.length ? el("div", {}, ...named.map(one)) : el("p", { class: "muted" }, R.noWater),
      el("p", { class: "design-field-fault", id: "design-waters-fault", hidden: true }));
  }
  function settingsTree() {
    const head = doc.scenario ?? {}, size = sizeOf(doc);
    const changeHead = (key) => (event) => { const value = event.target.value; edit((d) => { within(d, "scenario", {})[key] = value; }); };
    const addKingdom = () => edit((d) => {
      const taken = new Set(Object.keys(d.kingdoms ?? {}));
      let n = taken.size + 1;
      while (taken.has(`royaume${n}`)) n++;
      const i = taken.size % COLOURS.length;
      within(d, "kingdoms", {})[`royaume${n}`] = { fr: `${R.kingdomWord.fr} ${n}`, en: `${R.kingdomWord.en} ${n}`, colour: COLOURS[i],
        cities: [], armies: [], military_level: 2, population: 500, resources: { gold: 400 } };
    });
    return el("div", { class: "design-settings-inner" },
      field(W.scenarioTitle, el("input", { id: "design-title-fr", value: head.fr ?? "", maxlength: 60, onchange: changeHead("fr") }), "scenario.fr"),
      field(W.scenarioTitleEn, el("input", { id: "design-title-en", value: head.en ?? "", maxlength: 60, onchange: changeHead("en") }), "scenario.en"),
      el("fieldset", { class: "design-size", "data-field": "map" }, el("legend", {}, W.size),
        el("div", { class: "design-size-row" },
          field(W.columns, number("design-columns", size.columns, 1, MAX_SIDE, null), "map.columns"),
          field(W.rows, number("design-rows", size.rows, 1, MAX_SIDE, null), "map.rows"),
          el("button", { type: "button", id: "design-resize", onclick: () => {
            const columns = Number(document.getElementById("design-columns").value), rows = Number(document.getElementById("design-rows").value);
            if (columns >= 1 && columns <= MAX_SIDE && rows >= 1 && rows <= MAX_SIDE) edit((d) => resize(d, columns, rows));
          } }, W.resize)),
        el("p", { class: "muted" }, W.sizeHint(MAX_SIDE)), el("p", { class: "design-field-fault", id: "design-size-fault", hidden: true })),
      watersTree(),
      el("section", { "data-field": "kingdoms" }, el("h3", {}, R.kingdoms),
        ...kingdomsOf(doc).map(kingdomTree),
        kingdomsOf(doc).length < MAX_KINGDOMS ? el("button", { type: "button", id: "design-add-kingdom", onclick: addKingdom }, R.addKingdom) : null,
        el("p", { class: "design-field-fault", id: "design-kingdoms-fault", hidden: true })));
  }
  let settingsNode = el("div");
  hosts.settings.append(settingsNode);
  function drawSettings() {
    settingsNode = update(settingsNode, settingsTree());
    for (const input of settingsNode.querySelectorAll("input")) {
      if (input !== document.activeElement) input.value = input.getAttribute("value") ?? "";
    }
  }

  function draw(next, faults) {
    doc = next;
    if ((pick.kind === "city" || pick.kind === "army") && !doc.kingdoms?.[pick.kingdom]) pick = { kind: "land" };
    const { columns, rows } = sizeOf(doc);
    cursor = [Math.min(cursor[0], Math.max(0, columns - 1)), Math.min(cursor[1], Math.max(0, rows - 1))];
    faultCells = faults.map((f) => f.cell).filter((c) => onMap(doc, c));
    drawMapNow();
    drawPalette();
    drawSettings();
  }
  function fieldOf(where) {
    let best = null;
    for (const node of hosts.settings.querySelectorAll("[data-field]")) {
      const key = node.dataset.field;
      if ((where === key || where.startsWith(`${key}.`) || where.startsWith(`${key}[`)) && (!best || key.length > best.dataset.field.length)) best = node;
    }
    return best;
  }
  function centerOn(name) {
    if (!onMap(doc, name)) return;
    cursor = parseMapCell(name);
    drawMapNow();
    frame.querySelector(".design-cursor-mark")?.scrollIntoView({ block: "center", inline: "center" });
    frame.focus({ preventScroll: true });
  }
  // A kingdom's first turn as it sees it: the game's view (POST /api/maps/preview), drawn as the game page does.
  function drawPreview(host, view, seat) {
    host.append(el("div", { class: "design-royaumes-map" }, drawMap(view, shownLayer(view), { lang, seat })));
  }
  // The seats a preview is asked for, and how a game against the computer is made: the first kingdom played, the
  // others the computer's, each turn judged by Kadesh (no game master's seat to hold).
  const named = (id, k) => String(k?.[lang] ?? id);
  const seats = () => kingdomsOf(doc).map(([id, k]) => ({ seat: id, label: R.previewAs(named(id, k)), title: R.previewOf(named(id, k)) }));
  function againstTheComputer(level) {
    const [[mine, first], ...others] = kingdomsOf(doc);
    return { seat: mine, hint: R.playAs(named(mine, first)), body: { bots: Object.fromEntries(others.map(([id]) => [id, level])),
      referee: "kadesh", clock: { days_per_move: 2, on_timeout: "computer" } } };
  }
  return { draw, fieldOf, drawPreview, centerOn, seats, againstTheComputer };
}

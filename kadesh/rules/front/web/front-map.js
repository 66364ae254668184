// Front's map: the battle as the side knows it, drawn in SVG (ground, works, units, fog, orders), with
// zoom and pan (wheel, pinch, drag, buttons), a minimap, and a keyboard cursor: the whole map plays
// without a mouse. It draws what it is given and reports what the player points at; the page (front.js)
// decides what a click means, from the server's legal actions.
//
//   const map = createMap(host, { lang, glossary, onCell(cellName, { layer, unit }), onHover(cellName) });
//   map.render({ view, seat, selected, reachable, path, targets, spent, hover, traces });  map.centerOn("D4");
//
// traces: the journal's marks of what the other side did that the side saw (its seen ways, shots, losses).
//
// onCell's layer is "air" when the player picked an aircraft in flight, else "ground"; unit is the id of
// the unit picked on that layer (null on an empty cell). onHover(cell) follows the pointer and the cursor.
//
// Outside a game (the designer, /design): render's `faults` (cell names) are marked as cells to fix, and a
// `painter` ({ painting(), start(cell), over(cell), end() }) takes a press and drag while painting() says so:
// the press paints its cell, the drag each cell it crosses, instead of moving the map (two fingers still pinch).

import { el, columnName, parseMapCell } from "/static/dom.js";
import * as art from "/static/rules/front-map-art.js";
import { createCamera } from "/static/rules/front-map-view.js";
import { describer, legend } from "/static/rules/front-map-words.js";

const { CELL } = art;
// Where a unit sits in its cell: on the ground, on the ground under an aircraft, in flight (two slots).
// Alone in its cell an aircraft in flight is drawn larger, raised over its shadow.
const PLACE = { ground: "", under: "translate(0.5 10) scale(.74)", air0: "translate(13.5 -4.5) scale(.68)",
  air1: "translate(-1 -4.5) scale(.68)", alone: "translate(3 -3.5) scale(.85)" };
const SHADOW = { air0: "M16 31.5a8 2.6 0 0 1 16 0a8 2.6 0 0 1-16 0z", alone: "M10 33a10 3 0 0 1 20 0a10 3 0 0 1-20 0z" };
const AIR_BOX = { air0: [16, 0.5, 39.5, 19.5], alone: [4.5, 0.5, 35.5, 28] };
const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
const brackets = (x0, y0, x1, y1, n = 7) =>
  `M${x0} ${y0 + n}V${y0}H${x0 + n}M${x1 - n} ${y0}H${x1}V${y0 + n}M${x1} ${y1 - n}V${y1}H${x1 - n}M${x0 + n} ${y1}H${x0}V${y1 - n}`;
const square = (x, y) => `M${x * CELL} ${y * CELL}h${CELL}v${CELL}h-${CELL}z`;
let serial = 0;

function ensureStylesheet() {
  if (document.querySelector("link[data-front-map]")) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/rules/front-map.css", "data-front-map": true }));
}

// The outline of a set of cells ("x,y" keys): the edges no other cell of the set shares.
function outline(keys) {
  let d = "";
  for (const key of keys) {
    const [x, y] = key.split(",").map(Number);
    const ox = x * CELL, oy = y * CELL;
    if (!keys.has(`${x},${y - 1}`)) d += `M${ox} ${oy}h${CELL}`;
    if (!keys.has(`${x + 1},${y}`)) d += `M${ox + CELL} ${oy}v${CELL}`;
    if (!keys.has(`${x},${y + 1}`)) d += `M${ox} ${oy + CELL}h${CELL}`;
    if (!keys.has(`${x - 1},${y}`)) d += `M${ox} ${oy}v${CELL}`;
  }
  return d;
}
const keyOf = (name) => { const [x, y] = parseMapCell(name); return `${x},${y}`; };

export function createMap(host, { lang = "fr", glossary = {}, onCell = () => {}, onHover = () => {}, painter = null } = {}) {
  ensureStylesheet();
  lang = lang === "en" ? "en" : "fr";
  const words = describer(lang, glossary);
  const { t } = words;
  const uid = `fm${++serial}`;
  let state = null, rows = 0, cols = 0, names = [], mapKey = "";
  let cellNodes = [], labels = [], contents = [];  // the grid's cells, their names and contents as last drawn
  let cells = new Map();        // cell name → { ground, air: [] } units drawn there
  let cursor = [0, 0], hoverCell = null, pointerHover = false;

  const button = (text, label, onclick, extra = {}) =>
    el("button", { type: "button", "aria-label": label, title: label, onclick, ...extra }, text);
  const legendBox = el("div", { id: `${uid}-legend`, class: "fm-legend card", hidden: true });
  const legendButton = button(t.legend, null, () => {
    const open = legendBox.hidden;
    if (open && !legendBox.childElementCount) legendBox.append(...legend(lang, glossary, state?.seat === "red" ? "red" : "blue"));
    legendBox.hidden = !open;
    legendButton.setAttribute("aria-expanded", String(open));
  }, { "aria-expanded": "false", "aria-controls": `${uid}-legend`, class: "fm-legend-toggle" });
  const miniButton = button(t.minimap, null, () => camera.toggleWhole(), { "aria-pressed": "false" });
  const toolbar = el("div", { class: "fm-tools", role: "toolbar", "aria-label": t.tools },
    button("−", t.zoomOut, () => camera.zoomBy(1 / 1.3)), button("+", t.zoomIn, () => camera.zoomBy(1.3)), miniButton, legendButton);

  const colsInner = el("div", { class: "fm-ruler-inner" }), rowsInner = el("div", { class: "fm-ruler-inner" });
  const svg = el("svg:svg", { class: "front-map", role: "group", "aria-label": t.map("") });
  svg.innerHTML = `<defs><marker id="${uid}-arrow" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="3" markerHeight="3" orient="auto">`
    + `<path class="fm-arrowhead" d="M0 0L10 5 0 10z"/></marker>`
    + ["blue", "red", "shot"].map((kind) => `<marker id="${uid}-head-${kind}" viewBox="0 0 10 10" refX="6" refY="5" `
      + `markerWidth="3.4" markerHeight="3.4" orient="auto"><path class="fm-trace-head ${kind}" d="M0 0L10 5 0 10z"/></marker>`).join("")
    + `<pattern id="${uid}-hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">`
    + `<rect class="fm-hatch" width="2" height="8"/></pattern></defs>`;
  const world = el("svg:g", { class: "fm-world" });
  const layer = (name) => el("svg:g", { class: `fm-${name}` });
  const L = { terrain: layer("terrain"), structures: layer("structures"), marks: layer("marks"), fog: layer("fog"),
    zones: layer("zones"), over: layer("over") };
  const drawn = new Map();  // each layer's last markup: an unchanged layer is left alone
  const put = (node, markup) => { if (drawn.get(node) !== markup) { drawn.set(node, markup); node.innerHTML = markup; } };
  const grid = el("svg:g", { class: "fm-grid", role: "grid", tabindex: "0", "aria-label": t.grid, "aria-describedby": `${uid}-hint` });
  const hoverMark = el("svg:rect", { class: "fm-hover", width: CELL, height: CELL, visibility: "hidden" });
  const cursorMark = el("svg:rect", { class: "fm-cursor", x: 1.5, y: 1.5, width: CELL - 3, height: CELL - 3, rx: 3 });
  world.append(L.terrain, L.structures, L.marks, L.fog, L.zones, grid, L.over, hoverMark, cursorMark);
  svg.append(world);
  const mini = el("canvas", { class: "fm-minimap", "aria-hidden": "true" });
  const viewport = el("div", { class: "fm-viewport" }, svg);
  const frame = el("div", { class: "fm-frame" }, el("div", { class: "fm-corner" }),
    el("div", { class: "fm-ruler fm-cols", "aria-hidden": "true" }, colsInner),
    el("div", { class: "fm-ruler fm-rows", "aria-hidden": "true" }, rowsInner), el("div", { class: "fm-stage" }, viewport, mini));
  const element = el("div", { class: "fm" }, toolbar, frame,
    el("p", { id: `${uid}-hint`, class: "visually-hidden" }, t.hint), legendBox);
  host.append(element);

  // ---- drawing -------------------------------------------------------------------------------------
  function render(next) {
    state = next;
    const view = next.view;
    if (!view?.map?.length) return;
    const key = `${view.map.length}×${view.map[0].length}·${view.scenario?.id ?? ""}`;
    if (key !== mapKey) {
      mapKey = key;
      rows = view.map.length;
      cols = view.map[0].length;
      names = Array.from({ length: rows }, (_, y) => Array.from({ length: cols }, (_, x) => `${columnName(x)}${y + 1}`));
      camera.setMap(names);
      cellNodes = [];  // the grid's cells are made anew at the next draw
      const first = (view.units ?? []).find((u) => u.side === next.seat && u.cell && !u.aboard);
      cursor = first ? parseMapCell(first.cell) : [0, 0];
    }
    svg.setAttribute("aria-label", t.map(view.scenario?.[lang] ?? ""));
    const dragging = svg.classList.contains("fm-dragging") ? " fm-dragging" : "";
    svg.setAttribute("class", `front-map fm-hour-${view.hour ?? "day"} fm-season-${view.season ?? "summer"}${dragging}`);
    draw(view, next);
    if (!camera.ready()) camera.layout(true);
    else camera.drawMinimap(true);
    placeCursor();
  }

  function draw(view, s) {
    const seat = s.seat, spent = s.spent ?? new Set(), reachable = s.reachable ?? new Set(), targets = s.targets ?? new Map();
    const onPath = new Set(s.path ?? []), faults = new Set(s.faults ?? []);
    // Ground, with the finished bridges joining the roads.
    const built = new Set((view.structures ?? []).filter((w) => w.kind === "bridge" && w.complete && !w.carcass).map((w) => keyOf(w.cell)));
    put(L.terrain, art.terrainMarkup(view.map, built));
    const structureAt = new Map();
    let markup = "";
    for (const w of view.structures ?? []) {
      structureAt.set(w.cell, w);
      const [x, y] = parseMapCell(w.cell);
      markup += `<g transform="translate(${x * CELL} ${y * CELL})">${art.structureArt(w)}</g>`;
    }
    put(L.structures, markup);
    // Capture points, mines, fires.
    const points = view.points ?? {}, mines = new Set(view.mines ?? []), fires = new Set(view.fires ?? []);
    markup = "";
    const at = (name, inner) => { const [x, y] = parseMapCell(name); return `<g transform="translate(${x * CELL} ${y * CELL})">${inner}</g>`; };
    for (const [name, holder] of Object.entries(points)) markup += at(name, art.pointArt(holder));
    for (const name of mines) markup += at(name, art.MINE);
    for (const name of fires) markup += at(name, art.FIRE);
    put(L.marks, markup);
    // Fog: the cells out of sight now, shaded and hatched over the ground as remembered.
    let fog = "";
    const sight = view.sight ?? [];
    for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) if (sight[y]?.[x] === "0") fog += square(x, y);
    put(L.fog, `<rect class="fm-tint" width="${cols * CELL}" height="${rows * CELL}"/>`
      + (fog ? `<path class="fm-fog-shade" d="${fog}"/><path class="fm-fog-hatch" fill="url(#${uid}-hatch)" d="${fog}"/>` : ""));
    // Zones: mission cells, patrol zones, reachable cells.
    markup = "";
    const objectiveCells = new Set();
    for (const o of view.victory?.objectives ?? []) {
      const list = o.cells ?? o.exit ?? [];
      for (const n of list) objectiveCells.add(n);
      if (list.length) markup += `<path class="fm-objective ${o.kind === "escort" ? "escort" : "hold"}" d="${outline(new Set(list.map(keyOf)))}"/>`;
    }
    const sideOf = new Map((view.units ?? []).map((u) => [u.id, u.side]));
    for (const p of view.patrols ?? []) {
      const [x, y] = parseMapCell(p.cell), r = p.radius ?? 2;
      const x0 = Math.max(0, x - r), y0 = Math.max(0, y - r), x1 = Math.min(cols, x + r + 1), y1 = Math.min(rows, y + r + 1);
      markup += `<rect class="fm-patrol side-${sideOf.get(p.unit) ?? seat}" x="${x0 * CELL + 2}" y="${y0 * CELL + 2}" `
        + `width="${(x1 - x0) * CELL - 4}" height="${(y1 - y0) * CELL - 4}" rx="6"/>`;
    }
    if (reachable.size) {
      const keys = new Set([...reachable].map(keyOf));
      markup += `<path class="fm-reach" d="${[...keys].map((k) => { const [x, y] = k.split(","); return square(+x, +y); }).join("")}"/>`
        + `<path class="fm-reach-edge" d="${outline(keys)}"/>`;
    }
    put(L.zones, markup);
    // Units, by cell: an aircraft in flight sits in its cell's upper corner, over the unit on the ground.
    cells = new Map();
    const selected = (view.units ?? []).find((u) => u.id === s.selected);
    for (const u of view.units ?? []) {
      if (!u.cell || u.aboard) continue;  // a passenger rides inside its carrier
      const slot = cells.get(u.cell) ?? { ground: null, air: [] };
      if (u.flying) slot.air.push(u);
      else if (!slot.ground) slot.ground = u;
      cells.set(u.cell, slot);
    }
    const unitMarkup = (u, place, where) => {
      const info = glossary.units?.[u.type] ?? {};
      const own = u.side === seat;
      const f = { hp: u.hp, hpMax: info.hp ?? u.hp, camouflaged: u.camouflaged, alert: u.alert, patrol: Boolean(u.patrol), tag: u.tag };
      if (own && info.ammo && u.ammo != null) Object.assign(f, { ammo: u.ammo, ammoMax: info.ammo });
      if (own && info.fuel && u.fuel != null) Object.assign(f, { fuel: u.fuel, fuelMax: info.fuel });
      else if (own && info.battery && u.battery != null) Object.assign(f, { fuel: u.battery, fuelMax: info.battery });
      const isSpent = spent.has(u.id), isSelected = u.id === s.selected;
      const cls = `unit side-${u.side} ${own ? "own" : "enemy"}${isSpent ? " spent" : ""}${isSelected ? " selected" : ""}${u.flying ? " flying" : ""}`;
      const label = words.unit(u, { where, own, spent: isSpent, selected: isSelected });
      return `<g class="${cls}" data-unit="${esc(u.id)}" data-layer="${u.flying ? "air" : "ground"}"${place ? ` transform="${place}"` : ""} `
        + `role="img" aria-label="${esc(label)}">${isSelected ? `<rect class="fm-selected" x="2.5" y="4" width="35" height="33" rx="5"/>` : ""}`
        + `${art.unitSymbol(u.type, info)}${art.unitFigures(f)}</g>`;
    };
    const nextLabels = [], nextContents = [];
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < cols; x++) {
        const name = names[y][x];
        const slot = cells.get(name);
        const parts = [`${name}, ${words.terrainName(view.map[y][x])}`];
        const w = structureAt.get(name);
        if (w) parts.push(words.structureName(w));
        if (name in points) parts.push(t.point(points[name]));
        if (objectiveCells.has(name)) parts.push(t.objective);
        if (mines.has(name)) parts.push(t.mine);
        if (fires.has(name)) parts.push(t.fire);
        if (sight[y]?.[x] === "0") parts.push(t.fog);
        if (reachable.has(name)) parts.push(t.reach);
        if (onPath.has(name)) parts.push(t.path);
        if (targets.has(name)) parts.push(t.target[targets.get(name)] ?? t.target.ground);
        if (faults.has(name)) parts.push(t.fault);
        let inner = "";
        if (slot) {
          const units = [];
          const alone = !slot.ground && slot.air.length === 1;
          if (slot.air.length) inner += `<path class="fm-shadow" d="${SHADOW[alone ? "alone" : "air0"]}"/>`;
          if (slot.ground) { inner += unitMarkup(slot.ground, slot.air.length ? PLACE.under : PLACE.ground, true); units.push(slot.ground); }
          slot.air.slice(0, 2).forEach((u, i) => { inner += unitMarkup(u, alone ? PLACE.alone : PLACE[`air${i}`], true); units.push(u); });
          const own = (u) => u.side === seat;
          parts[parts.length - 1] += ` : ${units.map((u) => words.unit(u, { where: false, own: own(u), spent: spent.has(u.id) })).join(lang === "fr" ? " ; " : "; ")}`;
          inner = `<g transform="translate(${x * CELL} ${y * CELL})">${inner}</g>`;
        }
        const label = lang === "fr" ? parts.join(", ") : parts.join(", ").replace(" : ", ": ");
        nextLabels.push(label);
        nextContents.push(inner);
      }
    }
    // A cell is a rectangle; one with units is a group of its rectangle and the units (fewer elements, faster).
    const cellMarkup = (i) => {
      const x = i % cols, y = (i - x) / cols, name = names[y][x];
      const head = `role="gridcell" id="${uid}-${name}" data-cell="${name}" aria-label="${esc(nextLabels[i])}"`;
      const rect = `x="${x * CELL}" y="${y * CELL}" width="${CELL}" height="${CELL}"`;
      return nextContents[i] ? `<g ${head}><rect class="fm-hit" ${rect}/>${nextContents[i]}</g>` : `<rect class="fm-hit" ${head} ${rect}/>`;
    };
    if (!cellNodes.length) {  // a new map: its cells made at once; each later draw changes only what changed
      let markup = "";
      for (let y = 0; y < rows; y++) {
        markup += `<g role="row">`;
        for (let x = 0; x < cols; x++) markup += cellMarkup(y * cols + x);
        markup += "</g>";
      }
      grid.innerHTML = markup;
      cellNodes = [...grid.querySelectorAll("[data-cell]")];
    } else {
      for (let i = 0; i < cellNodes.length; i++) {
        const node = cellNodes[i];
        if (contents[i] !== nextContents[i]) {
          node.insertAdjacentHTML("afterend", cellMarkup(i));
          cellNodes[i] = node.nextElementSibling;
          node.remove();
        } else if (labels[i] !== nextLabels[i]) node.setAttribute("aria-label", nextLabels[i]);
      }
    }
    labels = nextLabels;
    contents = nextContents;
    // Over everything: what the other side was seen doing, the path, the targets.
    markup = (s.traces ?? []).map((trace) => art.traceArt(trace, (kind) => `${uid}-head-${kind}`)).join("");
    const path = [...(s.path ?? [])];
    if (selected?.cell && path.length && path[0] !== selected.cell) path.unshift(selected.cell);
    if (path.length > 1) {
      const pts = path.map((n) => { const [x, y] = parseMapCell(n); return [x * CELL + CELL / 2, y * CELL + CELL / 2]; });
      const [a, b] = pts;
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
      pts[0] = [a[0] + ((b[0] - a[0]) * 14) / len, a[1] + ((b[1] - a[1]) * 14) / len];  // leave the unit readable
      const d = `M${pts.map((p) => p.map((v) => Math.round(v * 10) / 10).join(" ")).join("L")}`;
      markup += `<path class="fm-path-edge" d="${d}"/><path class="fm-path" d="${d}" marker-end="url(#${uid}-arrow)"/>`;
    }
    for (const [name, kind] of targets) {
      const [x, y] = parseMapCell(name), ox = x * CELL, oy = y * CELL;
      if (kind === "air") {
        const slot = cells.get(name);
        const box = AIR_BOX[slot && !slot.ground && slot.air.length === 1 ? "alone" : "air0"];
        markup += `<path class="fm-target air" d="${brackets(ox + box[0], oy + box[1], ox + box[2], oy + box[3], 5)}"/>`;
      } else {
        markup += `<path class="fm-target-fill" d="${square(x, y)}"/>`
          + `<path class="fm-target ${kind === "structure" ? "structure" : "ground"}" d="${brackets(ox + 2, oy + 2, ox + CELL - 2, oy + CELL - 2)}"/>`;
      }
    }
    for (const name of faults) {
      const [x, y] = parseMapCell(name), ox = x * CELL, oy = y * CELL;
      markup += `<path class="fm-fault" d="${square(x, y)}"/><path class="fm-fault-edge" d="${brackets(ox + 2, oy + 2, ox + CELL - 2, oy + CELL - 2)}"/>`;
    }
    put(L.over, markup);
    const hover = s.hover ?? hoverCell;
    showHover(hover);
  }

  function showHover(name) {
    if (!name || !rows) { hoverMark.setAttribute("visibility", "hidden"); return; }
    const [x, y] = parseMapCell(name);
    hoverMark.setAttribute("x", x * CELL);
    hoverMark.setAttribute("y", y * CELL);
    hoverMark.setAttribute("visibility", "visible");
  }

  // ---- the keyboard cursor -----------------------------------------------------------------------
  const cursorName = () => names[cursor[1]]?.[cursor[0]];
  function placeCursor() {
    cursorMark.setAttribute("transform", `translate(${cursor[0] * CELL} ${cursor[1] * CELL})`);
    if (cursorName()) grid.setAttribute("aria-activedescendant", `${uid}-${cursorName()}`);
  }
  function moveCursor(x, y) {
    cursor = [Math.max(0, Math.min(cols - 1, x)), Math.max(0, Math.min(rows - 1, y))];
    placeCursor();
    camera.keepInView(cursor);
    onHover(cursorName());
  }
  // The unit a pick on a cell means: the one on the ground, else the aircraft over it (or the aircraft, for "air";
  // a click beside the drawings of a cell picks the ground only).
  function pick(name, wanted) {
    const slot = cells.get(name);
    if (wanted === "ground-only") return { layer: "ground", unit: slot?.ground?.id ?? null };
    if (wanted === "air" && slot?.air.length) return { layer: "air", unit: slot.air[0].id };
    if (slot?.ground || !slot?.air.length) return { layer: "ground", unit: slot?.ground?.id ?? null };
    return { layer: "air", unit: slot.air[0].id };
  }
  grid.addEventListener("keydown", (event) => {
    if (!rows || event.altKey || event.ctrlKey || event.metaKey) return;
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    if (step) {
      event.preventDefault();
      const n = event.shiftKey ? 5 : 1;
      moveCursor(cursor[0] + step[0] * n, cursor[1] + step[1] * n);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onCell(cursorName(), pick(cursorName(), event.shiftKey ? "air" : "ground"));
    } else if (event.key === "+" || event.key === "=") {
      event.preventDefault();
      camera.zoomBy(1.3);
    } else if (event.key === "-") {
      event.preventDefault();
      camera.zoomBy(1 / 1.3);
    }
  });
  grid.addEventListener("focus", () => { element.classList.add("fm-focused"); camera.holdView(); });
  grid.addEventListener("blur", () => element.classList.remove("fm-focused"));

  const camera = createCamera({ element, frame, viewport, svg, colsInner, rowsInner, mini,
    holdsPress: () => Boolean(painter?.painting()), onWhole: (whole) => miniButton.setAttribute("aria-pressed", String(whole)) },
    () => ({ view: state?.view, centre: firstCentre() }), () => (element.classList.contains("fm-focused") ? cursor : null));
  // Where a new map opens: on the selected unit, else amid what the other side was seen doing (the page opens
  // on its turn's summary), else amid the side's units.
  function firstCentre() {
    const units = state?.view.units ?? [];
    const chosen = units.find((u) => u.id === state.selected && u.cell);
    if (chosen) return parseMapCell(chosen.cell);
    const seen = (state.traces ?? []).map((t) => (t.kind === "moved" ? t.cells[t.cells.length - 1] : t.cell));
    if (seen.length) return middle(seen.map(parseMapCell));
    const own = units.filter((u) => u.side === state.seat && u.cell && !u.aboard).map((u) => parseMapCell(u.cell));
    return own.length ? middle(own) : null;
  }
  function middle(cells) {
    return [cells.reduce((a, c) => a + c[0], 0) / cells.length, cells.reduce((a, c) => a + c[1], 0) / cells.length];
  }

  // Pointer: the cell under it (onHover), and a pick (onCell) when a press did not drag the map.
  svg.addEventListener("pointermove", (event) => {
    if (event.buttons) return;
    const name = event.target.closest?.("[data-cell]")?.dataset.cell ?? null;
    if (name === hoverCell) return;
    hoverCell = name;
    pointerHover = true;
    if (!state?.hover) showHover(name);
    onHover(name);
  });
  svg.addEventListener("pointerleave", () => {
    if (pointerHover && hoverCell) { hoverCell = null; if (!state?.hover) showHover(null); onHover(null); }
    pointerHover = false;
  });
  svg.addEventListener("click", (event) => {
    if (camera.dragEnded() || painter?.painting()) return;  // a painter's press painted already
    const cellNode = event.target.closest?.("[data-cell]");
    if (!cellNode) return;
    const name = cellNode.dataset.cell;
    const unitNode = event.target.closest("g.unit");
    cursor = parseMapCell(name);
    placeCursor();
    onCell(name, unitNode ? { layer: unitNode.dataset.layer, unit: unitNode.dataset.unit } : pick(name, "ground-only"));
  });

  // A painter's stroke: the cell under the pointer (a finger's pointer stays with the element it pressed, so the
  // cell is found where the pointer is, not from its target).
  let stroking = null;
  const cellUnder = (event) => document.elementFromPoint(event.clientX, event.clientY)?.closest?.("[data-cell]")?.dataset.cell ?? null;
  svg.addEventListener("pointerdown", (event) => {
    if (!painter?.painting() || (event.pointerType === "mouse" && event.button !== 0)) return;
    if (stroking !== null) { stroking = null; painter.end(); return; }  // a second finger: a pinch, not a stroke
    const name = cellUnder(event);
    if (!name) return;
    stroking = event.pointerId;
    cursor = parseMapCell(name);
    placeCursor();
    painter.start(name);
  });
  svg.addEventListener("pointermove", (event) => {
    if (event.pointerId !== stroking) return;
    const name = cellUnder(event);
    if (name) painter.over(name);
  });
  const endStroke = (event) => { if (event.pointerId === stroking) { stroking = null; painter.end(); } };
  svg.addEventListener("pointerup", endStroke);
  svg.addEventListener("pointercancel", endStroke);

  return { render, centerOn: camera.centerOn, element };
}

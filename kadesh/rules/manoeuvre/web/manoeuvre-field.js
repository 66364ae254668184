// Manœuvre's field in SVG: the cells (deployment zone shaded, legal cells lighter), the elements
// with their facing, and above them what the player must see at a glance: the threatened cell
// of the element looked at (hatched) and the other side's last turn (numbered arrows, fights).
// It draws what it is given; which cells are legal comes from the server's legal actions.

import { el } from "/static/dom.js";
import { named } from "/static/rules/manoeuvre-text.js";

export const CELL = 48;
const MARGIN = 20;
const COLUMNS = "abcdefghijkl";
const ARROW = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };

const xy = (cell) => [COLUMNS.indexOf(cell[0]), Number(cell.slice(1)) - 1];
const origin = (cell) => { const [x, y] = xy(cell); return [MARGIN + x * CELL, MARGIN + y * CELL]; };
const centre = (cell) => { const [x, y] = origin(cell); return [x + CELL / 2, y + CELL / 2]; };

function defs() {
  return el("svg:defs", {},
    el("svg:pattern", { id: "mv-hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      el("svg:rect", { width: 3, height: 8, class: "hatch-stroke" })),
    el("svg:marker", { id: "mv-arrowhead", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5,
      orient: "auto-start-reverse" }, el("svg:path", { d: "M0,0 L10,5 L0,10 z", class: "mark-head" })),
    el("svg:marker", { id: "mv-arrowhead-fight", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5,
      orient: "auto-start-reverse" }, el("svg:path", { d: "M0,0 L10,5 L0,10 z", class: "mark-head fight" })));
}

// A line between two cell centres, stopped short of both ends so that tokens stay readable.
function arrow(from, to, cls, marker) {
  const [x1, y1] = centre(from), [x2, y2] = centre(to);
  const length = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
  const start = Math.min(10, length / 3), end = Math.min(CELL / 2 - 2, length / 2);
  return el("svg:line", { x1: x1 + ux * start, y1: y1 + uy * start, x2: x2 - ux * end, y2: y2 - uy * end,
    class: cls, "marker-end": `url(#${marker})` });
}

function badge(cell, number, cls, slot) {
  const [px, py] = origin(cell);
  const cx = px + 9 + slot * 15, cy = py + 9;
  return el("svg:g", { class: `mark-badge ${cls}` },
    el("svg:circle", { cx, cy, r: 8 }),
    el("svg:text", { x: cx, y: cy + 0.5, "text-anchor": "middle", "dominant-baseline": "middle" }, String(number)));
}

// The other side's last turn, numbered in order; each number matches a line of the list beside.
function drawMarks(items, view, t) {
  const byId = Object.fromEntries(view.elements.map((e) => [e.id, e]));
  const occupied = new Set(view.elements.filter((e) => e.alive && e.cell).map((e) => e.cell));
  const slots = new Map();
  const slot = (cell) => { const n = slots.get(cell) || 0; slots.set(cell, n + 1); return n; };
  const under = el("svg:g", { class: "marks-under" });
  const over = el("svg:g", { class: "marks-over" });
  items.forEach((mark, index) => {
    const n = index + 1;
    const group = el("svg:g", { class: `mark ${mark.kind}`, "data-mark": mark.kind, "data-side": mark.side, "data-number": n });
    if (mark.kind === "move") {
      under.append(el("svg:rect", { x: origin(mark.from)[0] + 3, y: origin(mark.from)[1] + 3, width: CELL - 6, height: CELL - 6,
        rx: 6, class: `mark-from ${mark.side}`, "data-cell": mark.from }));
      group.append(arrow(mark.from, mark.to, `mark-arrow ${mark.side}`, "mv-arrowhead"), badge(mark.to, n, mark.side, slot(mark.to)));
      group.dataset.from = mark.from;
      group.dataset.to = mark.to;
    } else if (mark.kind === "turn") {
      group.append(badge(mark.cell, n, mark.side, slot(mark.cell)));
      group.dataset.to = mark.cell;
    } else if (mark.kind === "combat" && mark.cell) {
      if (mark.from) group.append(arrow(mark.from, mark.cell, `mark-arrow fight ${mark.mode}`, "mv-arrowhead-fight"));
      if (mark.recoil) group.append(arrow(mark.recoil.from, mark.recoil.to, "mark-arrow recoil", "mv-arrowhead"));
      if (mark.pushed) group.append(arrow(mark.pushed.from, mark.pushed.to, "mark-arrow recoil", "mv-arrowhead"));
      // The result is written on the loser's cell (where it stood before a recoil), never on the winner's.
      const loserCell = mark.destroyed ? (mark.destroyed === mark.defender ? mark.cell : mark.from ?? mark.cell)
        : mark.recoil ? mark.recoil.from : mark.cell;
      const [px, py] = origin(loserCell);
      if (mark.destroyed) {
        const lost = byId[mark.destroyed];
        const at = lost && mark.destroyed === mark.defender ? mark.cell : mark.from;
        if (at && !occupied.has(at)) {  // the destroyed element's ghost where it stood
          const [gx, gy] = origin(at);
          under.append(el("svg:g", { class: `ghost ${lost.side}` },
            el("svg:rect", { x: gx + 6, y: gy + 6, width: CELL - 12, height: CELL - 12, rx: 6 }),
            el("svg:path", { d: `M${gx + 12},${gy + 12} L${gx + CELL - 12},${gy + CELL - 12} M${gx + CELL - 12},${gy + 12} L${gx + 12},${gy + CELL - 12}` })));
        }
      }
      const result = t.results[mark.result] || "";
      group.append(el("svg:g", { class: `fight-result ${mark.result}` },
        el("svg:rect", { x: px + 2, y: py + CELL - 15, width: CELL - 4, height: 13, rx: 3 }),
        el("svg:text", { x: px + CELL / 2, y: py + CELL - 8, "text-anchor": "middle", "dominant-baseline": "middle" }, result)),
      badge(mark.cell, n, `${mark.side} fight`, slot(mark.cell)));
      group.dataset.cell = mark.cell;
      group.dataset.resultCell = loserCell;
      if (mark.destroyed) group.dataset.destroyed = mark.destroyed;
    }
    if (mark.line) group.prepend(el("svg:title", {}, `${n}. ${mark.line}`));
    over.append(group);
  });
  return [under, over];
}

export function drawField(o) {
  const { view, seat, t } = o;
  const size = MARGIN * 2 + CELL * 12;
  const svg = el("svg:svg", { viewBox: `0 0 ${size} ${size}`, class: "field", role: "group", "aria-label": t.field,
    "data-phase": view.phase });
  svg.append(defs());
  const coords = el("svg:g", { class: "coords", "aria-hidden": "true" });
  for (let i = 0; i < 12; i++) {
    const label = (x, y, text) => el("svg:text", { x, y, class: "coord", "text-anchor": "middle", "dominant-baseline": "middle" }, text);
    const along = MARGIN + i * CELL + CELL / 2;
    coords.append(label(along, MARGIN / 2, COLUMNS[i]), label(along, size - MARGIN / 2, COLUMNS[i]),
      label(MARGIN / 2, along, String(i + 1)), label(size - MARGIN / 2, along, String(i + 1)));
  }
  svg.append(coords);

  // Who threatens each cell, for the cells' tooltips.
  const threats = new Map();
  for (const e of view.elements) {
    if (e.alive && e.cell && e.threatens) threats.set(e.threatens, [...(threats.get(e.threatens) || []), e]);
  }
  const cells = el("svg:g", { class: "cells" });
  for (let y = 0; y < 12; y++) {
    for (let x = 0; x < 12; x++) {
      const cell = `${COLUMNS[x]}${y + 1}`;
      const classes = ["cell"];
      const active = o.legalCells.has(cell) || o.destCells.has(cell);
      if (o.zone.has(cell)) classes.push("zone");
      if (o.legalCells.has(cell)) classes.push("legal", "deploy");
      if (o.destCells.has(cell)) classes.push("legal", "dest");
      if (cell === o.pending) classes.push("pending");
      if (cell === o.threatCell) classes.push("threat");
      const tip = [t.cellTitle(cell)];
      if (o.zone.has(cell)) tip.push(t.zoneTitle);
      if (threats.has(cell)) tip.push(t.cellThreat(threats.get(cell).map((e) => named(t, e, seat, { where: true })).join(", ")));
      const rect = el("svg:rect", {
        x: MARGIN + x * CELL, y: MARGIN + y * CELL, width: CELL, height: CELL, class: classes.join(" "), "data-cell": cell,
        tabindex: active ? 0 : null, role: active ? "button" : null, "aria-label": active ? cell : null,
        onclick: () => o.onCell(cell),
        onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); o.onCell(cell); } },
        ondragover: (event) => { if (o.drag.id) event.preventDefault(); },
        ondrop: (event) => {
          event.preventDefault();
          o.onDrop(cell, event.dataTransfer.getData("text/plain") || o.drag.id);
        },
      }, el("svg:title", {}, tip.join(" · ")));
      cells.append(rect);
    }
  }
  svg.append(cells);
  // Where the selected element may go: a dot in each cell, plain to see on any ground (issue 44).
  svg.append(el("svg:g", { class: "dest-dots", "aria-hidden": "true" }, ...[...o.destCells].filter((cell) => cell !== o.pending)
    .map((cell) => { const [cx, cy] = centre(cell); return el("svg:circle", { cx, cy, r: CELL * 0.13, class: "dest-dot", "data-cell": cell }); })));

  const [marksUnder, marksOver] = drawMarks(o.marks, view, t);
  svg.append(marksUnder);

  const tokens = el("svg:g", { class: "tokens" });
  for (const e of view.elements) {
    if (!e.cell || !e.alive) continue;
    const [px, py] = origin(e.cell);
    const [dx, dy] = ARROW[e.facing];
    const cx = px + CELL / 2, cy = py + CELL / 2;
    const reach = CELL / 2 - 3, back = CELL / 2 - 11, wing = 8;
    const tip = [cx + dx * reach, cy + dy * reach];
    const base1 = [cx + dx * back - dy * wing, cy + dy * back + dx * wing];
    const base2 = [cx + dx * back + dy * wing, cy + dy * back - dx * wing];
    const classes = ["token", e.side, e.kind];
    if (e.id === o.selected) classes.push("selected");
    if (o.targets.has(e.id)) classes.push("target");
    if (e.id === o.aimed) classes.push("aimed");
    if (e.id === o.inspected) classes.push("inspected");
    if (e.acted) classes.push("acted");
    if (e.engaged_by && e.engaged_by.length) classes.push("engaged");
    const label = t.token(t.ofSide[e.side], t.kinds[e.kind], e.cell, t.facings[e.facing]);
    const token = el("svg:g", {
      class: classes.join(" "), "data-element": e.id, tabindex: 0, role: "button", "aria-label": label,
      "aria-pressed": e.id === o.selected || e.id === o.aimed ? "true" : "false",
      onclick: (event) => { event.stopPropagation(); o.onElement(e); },
      onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); o.onElement(e); } },
      ondragover: (event) => { if (o.drag.id) event.preventDefault(); },
      ondrop: (event) => {  // dropped on an element: its cell answers
        event.preventDefault();
        o.onDrop(e.cell, event.dataTransfer.getData("text/plain") || o.drag.id);
      },
    },
    el("svg:title", {}, o.tooltip(e)),
    el("svg:rect", { x: px + 4, y: py + 4, width: CELL - 8, height: CELL - 8, rx: 7, class: "body" }),
    el("svg:polygon", { points: [tip, base1, base2].map((p) => p.join(",")).join(" "), class: "arrow" }),
    el("svg:text", { x: cx, y: cy + 1, "text-anchor": "middle", "dominant-baseline": "middle", class: "label" }, t.short[e.kind]));
    tokens.append(token);
  }
  svg.append(tokens);

  // Above the tokens: the threatened cell, hatched, even when someone stands on it.
  if (o.threatCell) {
    const [px, py] = origin(o.threatCell);
    svg.append(el("svg:rect", { x: px + 1.5, y: py + 1.5, width: CELL - 3, height: CELL - 3, class: "threat-overlay",
      "data-cell": o.threatCell }));
  }
  svg.append(marksOver);
  return svg;
}

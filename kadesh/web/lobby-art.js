// The lobby's pictures: each game's own board, drawn small in SVG (colours from home.css's art-* classes).

import { el } from "./dom.js";

const W = 240;
const H = 140;

const rect = (x, y, width, height, cls, extra = {}) => el("svg:rect", { x, y, width, height, class: cls, ...extra });
const circle = (cx, cy, r, cls) => el("svg:circle", { cx, cy, r, class: cls });
const path = (d, cls) => el("svg:path", { d, class: cls });

// Manœuvre: the 12 × 12 field, North's line at the top, South's below, a few elements already engaged.
function manoeuvre() {
  const cell = 10;
  const x0 = (W - 12 * cell) / 2;
  const y0 = (H - 12 * cell) / 2;
  const parts = [rect(0, 0, W, H, "art-field")];
  for (const [x, y] of [[18, 22], [34, 40], [22, 70], [40, 104], [16, 118], [204, 20], [222, 48], [200, 84], [220, 110],
    [34, 12], [208, 126]]) {
    parts.push(circle(x, y, 6, "art-tree"), circle(x + 4, y + 3, 4.5, "art-tree"));
  }
  parts.push(path("M0 90 C20 84 40 96 60 88", "art-road"), path("M180 52 C200 46 220 58 240 50", "art-road"));
  for (let y = 0; y < 12; y++) {
    for (let x = 0; x < 12; x++) parts.push(rect(x0 + x * cell, y0 + y * cell, cell, cell, (x + y) % 2 ? "art-cell" : "art-cell-alt"));
  }
  parts.push(rect(x0, y0, 12 * cell, 12 * cell, "art-frame"));
  const element = (x, y, side, kind) => {
    const px = x0 + x * cell + 1.5;
    const py = y0 + y * cell + 1.5;
    const nodes = [rect(px, py, cell - 3, cell - 3, `art-${side}`, { rx: 1 })];
    if (kind === "bow") nodes.push(path(`M${px + 2} ${py + 5}h3`, "art-mark"));
    return nodes;
  };
  const north = [[2, 2], [3, 2], [4, 3], [5, 3], [6, 3], [7, 2], [8, 2], [3, 1, "bow"], [6, 1, "bow"], [5, 5], [9, 3]];
  const south = [[2, 9], [3, 9], [4, 8], [5, 6], [6, 8], [7, 8], [8, 9], [4, 10, "bow"], [7, 10, "bow"], [9, 9]];
  for (const [x, y, kind] of north) parts.push(...element(x, y, "north", kind));
  for (const [x, y, kind] of south) parts.push(...element(x, y, "south", kind));
  parts.push(path(`M${x0 + 5.5 * cell} ${y0 + 6 * cell}v-0.5`, "art-clash"));  // the engaged pair touch
  return parts;
}

// Royaumes: the Nile from the cataracts to the delta, its green banks, the desert, four kingdoms' cities.
function royaumes() {
  const river = "M150 140 C146 122 160 110 150 96 S132 78 140 62 S150 42 132 30";
  const parts = [rect(0, 0, W, H, "art-desert"), rect(0, 0, W, 14, "art-sea")];
  parts.push(path(`${river}`, "art-banks"), path(river, "art-river"));
  parts.push(path("M132 30 C124 22 112 18 104 14", "art-river-thin"), path("M132 30 C134 22 140 18 146 14", "art-river-thin"),
    path("M132 30 C128 22 124 18 122 14", "art-river-thin"));
  parts.push(path("M40 60 q6 -4 12 0 t12 0", "art-dune"), path("M190 110 q6 -4 12 0 t12 0", "art-dune"),
    path("M30 112 q6 -4 12 0 t12 0", "art-dune"), path("M196 48 q6 -4 12 0 t12 0", "art-dune"));
  const city = (x, y, kingdom) => [circle(x, y, 4.2, `art-city art-${kingdom}`), circle(x, y, 1.4, "art-city-heart")];
  for (const [x, y, k] of [[120, 22, "k1"], [144, 24, "k1"], [142, 52, "k2"], [160, 80, "k2"], [150, 118, "k3"],
    [168, 132, "k3"], [60, 40, "k4"], [44, 86, "k4"]]) parts.push(...city(x, y, k));
  parts.push(path("M84 92 l8 -12 l8 12 z", "art-pyramid"), path("M96 96 l6 -9 l6 9 z", "art-pyramid"));
  return parts;
}

// Bataille: two bodies of troops in ranks, facing each other across the field, missiles in flight.
function bataille() {
  const parts = [rect(0, 0, W, H, "art-ground"), path("M0 104 C60 96 180 112 240 100 V140 H0 Z", "art-field")];
  for (let rank = 0; rank < 3; rank++) {
    for (let file = 0; file < 6; file++) {
      parts.push(rect(30 + rank * 12, 30 + file * 14, 9, 10, "art-north", { rx: 1.5 }));
      parts.push(rect(192 - rank * 12, 32 + file * 14, 9, 10, "art-south", { rx: 1.5 }));
    }
  }
  for (let file = 0; file < 6; file++) {  // spears held forward
    parts.push(path(`M63 ${35 + file * 14}h10`, "art-spear"), path(`M168 ${37 + file * 14}h-10`, "art-spear"));
  }
  for (const [x, y] of [[92, 40], [110, 58], [128, 48], [104, 80], [140, 74]]) parts.push(path(`M${x} ${y} q14 -10 28 0`, "art-arrow"));
  return parts;
}

// Front: a map of square cells with a river and its bridge, woods, the two sides' units and a helicopter aloft.
function front() {
  const size = 12;
  const parts = [rect(0, 0, W, H, "art-ground")];
  const woods = new Set(["2,1", "3,1", "2,2", "14,4", "15,4", "15,3", "7,8", "8,8", "16,9"]);
  for (let x = 0; x < W / size; x++) {
    for (let y = 0; y < Math.ceil(H / size); y++) {
      parts.push(rect(x * size, y * size, size, size, woods.has(`${x},${y}`) ? "art-cell art-wood" : "art-cell"));
    }
  }
  parts.push(path("M118 0 C112 30 128 50 116 76 S124 120 118 140", "art-river"));
  parts.push(rect(108, 60, 20, 7, "art-bridge"));
  const unit = (x, y, side, kind) => {
    const [cx, cy] = [x * size + size / 2, y * size + size / 2];
    const box = [rect(cx - 8, cy - 5.5, 16, 11, `art-${side}`, { rx: 1 })];
    if (kind === "infantry") box.push(path(`M${cx - 8} ${cy - 5.5}l16 11M${cx + 8} ${cy - 5.5}l-16 11`, "art-mark"));
    else box.push(el("svg:ellipse", { cx, cy, rx: 5, ry: 2.6, class: "art-mark" }));
    return box;
  };
  for (const [x, y, kind] of [[4, 3, "infantry"], [5, 5, "armour"], [6, 2, "infantry"], [3, 6, "armour"]]) parts.push(...unit(x, y, "north", kind));
  for (const [x, y, kind] of [[14, 6, "infantry"], [15, 2, "armour"], [13, 8, "infantry"], [16, 7, "infantry"]]) parts.push(...unit(x, y, "south", kind));
  // A helicopter in flight over the river: its body and its rotor.
  parts.push(el("svg:ellipse", { cx: 150, cy: 38, rx: 7, ry: 4, class: "art-south" }),
    path("M157 38 l9 -2", "art-rotor"), path("M138 32 l24 0", "art-rotor"));
  return parts;
}

const DRAW = { manoeuvre, royaumes, bataille, front };

// The picture of ``name`` (empty paper for a ruleset without one), described by ``label``. A ruleset from
// another package draws its own: its guide module exports ``lobbyPicture({ el, W, H })``, the SVG parts.
export function picture(name, label, own = null) {
  const draw = DRAW[name] ?? (own ? () => own({ el, W, H }) : null);
  return el("svg:svg", { viewBox: `0 0 ${W} ${H}`, class: `lobby-art art-${name}`, role: "img", "aria-label": label,
    preserveAspectRatio: "xMidYMid slice" },
  ...(draw ? draw() : [rect(0, 0, W, H, "art-ground")]));
}

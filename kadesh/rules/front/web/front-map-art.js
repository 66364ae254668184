// Front's map art: the ground, works and buildings, and unit symbols, as SVG markup strings in a cell
// of CELL × CELL units. Strings, not elements: a whole battle is a few thousand shapes, and one
// innerHTML per layer builds them far faster than one createElement each. Pure functions of the view.

import { parseMapCell } from "/static/dom.js";

export const CELL = 40;

// The ground's base colours (also the minimap's); the marks drawn on top tell the kinds apart.
export const GROUND = {
  meadow: "#c8d99a", road: "#c8d99a", burnt: "#5b4e42", forest: "#a5c47c", hill: "#d9c38f", swamp: "#a7b791",
  crater: "#c9b48b", ruins: "#cdc1aa", wreck: "#bcbf9f", water: "#6fa3cc", bridge: "#6fa3cc",
};
export const MINIMAP = { ...GROUND, forest: "#5f8c45", road: "#a88b52", bridge: "#7a5a36", hill: "#c0a368", ruins: "#9a8d7a" };

const r1 = (n) => Math.round(n * 10) / 10;
// A fixed jitter per cell and purpose, so the same map always looks the same.
function jitter(x, y, k) {
  let h = Math.imul(x + 1, 374761393) ^ Math.imul(y + 1, 668265263) ^ Math.imul(k + 7, 2246822519);
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296 - 0.5;  // -0.5 … 0.5
}
export const circle = (cx, cy, r) => `M${r1(cx - r)} ${r1(cy)}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0z`;
const path = (cls, d, extra = "") => (d ? `<path class="${cls}" d="${d}"${extra}/>` : "");

// One cell's marks for a terrain, at (ox, oy). Returns [layerName, d] pairs added to `out`.
const DECOR = {
  forest(out, ox, oy, x, y) {
    for (const [k, tx, ty] of [[0, 11, 15], [1, 28, 12], [2, 19, 30]]) {
      const cx = ox + tx + jitter(x, y, k) * 6, cy = oy + ty + jitter(x, y, k + 3) * 5;
      out.tree.push(`M${r1(cx)} ${r1(cy - 9)}l6.5 11h-13z`);
      out.trunk.push(`M${r1(cx)} ${r1(cy + 2)}v3.5`);
    }
  },
  hill(out, ox, oy, x, y) {
    const dx = jitter(x, y, 1) * 4, dy = oy + 31 + jitter(x, y, 2) * 3;
    out.contour.push(`M${r1(ox + 4 + dx)} ${r1(dy)}a15 13 0 0 1 30 0M${r1(ox + 11 + dx)} ${r1(dy)}a8 7.5 0 0 1 16 0`);
  },
  swamp(out, ox, oy, x, y) {
    for (const [k, tx, ty] of [[0, 9, 17], [1, 28, 14], [2, 18, 32]]) {
      const bx = r1(ox + tx + jitter(x, y, k) * 5), by = r1(oy + ty + jitter(x, y, k + 4) * 4);
      out.reed.push(`M${bx} ${by}l-3.5-6M${bx} ${by}v-8M${bx} ${by}l3.5-6`);
      out.puddle.push(`M${r1(bx + 3)} ${r1(by + 3)}h7`);
    }
  },
  water(out, ox, oy, x, y) {
    for (const [k, tx, ty] of [[0, 5, 13], [1, 17, 28]]) {
      const wx = r1(ox + tx + jitter(x, y, k) * 5), wy = r1(oy + ty + jitter(x, y, k + 2) * 4);
      out.wave.push(`M${wx} ${wy}q2.5-3 5 0t5 0t5 0`);
    }
  },
  ruins(out, ox, oy, x, y) { out.wall.push(ruinsPath(ox, oy, jitter(x, y, 5) * 4)); },
  crater(out, ox, oy, x, y) {
    const cx = ox + 20 + jitter(x, y, 1) * 5, cy = oy + 20 + jitter(x, y, 2) * 5;
    out.pit.push(circle(cx, cy, 9));
    out.rim.push(circle(cx, cy, 10.5));
  },
  burnt(out, ox, oy, x, y) {
    for (let k = 0; k < 5; k++) {
      const ax = r1(ox + 5 + (k * 7) % 30 + jitter(x, y, k) * 6), ay = r1(oy + 6 + ((k * 13) % 28) + jitter(x, y, k + 9) * 6);
      out.ash.push(k % 2 ? `M${ax} ${ay}l4 -1.5` : `M${ax} ${ay}h0.1`);
    }
  },
  wreck(out, ox, oy, x, y) {
    const dx = r1(ox + jitter(x, y, 1) * 4), dy = r1(oy + jitter(x, y, 2) * 4);
    out.wreck.push(`M${dx + 8} ${dy + 27}l22-6 3 6-22 6zM${dx + 14} ${dy + 23}l1-5 8-2 3 4z`);
    out.barrel.push(`M${dx + 24} ${dy + 17}l5-4 2 2`);
  },
};

// Broken walls (ruins, and a structure's carcass): two jagged wall stubs.
export function ruinsPath(ox, oy, d = 0) {
  return `M${r1(ox + 5 + d)} ${oy + 31}v-14l3 3 2-5 3 4 2-2v14z`
    + `M${r1(ox + 20 + d)} ${oy + 30}v-9l4 2 3-4 6 1v5h-8v5z`;
}

// The ground: base colours, each terrain's marks, the roads joining their neighbours, the bridges' planks,
// the grid. `built`: the cells ("x,y") of finished bridges (works), which join the roads too.
export function terrainMarkup(map, built = new Set()) {
  const rows = map.length, cols = map[0].length;
  const base = {};
  const out = { tree: [], trunk: [], contour: [], reed: [], puddle: [], wave: [], wall: [], pit: [], rim: [], ash: [],
    wreck: [], barrel: [], road: [], deck: [] };
  const bridge = (x, y) => map[y][x] === "bridge" || built.has(`${x},${y}`);
  const road = (x, y) => x >= 0 && y >= 0 && x < cols && y < rows && (map[y][x] === "road" || bridge(x, y));
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const id = map[y][x];
      const ox = x * CELL, oy = y * CELL;
      base[id] ??= [];
      base[id].push(`M${ox} ${oy}h${CELL}v${CELL}h-${CELL}z`);
      if (id === "bridge") DECOR.water(out, ox, oy, x, y);
      else DECOR[id]?.(out, ox, oy, x, y);
      if (!road(x, y)) continue;
      const cx = ox + CELL / 2, cy = oy + CELL / 2;
      let joined = false;
      // Each join drawn once (towards E, S, SE, SW); a diagonal only where no square corner joins the two.
      for (const [dx, dy] of [[1, 0], [0, 1], [1, 1], [-1, 1], [-1, 0], [0, -1], [1, -1], [-1, -1]]) {
        if (!road(x + dx, y + dy)) continue;
        if (dx && dy && (road(x + dx, y) || road(x, y + dy))) continue;
        joined = true;
        const half = `M${cx} ${cy}l${dx * CELL / 2} ${dy * CELL / 2}`;
        if (bridge(x, y)) out.deck.push(half);
        else if (bridge(x + dx, y + dy)) out.road.push(half);
        else if (dy > 0 || (dy === 0 && dx > 0)) out.road.push(`M${cx} ${cy}l${dx * CELL} ${dy * CELL}`);
      }
      if (!joined) (bridge(x, y) ? out.deck : out.road).push(bridge(x, y) ? `M${ox} ${cy}h${CELL}` : `M${cx} ${cy}h0.1`);
    }
  }
  const parts = [];
  for (const [id, d] of Object.entries(base)) parts.push(`<path class="t-base" fill="${GROUND[id] ?? "#ccc"}" d="${d.join("")}"/>`);
  const join = (k) => out[k].join("");
  parts.push(path("t-wave", join("wave")), path("t-puddle", join("puddle")), path("t-pit", join("pit")),
    path("t-rim", join("rim")), path("t-contour", join("contour")), path("t-ash", join("ash")),
    path("t-road-edge", join("road")), path("t-road", join("road")),
    path("t-deck-edge", join("deck")), path("t-deck", join("deck")), path("t-planks", join("deck")),
    path("t-reed", join("reed")), path("t-wall", join("wall")), path("t-wreck", join("wreck")), path("t-barrel", join("barrel")),
    path("t-trunk", join("trunk")), path("t-tree", join("tree")));
  const lines = [];
  for (let x = 1; x < cols; x++) lines.push(`M${x * CELL} 0v${rows * CELL}`);
  for (let y = 1; y < rows; y++) lines.push(`M0 ${y * CELL}h${cols * CELL}`);
  parts.push(path("t-grid", lines.join("")));
  return parts.join("");
}

// One terrain cell alone (the legend's swatch), at the origin.
export function terrainSwatch(id) {
  if (id === "road") return `<g transform="translate(-40 0)">${terrainMarkup([["road", "road", "road"]]).replace(/<path class="t-grid"[^>]*>/, "")}</g>`;
  return terrainMarkup([[id]]);
}

// A work or building in its cell (local coordinates). side: "blue" | "red" | null.
const STRUCTURE_ART = {
  trench: () => {
    let d = "M4 4";
    for (let i = 0; i < 8; i++) d += "l2 3.5l2-3.5";
    for (let i = 0; i < 8; i++) d += "l-3.5 2l3.5 2";
    for (let i = 0; i < 8; i++) d += "l-2-3.5l-2 3.5";
    for (let i = 0; i < 8; i++) d += "l3.5-2l-3.5-2";
    return `<path class="s-line" d="${d}z"/>`;
  },
  bunker: () => `<rect class="s-concrete" x="5" y="5" width="30" height="30" rx="3"/>`
    + `<rect class="s-line" x="9" y="9" width="22" height="22" rx="2"/><path class="s-dome" d="M11 26a9 8 0 0 1 18 0z"/>`
    + `<path class="s-slit" d="M15 22h10"/>`,
  dragons_teeth: () => {
    let d = "";
    for (const [x, y] of [[4, 17], [16, 17], [28, 17], [10, 33], [22, 33]]) d += `M${x} ${y}l4-9 4 9z`;
    return `<path class="s-teeth" d="${d}"/><path class="s-line" d="M4 36.5h32"/>`;
  },
  bridge: () => `<path class="s-line s-bridge" d="M0 13h40M0 27h40"/><path class="s-planks" d="M0 20h40"/>`,
  watchtower: () => `<path class="s-wood" d="M14 35l4-19M26 35l-4-19M15.5 28h9"/><rect class="s-cabin" x="12.5" y="9" width="15" height="8"/>`
    + `<path class="s-roof" d="M10 10l10-6 10 6z"/>`,
  hospital: () => `<path class="s-white" d="${circle(20, 20, 11.5)}"/><path class="s-red-cross" d="M20 12v16M12 20h16"/>`,
  workshop: () => {
    let d = "";
    for (let i = 0; i < 32; i++) {
      const a = (i * Math.PI) / 16, r = Math.floor((i + 1) / 2) % 2 ? 8.5 : 12;
      d += `${i ? "L" : "M"}${r1(20 + r * Math.cos(a))} ${r1(20 + r * Math.sin(a))}`;
    }
    return `<path class="s-gear" d="${d}z${circle(20, 20, 3.5)}"/>`;
  },
  storage: () => `<path class="s-crate" d="M8 19h11v12h-11zM21 19h11v12h-11zM14.5 7h11v12h-11z"/>`
    + `<path class="s-crate-line" d="M8 19l11 12M21 19l11 12M14.5 7l11 12"/>`,
  heliport: () => `<path class="s-pad" d="${circle(20, 20, 13.5)}"/><path class="s-h" d="M15 13v14M25 13v14M15 20h10"/>`,
};
const BUILDINGS = new Set(["watchtower", "hospital", "workshop", "storage", "heliport"]);

export function structureArt(structure) {
  const side = structure.side ? `side-${structure.side}` : "side-none";
  if (structure.carcass) return `<g class="structure carcass ${side}"><path class="s-carcass" d="${ruinsPath(0, 0)}"/></g>`;
  if (structure.kind === "bridge" && structure.complete) return "";  // the ground layer lays its deck with the roads
  const state = structure.complete ? "" : " s-site";
  const draw = STRUCTURE_ART[structure.kind] ?? (() => `<rect class="s-line" x="6" y="6" width="28" height="28"/>`);
  const footprint = BUILDINGS.has(structure.kind) ? `<rect class="s-footprint" x="3" y="3" width="34" height="34" rx="2"/>` : "";
  return `<g class="structure ${side}${state}">${footprint}${draw()}</g>`;
}

// Unit symbols: a frame (a box on the ground, a dome for aircraft) in the side's colour, the branch mark in white.
// Wheels under the frame for wheeled units. Local coordinates: the frame spans x 6–34, y 8–26.
const FRAME = { ground: `<rect class="fr" x="6" y="8" width="28" height="18" rx="2"/>`,
  air: `<path class="fr" d="M6 26V18a14 10 0 0 1 28 0v8z"/>` };
const WHEELS = `<path class="wh" d="${circle(12.5, 26.5, 2.6)}${circle(27.5, 26.5, 2.6)}"/>`;
const line = (d) => `<path class="gl" d="${d}"/>`;
const fill = (d) => `<path class="gf" d="${d}"/>`;
const STAR = "M20 10.5l1.9 4.4 4.6.3-3.5 3 1.2 4.6-4.2-2.6-4.2 2.6 1.2-4.6-3.5-3 4.6-.3z";
const UAV = "M9 14l11 5 11-5-11 10z";
const SYMBOLS = {
  infantry: () => line("M6 8L34 26M34 8L6 26"),
  medic: () => `<path class="gl thick" d="M20 10.5v13M13.5 17h13"/>`,
  engineer: () => line("M11 22v-8h18v8M20 14v8"),
  sniper: () => line(`${circle(20, 17, 5)}M20 9.5v4M20 20.5v4M12.5 17h4M23.5 17h4`),
  scout: () => line("M6 26L34 8"),
  observer: () => line("M10 17q10-9 20 0q-10 9-20 0z") + fill(circle(20, 17, 2.6)),
  general: () => fill(STAR) + `<path class="flag-pole" d="M8 8V0.5"/><path class="flag" d="M8 0.5h8l-2 2.5 2 2.5h-8z"/>`,
  rocket_launcher: () => line("M9 25L20 10.5 31 25"),
  mortar: () => line("M20 22v-11M15.5 15l4.5-4.5 4.5 4.5") + fill(circle(20, 22, 2.4)),
  cannon: () => fill(circle(20, 17, 4.2)),
  truck: () => fill("M9 21.5v-9h13v9zM23 21.5v-6h5l3 3.5v2.5z"),
  supply_truck: () => `<path class="gl thick" d="M6 22h28"/>` + line("M13 10h14v8h-14zM13 10l14 8"),
  heavy_tank: () => `<path class="gl thick" d="M14 12.5h12a4.5 4.5 0 0 1 0 9h-12a4.5 4.5 0 0 1 0-9z"/>`,
  drone_operator: () => fill(UAV) + line("M20 19v-7M17 11.5h6"),
  jammer: () => line("M23.5 9.5l-7 8h7l-6 8") ,
  aa_battery: () => line("M9.5 25a10.5 10.5 0 0 1 21 0M20 25v-13M17 15l3-3.5 3 3.5"),
  surveillance_drone: () => fill(UAV) + `<path class="lens" d="${circle(20, 17.5, 2.3)}"/>`,
  bomb_drone: () => fill(UAV) + fill("M18.3 22h3.4v2.5a1.7 1.7 0 0 1-3.4 0z"),
  kamikaze_drone: () => fill(UAV) + line("M20 24.5v-3M16 23l-2 2.5M24 23l2 2.5"),
  attack_helicopter: () => line("M8 12.5h24M20 12.5v3M23 19.5l9-2.5M32 15v5M11 21l-4 1.5") + fill("M11 19.5a6 3.8 0 0 1 12 0a6 3.8 0 0 1-12 0z"),
  transport_helicopter: () => line("M7 11.5h11M22 11.5h11M12.5 11.5v4M27.5 11.5v4") + fill("M9 15.5h22a3 3 0 0 1 0 6h-22a3 3 0 0 1 0-6z"),
};
const WHEELED = new Set(["cannon", "truck", "supply_truck", "jammer", "aa_battery"]);

// A unit's symbol alone: frame and mark (the legend's swatch, and the body of a unit on the map).
export function unitSymbol(type, info) {
  const air = Boolean(info?.aircraft);
  return `${FRAME[air ? "air" : "ground"]}${WHEELED.has(type) || info?.class === "wheel" ? WHEELS : ""}${(SYMBOLS[type] ?? (() => ""))()}`;
}

// The figures drawn around the symbol: the hit-point bar, the camouflage leaf beside it, the ammunition
// (right) and fuel or battery (left) pips of an own unit, alert and patrol marks, the convoy mark.
// f = {hp, hpMax, ammo, ammoMax, fuel, fuelMax, camouflaged, alert, patrol, tag}
export const LEAF = "M3.5 35.5c0-5.5 3.5-7.5 6.5-7.5c0 5-2.5 7.5-6.5 7.5zM3.5 35.5l4.5-5";
export const ALERT = `<path class="mk-alert" d="M6 0.5l5.5 9.5h-11z"/><path class="mk-alert-bang" d="M6 3.5v3.2M6 8.2v0.4"/>`;
export const PATROL = `<path class="mk-patrol-bg" d="${circle(6, 5, 5)}"/><path class="mk-patrol" d="M2.8 5a3.2 3.2 0 1 1 1 2.3M2.2 7.9l1.6-0.6-0.2 1.9"/>`;
function pips(count, max, x, cls) {
  if (!max) return "";
  const slots = 4, lit = count > 0 ? Math.max(1, Math.round((slots * count) / max)) : 0;
  let out = "";
  for (let i = 0; i < slots; i++) {
    out += `<rect class="${cls}${i < lit ? "" : " empty"}" x="${x}" y="${r1(22.6 - i * 4.6)}" width="3.6" height="3.4"/>`;
  }
  return out;
}
export function unitFigures(f) {
  let out = "";
  const share = f.hpMax ? Math.max(0, Math.min(1, f.hp / f.hpMax)) : 1;
  const level = share > 0.6 ? "hp-high" : share > 0.3 ? "hp-mid" : "hp-low";
  out += `<rect class="hp-bg" x="10" y="29.5" width="24" height="4.4" rx="1"/>`
    + `<rect class="hp ${level}" x="10.6" y="30.1" width="${r1(22.8 * share)}" height="3.2"/>`;
  if (f.camouflaged) out += `<path class="mk-leaf" d="${LEAF}"/>`;
  if (f.ammoMax != null) out += pips(f.ammo, f.ammoMax, 35.6, "pip-ammo");
  if (f.fuelMax != null) out += pips(f.fuel, f.fuelMax, 0.8, "pip-fuel");
  if (f.alert) out += ALERT;
  if (f.patrol) out += `<g transform="translate(${f.alert ? 12 : 0} 0)">${PATROL}</g>`;
  if (f.tag) out += `<path class="mk-tag" d="M33 0.5l4 4-4 4-4-4z"/>`;
  return out;
}

// Marks of a cell (local coordinates): a mine, a fire, a capture point.
export const MINE = `<path class="mk-mine-spikes" d="M20 13v14M13 20h14M15 15l10 10M25 15l-10 10"/>`
  + `<path class="mk-mine" d="${circle(20, 20, 5)}"/><path class="mk-mine-dot" d="${circle(20, 20, 1.6)}"/>`;
export const FIRE = `<path class="mk-flame" d="M5 38c-3-5 0-9 2-14c1 4 3 5 3 8c1-2 1-4 0-6c4 3 4 9 1 12zM29 38c-3-5 0-9 2-14c1 4 3 5 3 8c1-2 1-4 0-6c4 3 4 9 1 12z"/>`
  + `<path class="mk-flame-core" d="M7 38c-1-2 0-4 1-6c1 2 2 3 1 6zM31 38c-1-2 0-4 1-6c1 2 2 3 1 6z"/>`;
export function pointArt(holder) {
  const ring = circle(20, 20, 16.5);
  return `<g class="point side-${holder ?? "none"}"><path class="pt-halo" d="${ring}"/><path class="pt-ring" d="${ring}"/>`
    + `<path class="pt-star" d="${STAR}" transform="matrix(1.3 0 0 1.3 -6 -1.8)"/></g>`;
}

// What the other side did that the side saw (the journal's marks, issue 44), in map coordinates: a unit's seen
// way (dashed where it went out of sight between two cells), a shot from the shooter's cell or, unseen, an arrow
// from its bearing, a unit lost. `head(side)` is the id of the arrowhead marker in that side's colour.
const TRACE_CENTRE = (name) => { const [x, y] = parseMapCell(name); return [x * CELL + CELL / 2, y * CELL + CELL / 2]; };
const TRACE_POINT = ([x, y]) => `${Math.round(x * 10) / 10} ${Math.round(y * 10) / 10}`;
const BEARING = { N: [0, -1], NE: [1, -1], E: [1, 0], SE: [1, 1], S: [0, 1], SW: [-1, 1], W: [-1, 0], NW: [-1, -1] };
const neighbours = (a, b) => { const [ax, ay] = parseMapCell(a), [bx, by] = parseMapCell(b); return Math.max(Math.abs(ax - bx), Math.abs(ay - by)) <= 1; };

export function traceArt(trace, head) {
  if (trace.kind === "moved") {
    const cells = trace.cells;
    const [sx, sy] = TRACE_CENTRE(cells[0]);
    let out = `<circle class="fm-trace-start" cx="${sx}" cy="${sy}" r="${cells.length === 1 ? 17 : 5}"/>`;
    for (let i = 1; i < cells.length; i++) {
      const d = `M${TRACE_POINT(TRACE_CENTRE(cells[i - 1]))}L${TRACE_POINT(TRACE_CENTRE(cells[i]))}`;
      const last = i === cells.length - 1 ? ` marker-end="url(#${head(trace.side)})"` : "";
      out += `<path class="fm-trace-edge" d="${d}"/><path class="fm-trace-line${neighbours(cells[i - 1], cells[i]) ? "" : " gap"}" d="${d}"${last}/>`;
    }
    return `<g class="fm-trace side-${trace.side}" data-trace="${trace.unit}" data-cells="${cells.join(" ")}">${out}</g>`;
  }
  const [tx, ty] = TRACE_CENTRE(trace.cell);
  if (trace.kind === "lost") {
    const r = 11;
    return `<path class="fm-lost" data-cell="${trace.cell}" d="M${tx - r} ${ty - r}L${tx + r} ${ty + r}M${tx + r} ${ty - r}L${tx - r} ${ty + r}"/>`;
  }
  const [fx, fy] = trace.from ? TRACE_CENTRE(trace.from)
    : [tx + BEARING[trace.bearing][0] * CELL * 1.6, ty + BEARING[trace.bearing][1] * CELL * 1.6];
  const len = Math.hypot(tx - fx, ty - fy) || 1;
  const end = [tx + ((fx - tx) * 9) / len, ty + ((fy - ty) * 9) / len];  // the arrow stops at the target's edge
  return `<g class="fm-shot${trace.from ? "" : " unseen"}" data-cell="${trace.cell}"${trace.bearing ? ` data-bearing="${trace.bearing}"` : ""}>`
    + `<path class="fm-shot-line" d="M${TRACE_POINT([fx, fy])}L${TRACE_POINT(end)}" marker-end="url(#${head("shot")})"/>`
    + `<circle class="fm-shot-hit" cx="${tx}" cy="${ty}" r="6"/></g>`;
}

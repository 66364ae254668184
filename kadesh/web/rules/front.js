// Front's view (a first, plain one; the full interface is a later issue): the ground as this side
// knows it, its units and the enemies it sees, and the orders of the selected unit from the
// server's legal actions: click a highlighted cell to move or fire, or use the buttons.

import { el, columnName, parseMapCell } from "/static/dom.js";

const CELL = 24;
const MARGIN = 22;
const COLOURS = { road: "#c9b27a", bridge: "#9a7b4f", meadow: "#cfe3a4", burnt: "#6b5a4a", forest: "#4f7f3a",
  hill: "#b59a6a", swamp: "#7f9a7a", crater: "#a08e70", ruins: "#9c8f86", wreck: "#777", water: "#7fb0d8" };
const T = {
  fr: { sides: { blue: "Bleu", red: "Rouge" }, turn: (n) => `Tour ${n}`, yourTurn: "À vous d'ordonner.",
    waiting: "Au tour de l'adversaire.", endTurn: "Fin du tour (Tab)", pick: "Choisissez une de vos unités sur la carte.",
    map: (title, w, h) => `Carte${title ? ` de « ${title} »` : ""} : ${w} × ${h} cases, vos unités et les ennemis que vous voyez.`,
    unit: (u) => `${unitName(u)} — ${typeName(u.type)} · ${u.hp} PV${u.ap != null ? ` · ${u.ap} PA · ${u.ammo} munition${u.ammo > 1 ? "s" : ""}` : ""}${u.fuel != null ? ` · carburant ${u.fuel}` : ""}`,
    orders: { board: (a) => `Monter dans ${unitNamed(a.truck)}`, unload: (a) => `Décharger ${unitNamed(a.passenger)} en ${a.to}`,
      resupply: (a) => `Ravitailler ${unitNamed(a.target)}`, build: (a) => `Construire ${structureName(a.kind)} en ${a.cell}`,
      clear: (a) => `Déblayer la carcasse en ${a.cell}`, demine: (a) => `Déminer ${a.cell}`, lay_mine: (a) => `Poser une mine en ${a.cell}`,
      alert: () => "Se mettre en alerte", patrol: () => "Patrouiller ici", end_patrol: () => "Cesser la patrouille",
      shoot: (a) => `Tirer sur l'ouvrage en ${a.target}` }, won: (s) => `Victoire : ${s}.`, draw: "Personne ne l'emporte.",
    mission: "Mission : ",
    seasons: { spring: "printemps", summer: "été", autumn: "automne", winter: "hiver" },
    hours: { dawn: "aube", morning: "matin", afternoon: "après-midi", dusk: "crépuscule", night: "nuit" },
    objective: {
      hold: (o, side) => `${side} doit tenir les cases encadrées de jaune jusqu'à la fin du tour ${o.until}.`,
      escort: (o, side) => `${side} doit faire sortir ${o.survivors} unités de son convoi par les cases encadrées de pointillés jaunes avant la fin du tour ${o.by}.`,
      destroy: (o, side) => `${side} doit abattre ${o.target === "general" ? "le général adverse" : "ses cibles"}${o.by ? ` avant la fin du tour ${o.by}` : ""}.`,
    } },
  en: { sides: { blue: "Blue", red: "Red" }, turn: (n) => `Turn ${n}`, yourTurn: "Your orders.",
    waiting: "The other side is playing.", endTurn: "End turn (Tab)", pick: "Pick one of your units on the map.",
    map: (title, w, h) => `Map${title ? ` of “${title}”` : ""}: ${w} × ${h} cells, your units and the enemies you see.`,
    unit: (u) => `${unitName(u)} — ${typeName(u.type)} · ${u.hp} HP${u.ap != null ? ` · ${u.ap} AP · ${u.ammo} round${u.ammo === 1 ? "" : "s"}` : ""}${u.fuel != null ? ` · fuel ${u.fuel}` : ""}`,
    orders: { board: (a) => `Board ${unitNamed(a.truck)}`, unload: (a) => `Unload ${unitNamed(a.passenger)} at ${a.to}`,
      resupply: (a) => `Resupply ${unitNamed(a.target)}`, build: (a) => `Build ${structureName(a.kind)} at ${a.cell}`,
      clear: (a) => `Clear the carcass at ${a.cell}`, demine: (a) => `Demine ${a.cell}`, lay_mine: (a) => `Lay a mine at ${a.cell}`,
      alert: () => "Go on alert", patrol: () => "Patrol here", end_patrol: () => "End the patrol",
      shoot: (a) => `Fire at the structure at ${a.target}` },
    won: (s) => `Victory: ${s}.`, draw: "Nobody wins.",
    mission: "Mission: ",
    seasons: { spring: "spring", summer: "summer", autumn: "autumn", winter: "winter" },
    hours: { dawn: "dawn", morning: "morning", afternoon: "afternoon", dusk: "dusk", night: "night" },
    objective: {
      hold: (o, side) => `${side} must hold the cells outlined in yellow until the end of turn ${o.until}.`,
      escort: (o, side) => `${side} must get ${o.survivors} units of its convoy out through the cells dotted in yellow before the end of turn ${o.by}.`,
      destroy: (o, side) => `${side} must bring down ${o.target === "general" ? "the enemy general" : "its targets"}${o.by ? ` before the end of turn ${o.by}` : ""}.`,
    } },
};

// Works and buildings: a mark and a name for the tooltip.
const STRUCTURES = {
  trench: { mark: "≡", fr: "tranchée", en: "trench" }, bunker: { mark: "▣", fr: "bunker", en: "bunker" },
  dragons_teeth: { mark: "△", fr: "dents de dragon", en: "dragon's teeth" }, bridge: { mark: "═", fr: "pont", en: "bridge" },
  watchtower: { mark: "♜", fr: "tour de garde", en: "watchtower" }, hospital: { mark: "✚", fr: "hôpital", en: "hospital" },
  workshop: { mark: "⚙", fr: "atelier", en: "workshop" }, storage: { mark: "▤", fr: "stockage", en: "storage" },
};
const STATE_WORDS = { fr: { site: "chantier", carcass: "carcasse" }, en: { site: "site", carcass: "carcass" } };
// A work or building to build, with its article (for the order's button).
const BUILD = {
  fr: { trench: "une tranchée", bunker: "un bunker", dragons_teeth: "des dents de dragon", bridge: "un pont",
    watchtower: "une tour de garde", hospital: "un hôpital", workshop: "un atelier", storage: "un stockage" },
  en: { trench: "a trench", bunker: "a bunker", dragons_teeth: "dragon's teeth", bridge: "a bridge",
    watchtower: "a watchtower", hospital: "a hospital", workshop: "a workshop", storage: "a storage depot" },
};
// Unit types (units.toml): their names, and the two letters drawn on the map.
const UNITS = {
  infantry: { fr: "infanterie", en: "infantry", mark: { fr: "IN", en: "IN" } },
  medic: { fr: "infirmier", en: "medic", mark: { fr: "IF", en: "MD" } },
  engineer: { fr: "ingénieur", en: "engineer", mark: { fr: "GÉ", en: "EN" } },
  sniper: { fr: "sniper", en: "sniper", mark: { fr: "SN", en: "SN" } },
  scout: { fr: "éclaireur", en: "scout", mark: { fr: "ÉC", en: "SC" } },
  observer: { fr: "observateur", en: "observer", mark: { fr: "OB", en: "OB" } },
  general: { fr: "général", en: "general", mark: { fr: "★", en: "★" } },
  rocket_launcher: { fr: "lance-roquettes", en: "rocket launcher", mark: { fr: "LR", en: "RL" } },
  mortar: { fr: "mortier", en: "mortar", mark: { fr: "MO", en: "MO" } },
  cannon: { fr: "canon", en: "cannon", mark: { fr: "CA", en: "CN" } },
  truck: { fr: "camion", en: "truck", mark: { fr: "CM", en: "TR" } },
  supply_truck: { fr: "ravitailleur", en: "supply truck", mark: { fr: "RA", en: "SU" } },
  heavy_tank: { fr: "char lourd", en: "heavy tank", mark: { fr: "CL", en: "HT" } },
};
const TERRAIN = {
  fr: { road: "route", bridge: "pont", meadow: "prairie", burnt: "terre brûlée", forest: "forêt", hill: "colline",
    swamp: "marécage", crater: "cratère", ruins: "village en ruine", wreck: "épave", water: "eau" },
  en: { road: "road", bridge: "bridge", meadow: "meadow", burnt: "burnt ground", forest: "forest", hill: "hill",
    swamp: "swamp", crater: "crater", ruins: "ruined village", wreck: "wreck", water: "water" },
};
const OTHER_WORDS = { fr: { unit: "unité", ground: "terrain", structure: "un ouvrage" },
  en: { unit: "unit", ground: "ground", structure: "a structure" } };

let lang = "fr";  // the language of the page being drawn
// "Bleu 12" for b12, as the journal names it.
function unitNamed(id) {
  const match = /^([br])(\d+)$/.exec(String(id ?? ""));
  return match ? `${T[lang].sides[match[1] === "b" ? "blue" : "red"]} ${match[2]}` : OTHER_WORDS[lang].unit;
}
const unitName = (unit) => unitNamed(unit.id);
const typeName = (type) => UNITS[type]?.[lang] ?? OTHER_WORDS[lang].unit;
const typeMark = (type) => UNITS[type]?.mark[lang] ?? "?";
const terrainName = (id) => TERRAIN[lang][id] ?? OTHER_WORDS[lang].ground;
const structureName = (kind) => BUILD[lang][kind] ?? OTHER_WORDS[lang].structure;

let selected = null;
let lastVersion = null;


const cellName = (x, y) => `${columnName(x)}${y + 1}`;

export function seatName(view, seat, lang) {
  return T[lang].sides[seat] ?? seat;
}

export function render(root, ctx) {
  const { view, seat, legal } = ctx;
  lang = ctx.lang === "en" ? "en" : "fr";
  const t = T[lang];
  if (ctx.game.version !== lastVersion) { lastVersion = ctx.game.version; if (!legal.some((a) => a.unit === selected)) selected = null; }
  const mine = legal.filter((a) => a.unit === selected);
  const moves = new Map(mine.filter((a) => a.type === "move").map((a) => [a.to, a]));
  const shots = new Map(mine.filter((a) => a.type === "shoot" && !a.at).map((a) => [a.target, a]));
  const rows = view.map.length, cols = view.map[0].length;
  const title = view.scenario?.[lang] ?? "";
  const svg = el("svg:svg", { viewBox: `0 0 ${MARGIN + cols * CELL + 4} ${MARGIN + rows * CELL + 4}`, class: "front-map",
    role: "group", "aria-label": t.map(title, cols, rows) });
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const name = cellName(x, y);
      const action = moves.get(name) || shots.get(name);
      svg.append(el("svg:rect", { x: MARGIN + x * CELL, y: MARGIN + y * CELL, width: CELL, height: CELL, "data-cell": name,
        class: `ground${moves.has(name) ? " move" : ""}${shots.has(name) ? " aim" : ""}`, fill: COLOURS[view.map[y][x]] ?? "#ccc",
        onclick: action ? () => ctx.act(action) : null }, el("svg:title", {}, `${name} ${terrainName(view.map[y][x])}`)));
    }
  }
  for (let x = 0; x < cols; x++) svg.append(el("svg:text", { x: MARGIN + x * CELL + CELL / 2, y: MARGIN - 6, class: "coord", "text-anchor": "middle" }, columnName(x)));
  for (let y = 0; y < rows; y++) svg.append(el("svg:text", { x: MARGIN - 4, y: MARGIN + y * CELL + CELL / 2 + 4, class: "coord", "text-anchor": "end" }, String(y + 1)));
  for (const [name, holder] of Object.entries(view.points ?? {})) {
    const [x, y] = parseMapCell(name);
    svg.append(el("svg:rect", { x: MARGIN + x * CELL + 2, y: MARGIN + y * CELL + 2, width: CELL - 4, height: CELL - 4, class: `point ${holder ?? "neutral"}` }));
  }
  for (const objective of view.victory?.objectives ?? []) {  // the cells a mission is about: held, or the way out
    for (const name of objective.cells ?? objective.exit ?? []) {
      const [x, y] = parseMapCell(name);
      svg.append(el("svg:rect", { x: MARGIN + x * CELL + 1, y: MARGIN + y * CELL + 1, width: CELL - 2, height: CELL - 2,
        class: `objective ${objective.kind} ${objective.side}` }));
    }
  }
  for (const work of view.structures ?? []) {
    const [x, y] = parseMapCell(work.cell);
    const kind = STRUCTURES[work.kind] ?? { mark: "?", fr: OTHER_WORDS.fr.structure, en: OTHER_WORDS.en.structure };
    const status = work.carcass ? ` (${STATE_WORDS[lang].carcass})` : work.complete ? "" : ` (${STATE_WORDS[lang].site})`;
    svg.append(el("svg:text", { x: MARGIN + x * CELL + CELL / 2, y: MARGIN + y * CELL + CELL / 2 + 5, "text-anchor": "middle",
      class: `structure ${work.side ?? "neutral"}${work.complete ? "" : " site"}` }, kind.mark,
      el("svg:title", {}, `${work.cell} ${kind[lang]}${status}`)));
  }
  for (const name of view.mines ?? []) {
    const [x, y] = parseMapCell(name);
    svg.append(el("svg:text", { x: MARGIN + x * CELL + CELL / 2, y: MARGIN + y * CELL + CELL - 4, "text-anchor": "middle", class: "mine" }, "✸"));
  }
  for (const unit of view.units ?? []) {
    if (!unit.cell || unit.aboard) continue;  // a passenger rides inside its truck
    const [x, y] = parseMapCell(unit.cell);
    const own = unit.side === seat;
    const action = shots.get(unit.cell);
    svg.append(el("svg:g", { class: `unit ${unit.side}${unit.id === selected ? " selected" : ""}`, "data-unit": unit.id,
      onclick: own ? () => { selected = unit.id === selected ? null : unit.id; render(root, ctx); } : action ? () => ctx.act(action) : null },
      el("svg:title", {}, `${t.unit(unit)} · ${unit.cell}`),
      el("svg:circle", { cx: MARGIN + x * CELL + CELL / 2, cy: MARGIN + y * CELL + CELL / 2, r: CELL / 2 - 3 }),
      el("svg:text", { x: MARGIN + x * CELL + CELL / 2, y: MARGIN + y * CELL + CELL / 2 + 3.5, "text-anchor": "middle",
        "aria-hidden": "true" }, typeMark(unit.type))));
  }
  const unit = (view.units ?? []).find((u) => u.id === selected);
  const others = mine.filter((a) => !["move", "shoot"].includes(a.type) || a.at);
  const myTurn = legal.some((a) => a.type === "end_turn");
  const outcome = ctx.game?.outcome ?? view.outcome;
  root.replaceChildren(el("div", { class: "front" },
    title ? el("h2", { class: "front-title" }, title) : null,
    el("p", { class: "front-status" }, `${t.turn(view.turn)} · ${t.seasons[view.season] ?? ""} · ${t.hours[view.hour] ?? ""} · `,
      outcome ? (outcome.winner ? t.won(t.sides[outcome.winner]) : t.draw) : myTurn ? t.yourTurn : t.waiting),
    ...(view.victory?.objectives ?? []).map((o) => el("p", { class: "front-mission" }, t.mission,
      t.objective[o.kind]?.(o, t.sides[o.side]) ?? "")),
    svg,
    el("p", {}, unit ? t.unit(unit) : myTurn ? t.pick : ""),
    el("div", { class: "front-orders" }, ...others.filter((a) => t.orders[a.type]).map((a) =>
      el("button", { type: "button", class: "order", "data-order": a.type, onclick: () => ctx.act(a) }, t.orders[a.type](a))),
      myTurn ? el("button", { type: "button", id: "end-turn", onclick: () => ctx.act({ type: "end_turn" }) }, t.endTurn) : null)));
  document.onkeydown = (event) => { if (event.key === "Tab" && myTurn && document.querySelector(".front")) { event.preventDefault(); ctx.act({ type: "end_turn" }); } };
}

// The home page's panel: choose a battle (the default one or a mission), open it, hand out the two sides' links.
export function setup(root, ctx) {
  const { lang, ruleset } = ctx;
  const words = lang === "en"
    ? { create: "Open the battle", scenario: "Battle", blue: "Blue's link", red: "Red's link", help: "Send each side its link." }
    : { create: "Ouvrir la bataille", scenario: "Bataille", blue: "Lien du Bleu", red: "Lien du Rouge", help: "Envoie à chaque camp son lien." };
  const spec = ruleset?.options_schema?.scenario ?? {};
  const choice = el("select", { id: "front-scenario" },
    ...(spec.offered ?? ["default"]).map((id) => el("option", { value: id }, spec.labels?.[id]?.[lang] ?? id)));
  const links = el("div", { id: "front-links" });
  root.replaceChildren(el("p", {}, el("label", { for: "front-scenario" }, `${words.scenario} `), choice),
    el("button", { type: "button", id: "front-create", onclick: async () => {
      const created = await ctx.create({ ruleset: "front", options: { scenario: choice.value } });
      if (!created) return;
      links.replaceChildren(el("p", {}, words.help), ...["blue", "red"].map((side) => el("p", {},
        el("a", { href: created.seats[side].link, "data-side": side }, words[side]))));
    } }, words.create), links);
}

// Front's view (a first, plain one; the full interface is a later issue): the ground as this side
// knows it, its units and the enemies it sees, and the orders of the selected unit from the
// server's legal actions: click a highlighted cell to move or fire, or use the buttons. An aircraft in
// flight is a badge in its cell's corner, over the unit below: click it to pick it, or to fire at it.

import { el, columnName, parseMapCell } from "/static/dom.js";

const CELL = 24;
const MARGIN = 22;
const BADGE = { w: 17, h: 11 };  // an aircraft in flight: a badge in its cell's corner, over whatever is below
const COLOURS = { road: "#c9b27a", bridge: "#9a7b4f", meadow: "#cfe3a4", burnt: "#6b5a4a", forest: "#4f7f3a",
  hill: "#b59a6a", swamp: "#7f9a7a", crater: "#a08e70", ruins: "#9c8f86", wreck: "#777", water: "#7fb0d8" };
const T = {
  fr: { sides: { blue: "Bleu", red: "Rouge" }, turn: (n) => `Tour ${n}`, yourTurn: "À vous d'ordonner.",
    waiting: "Au tour de l'adversaire.", frame: "Carte de la bataille", endTurn: "Fin du tour (Tab)", pick: "Choisissez une de vos unités sur la carte.",
    map: (title, w, h) => `Carte${title ? ` de « ${title} »` : ""} : ${w} × ${h} cases, vos unités et les ennemis que vous voyez.`,
    unit: (u) => describe(u, [`${u.hp} PV`, u.ap != null && `${u.ap} PA`, armed(u) && `${u.ammo} munition${plural(u.ammo)}`,
      u.rockets != null && `${u.rockets} roquette${plural(u.rockets)}`, u.fuel != null && `carburant ${u.fuel}`,
      u.battery != null && `batterie pour ${u.battery} tour${plural(u.battery)}`, u.flying != null && (u.flying ? "en vol" : "posé"),
      u.cargo?.length && `emporte ${u.cargo.map(passenger).join(", ")}`]),
    orders: { board: (a) => `Monter dans ${unitNamed(a.truck)}`, unload: (a) => `Décharger ${unitNamed(a.passenger)} en ${a.to}`,
      resupply: (a) => `Ravitailler ${unitNamed(a.target)}`, build: (a) => `Construire ${structureName(a.kind)} en ${a.cell}`,
      clear: (a) => `Déblayer la carcasse en ${a.cell}`, demine: (a) => `Déminer ${a.cell}`, lay_mine: (a) => `Poser une mine en ${a.cell}`,
      alert: () => "Se mettre en alerte", patrol: () => "Patrouiller ici", end_patrol: () => "Cesser la patrouille",
      shoot: (a) => `Tirer${weaponWords(a)} sur ${a.at === "structure" ? `l'ouvrage en ${a.target}` : targetWords(a)}`,
      bomb: (a) => `Larguer une bombe sur ${targetWords(a)}`, strike: (a) => `Foncer sur ${targetWords(a)} (le drone y reste)`,
      launch: (a) => `Faire décoller ${unitNamed(a.drone)} (${typeName(known.get(a.drone)?.type)}) au-dessus de ${a.to}`,
      recover: (a) => `Se poser près de son droniste${operatorWords(a)}`, land: (a) => `Se poser en ${known.get(a.unit)?.cell ?? ""}`,
      jam: () => "Brouiller les drones ennemis alentour" },
    launchAt: (a) => `Faire décoller ${unitNamed(a.drone)} (${typeName(known.get(a.drone)?.type)}) au-dessus de :`,
    target: { air: (what, cell) => `${what} au-dessus de ${cell}`, ground: (what, cell) => `${what} en ${cell}`, cell: (cell) => `la case ${cell}` },
    weapon: { rocket: " à la roquette", gun: " au canon", machine_gun: " à la mitrailleuse" },
    won: (s) => `Victoire : ${s}.`, draw: "Personne ne l'emporte.",
    mission: "Mission : ",
    seasons: { spring: "printemps", summer: "été", autumn: "automne", winter: "hiver" },
    hours: { dawn: "aube", morning: "matin", afternoon: "après-midi", dusk: "crépuscule", night: "nuit" },
    objective: {
      hold: (o, side) => `${side} doit tenir les cases encadrées de jaune jusqu'à la fin du tour ${o.until}.`,
      escort: (o, side) => `${side} doit faire sortir ${o.survivors} unités de son convoi par les cases encadrées de pointillés jaunes avant la fin du tour ${o.by}.`,
      destroy: (o, side) => `${side} doit abattre ${o.target === "general" ? "le général adverse" : "ses cibles"}${o.by ? ` avant la fin du tour ${o.by}` : ""}.`,
    } },
  en: { sides: { blue: "Blue", red: "Red" }, turn: (n) => `Turn ${n}`, yourTurn: "Your orders.",
    waiting: "The other side is playing.", frame: "Battle map", endTurn: "End turn (Tab)", pick: "Pick one of your units on the map.",
    map: (title, w, h) => `Map${title ? ` of “${title}”` : ""}: ${w} × ${h} cells, your units and the enemies you see.`,
    unit: (u) => describe(u, [`${u.hp} HP`, u.ap != null && `${u.ap} AP`, armed(u) && `${u.ammo} round${u.ammo === 1 ? "" : "s"}`,
      u.rockets != null && `${u.rockets} rocket${u.rockets === 1 ? "" : "s"}`, u.fuel != null && `fuel ${u.fuel}`,
      u.battery != null && `battery for ${u.battery} turn${u.battery === 1 ? "" : "s"}`, u.flying != null && (u.flying ? "in flight" : "landed"),
      u.cargo?.length && `carries ${u.cargo.map(passenger).join(", ")}`]),
    orders: { board: (a) => `Board ${unitNamed(a.truck)}`, unload: (a) => `Unload ${unitNamed(a.passenger)} at ${a.to}`,
      resupply: (a) => `Resupply ${unitNamed(a.target)}`, build: (a) => `Build ${structureName(a.kind)} at ${a.cell}`,
      clear: (a) => `Clear the carcass at ${a.cell}`, demine: (a) => `Demine ${a.cell}`, lay_mine: (a) => `Lay a mine at ${a.cell}`,
      alert: () => "Go on alert", patrol: () => "Patrol here", end_patrol: () => "End the patrol",
      shoot: (a) => `Fire${weaponWords(a)} at ${a.at === "structure" ? `the structure at ${a.target}` : targetWords(a)}`,
      bomb: (a) => `Drop a bomb on ${targetWords(a)}`, strike: (a) => `Dive onto ${targetWords(a)} (the drone is spent)`,
      launch: (a) => `Send ${unitNamed(a.drone)} (${typeName(known.get(a.drone)?.type)}) up over ${a.to}`,
      recover: (a) => `Land by its operator${operatorWords(a)}`, land: (a) => `Land at ${known.get(a.unit)?.cell ?? ""}`,
      jam: () => "Jam the enemy drones around" },
    launchAt: (a) => `Send ${unitNamed(a.drone)} (${typeName(known.get(a.drone)?.type)}) up over:`,
    target: { air: (what, cell) => `${what} over ${cell}`, ground: (what, cell) => `${what} at ${cell}`, cell: (cell) => `cell ${cell}` },
    weapon: { rocket: " a rocket", gun: " the gun", machine_gun: " the machine gun" },
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
  heliport: { mark: "H", fr: "héliport", en: "heliport" },
};
const STATE_WORDS = { fr: { site: "chantier", carcass: "carcasse" }, en: { site: "site", carcass: "carcass" } };
// A work or building to build, with its article (for the order's button).
const BUILD = {
  fr: { trench: "une tranchée", bunker: "un bunker", dragons_teeth: "des dents de dragon", bridge: "un pont",
    watchtower: "une tour de garde", hospital: "un hôpital", workshop: "un atelier", storage: "un stockage",
    heliport: "un héliport" },
  en: { trench: "a trench", bunker: "a bunker", dragons_teeth: "dragon's teeth", bridge: "a bridge",
    watchtower: "a watchtower", hospital: "a hospital", workshop: "a workshop", storage: "a storage depot",
    heliport: "a heliport" },
};
// Unit types (units.toml): their names, the two letters drawn on the map, whether they carry no weapon (no
// rounds to count), the article (la for a feminine name), and the main weapon's name when the unit has a
// second one (a shot then says which it fires).
const UNITS = {
  infantry: { fr: "infanterie", en: "infantry", mark: { fr: "IN", en: "IN" } },
  medic: { fr: "infirmier", en: "medic", mark: { fr: "IF", en: "MD" } },
  engineer: { fr: "ingénieur", en: "engineer", mark: { fr: "GÉ", en: "EN" } },
  sniper: { fr: "sniper", en: "sniper", mark: { fr: "SN", en: "SN" } },
  scout: { fr: "éclaireur", en: "scout", mark: { fr: "ÉC", en: "SC" } },
  observer: { fr: "observateur", en: "observer", mark: { fr: "OB", en: "OB" }, unarmed: true },
  general: { fr: "général", en: "general", mark: { fr: "★", en: "★" } },
  rocket_launcher: { fr: "lance-roquettes", en: "rocket launcher", mark: { fr: "LR", en: "RL" } },
  mortar: { fr: "mortier", en: "mortar", mark: { fr: "MO", en: "MO" } },
  cannon: { fr: "canon", en: "cannon", mark: { fr: "CA", en: "CN" } },
  truck: { fr: "camion", en: "truck", mark: { fr: "CM", en: "TR" }, unarmed: true },
  supply_truck: { fr: "ravitailleur", en: "supply truck", mark: { fr: "RA", en: "SU" }, unarmed: true },
  heavy_tank: { fr: "char lourd", en: "heavy tank", mark: { fr: "CL", en: "HT" }, weapon: "gun" },
  drone_operator: { fr: "droniste", en: "drone operator", mark: { fr: "DR", en: "DO" }, unarmed: true },
  surveillance_drone: { fr: "drone de surveillance", en: "surveillance drone", mark: { fr: "DS", en: "SD" }, unarmed: true },
  bomb_drone: { fr: "drone bombardier", en: "bomb drone", mark: { fr: "DB", en: "BD" } },
  kamikaze_drone: { fr: "drone kamikaze", en: "kamikaze drone", mark: { fr: "DK", en: "KD" } },
  jammer: { fr: "brouilleur", en: "jammer", mark: { fr: "BR", en: "JM" }, unarmed: true },
  aa_battery: { fr: "batterie anti-aérienne", en: "AA battery", mark: { fr: "AA", en: "AA" }, feminine: true },
  attack_helicopter: { fr: "hélicoptère d'attaque", en: "attack helicopter", mark: { fr: "HA", en: "AH" }, weapon: "machine_gun" },
  transport_helicopter: { fr: "hélicoptère de transport", en: "transport helicopter", mark: { fr: "HT", en: "TH" }, unarmed: true },
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
let known = new Map();  // the view's units by id, for the orders' words
const plural = (n) => (n > 1 ? "s" : "");
const armed = (u) => u.ammo != null && !UNITS[u.type]?.unarmed;  // its rounds: an own unit's, with a weapon
// "Bleu 6 — hélicoptère d'attaque · 18 PV · …": the unit's name and type, then its figures that apply.
const describe = (u, figures) => [`${unitName(u)} — ${typeName(u.type)}`, ...figures.filter(Boolean)].join(" · ");
const passenger = (id) => `${unitNamed(id)} (${typeName(known.get(id)?.type)})`;
// "l'hélicoptère d'attaque" / "the attack helicopter"
function typeWithArticle(type) {
  const name = typeName(type);
  if (lang === "en") return `the ${name}`;
  return /^[aeiouéèêh]/i.test(name) ? `l'${name}` : `${UNITS[type]?.feminine ? "la" : "le"} ${name}`;
}
// What a shot, bomb or strike aims at: the aircraft over the cell, or what stands on it, or the cell.
function targetWords(action) {
  const air = action.at === "air";
  const words = T[lang].target;
  const there = [...known.values()].find((u) => u.cell === action.target && !u.aboard && Boolean(u.flying) === air);
  return there ? words[air ? "air" : "ground"](typeWithArticle(there.type), action.target) : words.cell(action.target);
}
// The weapon a shot fires: its second one (rocket), or its main one when it has two.
const weaponWords = (action) => T[lang].weapon[action.weapon ?? UNITS[known.get(action.unit)?.type]?.weapon] ?? "";
const operatorWords = (action) => { const id = known.get(action.unit)?.operator; return id ? `, ${unitNamed(id)}` : ""; };
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
  known = new Map((view.units ?? []).map((u) => [u.id, u]));
  const mine = legal.filter((a) => a.unit === selected);
  const moves = new Map(mine.filter((a) => a.type === "move").map((a) => [a.to, a]));
  // A click on a cell or on what stands there fires the main weapon (else the rocket, a bomb, a strike);
  // a click on an aircraft in flight fires at it. Every other way to fire is a button under the map.
  const firing = mine.filter((a) => ["shoot", "bomb", "strike"].includes(a.type) && a.at !== "structure")
    .sort((a, b) => Boolean(a.weapon) - Boolean(b.weapon));
  const shots = new Map(), airShots = new Map();
  for (const a of firing) {
    const aims = a.at === "air" ? airShots : shots;
    if (!aims.has(a.target)) aims.set(a.target, a);
  }
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
  const onMap = (view.units ?? []).filter((u) => u.cell && !u.aboard);  // a passenger rides inside its truck
  const underAircraft = new Set(onMap.filter((u) => u.flying).map((u) => u.cell));
  const pick = (unit) => () => { selected = unit.id === selected ? null : unit.id; render(root, ctx); };
  for (const unit of onMap.filter((u) => !u.flying)) {  // on the ground, landed aircraft included
    const [x, y] = parseMapCell(unit.cell);
    const action = shots.get(unit.cell);
    // Under an aircraft in flight, the ground unit moves down and left to leave the corner to its badge.
    const under = underAircraft.has(unit.cell);
    const [cx, cy, r] = under ? [9, 15, 8] : [CELL / 2, CELL / 2, CELL / 2 - 3];
    svg.append(el("svg:g", { class: `unit ${unit.side}${under ? " under" : ""}${unit.flying === false ? " landed" : ""}${unit.id === selected ? " selected" : ""}`,
      "data-unit": unit.id, onclick: unit.side === seat ? pick(unit) : action ? () => ctx.act(action) : null },
      el("svg:title", {}, `${t.unit(unit)} · ${unit.cell}`),
      el("svg:circle", { cx: MARGIN + x * CELL + cx, cy: MARGIN + y * CELL + cy, r }),
      el("svg:text", { x: MARGIN + x * CELL + cx, y: MARGIN + y * CELL + cy + (under ? 3.2 : 3.5), "text-anchor": "middle",
        "aria-hidden": "true" }, typeMark(unit.type))));
  }
  for (const unit of onMap.filter((u) => u.flying)) {  // in flight: a badge in the cell's top right corner
    const [x, y] = parseMapCell(unit.cell);
    const action = airShots.get(unit.cell);
    svg.append(el("svg:g", { class: `unit aircraft ${unit.side}${unit.id === selected ? " selected" : ""}${action ? " aim" : ""}`,
      "data-unit": unit.id, onclick: unit.side === seat ? pick(unit) : action ? () => ctx.act(action) : null },
      el("svg:title", {}, `${t.unit(unit)} · ${unit.cell}`),
      el("svg:rect", { x: MARGIN + x * CELL + CELL - BADGE.w - 0.5, y: MARGIN + y * CELL + 0.5, width: BADGE.w, height: BADGE.h, rx: 3 }),
      el("svg:text", { x: MARGIN + x * CELL + CELL - BADGE.w / 2 - 0.5, y: MARGIN + y * CELL + BADGE.h / 2 + 3.5, "text-anchor": "middle",
        "aria-hidden": "true" }, typeMark(unit.type))));
  }
  const unit = (view.units ?? []).find((u) => u.id === selected);
  const clicked = new Set([...moves.values(), ...shots.values(), ...airShots.values()]);
  const others = mine.filter((a) => t.orders[a.type] && a.type !== "move" && a.type !== "launch"
    && !(a.type === "shoot" && !a.at && !a.weapon && clicked.has(a)));
  // Launches, drone by drone: one button per cell it may go up over.
  const launches = new Map();
  for (const a of mine.filter((a) => a.type === "launch")) launches.set(a.drone, [...(launches.get(a.drone) ?? []), a]);
  const myTurn = legal.some((a) => a.type === "end_turn");
  const outcome = ctx.game?.outcome ?? view.outcome;
  root.replaceChildren(el("div", { class: "front" },
    title ? el("h2", { class: "front-title" }, title) : null,
    el("p", { class: "front-status" }, `${t.turn(view.turn)} · ${t.seasons[view.season] ?? ""} · ${t.hours[view.hour] ?? ""} · `,
      outcome ? (outcome.winner ? t.won(t.sides[outcome.winner]) : t.draw) : myTurn ? t.yourTurn : t.waiting),
    ...(view.victory?.objectives ?? []).map((o) => el("p", { class: "front-mission" }, t.mission,
      t.objective[o.kind]?.(o, t.sides[o.side]) ?? "")),
    // On a phone the map keeps cells big enough to read and scrolls sideways in its frame.
    el("div", { class: "front-map-frame", role: "region", tabindex: "0", "aria-label": t.frame, style: `--cols: ${cols}` }, svg),
    el("p", {}, unit ? t.unit(unit) : myTurn ? t.pick : ""),
    ...[...launches.values()].map((group) => el("p", { class: "front-launch" }, t.launchAt(group[0]), ...group.map((a) =>
      el("button", { type: "button", class: "order", "data-order": a.type, "aria-label": t.orders.launch(a), onclick: () => ctx.act(a) }, a.to)))),
    el("div", { class: "front-orders" }, ...others.map((a) =>
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

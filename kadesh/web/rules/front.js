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
    waiting: "Au tour de l'adversaire.", endTurn: "Fin du tour (Tab)", pick: "Choisis une de tes unités.",
    unit: (u) => `${u.id} — ${u.type} · PV ${u.hp} · PA ${u.ap} · munitions ${u.ammo}${u.fuel != null ? ` · carburant ${u.fuel}` : ""}`,
    orders: { board: "Monter dans", unload: "Décharger", resupply: "Ravitailler", build: "Construire", clear: "Déblayer",
      demine: "Déminer", lay_mine: "Poser une mine en", alert: "Se mettre en alerte", patrol: "Patrouiller ici",
      end_patrol: "Cesser la patrouille" }, won: (s) => `Victoire : ${s}.`,
    mission: "Mission : ",
    seasons: { spring: "printemps", summer: "été", autumn: "automne", winter: "hiver" },
    hours: { dawn: "aube", morning: "matin", afternoon: "après-midi", dusk: "crépuscule", night: "nuit" },
    objective: {
      hold: (o, side) => `${side} doit tenir les cases encadrées de jaune jusqu'à la fin du tour ${o.until}.`,
      escort: (o, side) => `${side} doit faire sortir ${o.survivors} unités de son convoi par les cases encadrées de pointillés jaunes avant la fin du tour ${o.by}.`,
      destroy: (o, side) => `${side} doit abattre ${o.target === "general" ? "le général adverse" : "ses cibles"}${o.by ? ` avant la fin du tour ${o.by}` : ""}.`,
    } },
  en: { sides: { blue: "Blue", red: "Red" }, turn: (n) => `Turn ${n}`, yourTurn: "Your orders.",
    waiting: "The other side is playing.", endTurn: "End turn (Tab)", pick: "Pick one of your units.",
    unit: (u) => `${u.id} — ${u.type} · HP ${u.hp} · AP ${u.ap} · rounds ${u.ammo}${u.fuel != null ? ` · fuel ${u.fuel}` : ""}`,
    orders: { board: "Board", unload: "Unload", resupply: "Resupply", build: "Build", clear: "Clear", demine: "Demine",
      lay_mine: "Lay a mine at", alert: "Go on alert", patrol: "Patrol here", end_patrol: "End the patrol" },
    won: (s) => `Victory: ${s}.`,
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

let selected = null;
let lastVersion = null;


const cellName = (x, y) => `${columnName(x)}${y + 1}`;

export function seatName(view, seat, lang) {
  return T[lang].sides[seat] ?? seat;
}

export function render(root, ctx) {
  const { view, lang, seat, legal } = ctx;
  const t = T[lang];
  if (ctx.game.version !== lastVersion) { lastVersion = ctx.game.version; if (!legal.some((a) => a.unit === selected)) selected = null; }
  const mine = legal.filter((a) => a.unit === selected);
  const moves = new Map(mine.filter((a) => a.type === "move").map((a) => [a.to, a]));
  const shots = new Map(mine.filter((a) => a.type === "shoot" && !a.at).map((a) => [a.target, a]));
  const rows = view.map.length, cols = view.map[0].length;
  const svg = el("svg:svg", { viewBox: `0 0 ${MARGIN + cols * CELL + 4} ${MARGIN + rows * CELL + 4}`, class: "front-map", role: "img" });
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const name = cellName(x, y);
      const action = moves.get(name) || shots.get(name);
      svg.append(el("svg:rect", { x: MARGIN + x * CELL, y: MARGIN + y * CELL, width: CELL, height: CELL, "data-cell": name,
        class: `ground${moves.has(name) ? " move" : ""}${shots.has(name) ? " aim" : ""}`, fill: COLOURS[view.map[y][x]] ?? "#ccc",
        onclick: action ? () => ctx.act(action) : null }, el("svg:title", {}, `${name} ${view.map[y][x]}`)));
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
    const kind = STRUCTURES[work.kind] ?? { mark: "?", fr: work.kind, en: work.kind };
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
      el("svg:circle", { cx: MARGIN + x * CELL + CELL / 2, cy: MARGIN + y * CELL + CELL / 2, r: CELL / 2 - 3 }),
      el("svg:text", { x: MARGIN + x * CELL + CELL / 2, y: MARGIN + y * CELL + CELL / 2 + 4, "text-anchor": "middle" }, unit.type.slice(0, 2))));
  }
  const unit = (view.units ?? []).find((u) => u.id === selected);
  const others = mine.filter((a) => !["move", "shoot"].includes(a.type) || a.at);
  const myTurn = legal.some((a) => a.type === "end_turn");
  root.replaceChildren(el("div", { class: "front" },
    el("p", { class: "front-status" }, `${t.turn(view.turn)} · ${t.seasons[view.season] ?? ""} · ${t.hours[view.hour] ?? ""} · `,
      view.outcome ? t.won(t.sides[view.outcome.winner]) : myTurn ? t.yourTurn : t.waiting),
    ...(view.victory?.objectives ?? []).map((o) => el("p", { class: "front-mission" }, t.mission,
      t.objective[o.kind]?.(o, t.sides[o.side]) ?? "")),
    svg,
    el("p", {}, unit ? t.unit(unit) : myTurn ? t.pick : ""),
    el("div", { class: "front-orders" }, ...others.map((a) => el("button", { type: "button", class: "order", onclick: () => ctx.act(a) },
      `${t.orders[a.type] ?? a.type} ${a.truck ?? a.passenger ?? a.target ?? ""} ${a.kind ?? ""} ${a.cell ?? a.to ?? ""}`.trim())),
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

// Bataille's view: the two groups face to face, and the general's decisions when they are due.
// The decisions offered are the server's legal actions; the rolls and their targets are in the journal.
// ``setup`` is the battle table of the home page: set up two groups, run the battle, see the odds.

import { el } from "/static/dom.js";

const T = {
  fr: {
    sides: { north: "Nord", south: "Sud" }, you: "vous",
    fields: { strength: "Effectif", discipline: "Discipline", morale: "Moral", melee: "Mêlée", missile: "Tir",
      range: "Portée", speed: "Vitesse" },
    phase: { deploy: "Mise en place", stance: "Décision", pursue: "Poursuite ?", continue: "Poursuite", over: "Terminée" },
    turn: (n) => `Tour de bataille ${n}`,
    actions: { ready: "En position", pursue: "Poursuivre", let_go: "Ne pas poursuivre", stop: "Arrêter la poursuite",
      attack: "Attaquer", hold: "Tenir", withdraw: "Se replier" },
    waiting: "En attente de l'autre général.", given: (s) => `Ordre donné : ${s}.`,
    holds: (s) => `${s} tient le terrain.`, nobody: "Personne ne tient le terrain.",
    shelter: "Abri à portée des fuyards", events: "Événements possibles (nuit, tempête, renforts)",
    table: "Table de bataille", troop: "Troupe", custom: "sur mesure", general: "Décisions",
    policies: { careful: "Prudent (automatique)", bold: "Téméraire (automatique)", me: "Moi" },
    run: "Livrer la bataille", odds: "Calculer les chances", games: "Batailles simulées",
    held: "Tient le terrain", nobodyShort: "personne", lost: "Hommes perdus", mean: "pertes moyennes", colon: " : ",
  },
  en: {
    sides: { north: "North", south: "South" }, you: "you",
    fields: { strength: "Strength", discipline: "Discipline", morale: "Morale", melee: "Melee", missile: "Missile",
      range: "Range", speed: "Speed" },
    phase: { deploy: "Setting up", stance: "Decision", pursue: "Pursue?", continue: "Pursuit", over: "Over" },
    turn: (n) => `Battle turn ${n}`,
    actions: { ready: "In position", pursue: "Pursue", let_go: "Do not pursue", stop: "Stop the pursuit",
      attack: "Attack", hold: "Hold", withdraw: "Withdraw" },
    waiting: "Waiting for the other general.", given: (s) => `Order given: ${s}.`,
    holds: (s) => `${s} holds the field.`, nobody: "Nobody holds the field.",
    shelter: "Shelter at hand for a fleeing group", events: "Events may happen (night, storm, reinforcements)",
    table: "Battle table", troop: "Troop", custom: "custom", general: "Decisions",
    policies: { careful: "Careful (automatic)", bold: "Bold (automatic)", me: "Me" },
    run: "Fight the battle", odds: "Work out the odds", games: "Battles simulated",
    held: "Holds the field", nobodyShort: "nobody", lost: "Men lost", mean: "mean losses", colon: ": ",
  },
};
const FIELDS = ["strength", "discipline", "morale", "melee", "missile", "range", "speed"];
const COLOURS = { north: "#2f5d8a", south: "#9a3b2e", nobody: "#999" };


export function seatName(view, seat, lang) {
  return T[lang].sides[seat] ?? seat;
}

function groupCard(view, side, seat, lang) {
  const t = T[lang];
  const group = view.groups[side];
  const share = Math.max(0, group.strength / group.initial);
  return el("section", { class: `group ${side}`, "data-side": side },
    el("h3", {}, `${t.sides[side]}${side === seat ? ` (${t.you})` : ""} — ${group.names[lang] ?? group.troop}`),
    el("div", { class: "strength-bar" }, el("span", { style: `width: ${(100 * share).toFixed(0)}%` })),
    el("p", { class: "strength", "data-strength": String(group.strength) }, `${group.strength} / ${group.initial}`),
    el("dl", {}, ...FIELDS.slice(1).flatMap((f) => [el("dt", {}, t.fields[f]), el("dd", {}, String(group[f]))])));
}

export function render(root, ctx) {
  const { view, lang, seat } = ctx;
  const t = T[lang];
  const buttons = ctx.legal.map((action) => {
    const label = action.type === "stance" ? t.actions[action.stance] : t.actions[action.type];
    const key = action.type === "stance" ? action.stance : action.type;
    return el("button", { type: "button", class: "decision", "data-decision": key, onclick: () => ctx.act(action) }, label);
  });
  let status;
  if (view.result) {
    status = view.result.winner ? t.holds(t.sides[view.result.winner]) : t.nobody;
  } else if (buttons.length) {
    status = `${t.phase[view.phase]}${view.turn ? ` · ${t.turn(view.turn)}` : ""}`;
  } else {
    status = view.your_stance ? `${t.given(t.actions[view.your_stance])} ${t.waiting}` : t.waiting;
  }
  root.replaceChildren(el("div", { class: "bataille" },
    el("p", { class: "battle-status", id: "battle-status" }, status),
    el("div", { class: "decisions" }, ...buttons),
    el("div", { class: "groups" }, groupCard(view, "north", seat, lang), groupCard(view, "south", seat, lang)),
    el("p", { class: "settings" }, view.shelter ? t.shelter : "", view.shelter && view.events ? " · " : "", view.events ? t.events : "")));
}

// -- the battle table (home page) ---------------------------------------------------------------------
export function setup(root, ctx) {
  const { ruleset, lang } = ctx;
  const t = T[lang];
  const schema = ruleset.options_schema;
  const catalogue = schema.north.catalogue;
  const sideForm = (side) => {
    const select = el("select", { id: `${side}-troop`, onchange: () => fill(side) },
      ...Object.entries(catalogue).map(([id, troop]) => el("option", { value: id }, troop.names[lang])),
      el("option", { value: "custom" }, t.custom));
    select.value = schema[side].default.troop;
    const inputs = FIELDS.map((f) => el("label", {}, `${t.fields[f]} `, el("input", { type: "number", id: `${side}-${f}`,
      min: String(schema[side].fields[f].min), max: String(schema[side].fields[f].max) })));
    const policy = el("select", { id: `${side}-general` }, ...Object.entries(t.policies).map(([v, l]) => el("option", { value: v }, l)));
    policy.value = side === "north" ? "me" : "careful";
    return el("fieldset", { class: `table-side ${side}` }, el("legend", {}, t.sides[side]),
      el("label", {}, `${t.troop} `, select), ...inputs, el("label", {}, `${t.general} `, policy));
  };
  const fill = (side) => {
    const troop = catalogue[root.querySelector(`#${side}-troop`).value];
    for (const f of FIELDS) if (troop) root.querySelector(`#${side}-${f}`).value = troop[f];
  };
  const group = (side) => {
    const out = { troop: root.querySelector(`#${side}-troop`).value };
    for (const f of FIELDS) out[f] = Number(root.querySelector(`#${side}-${f}`).value);
    return out;
  };
  const options = () => ({ north: group("north"), south: group("south"),
    shelter: root.querySelector("#table-shelter").checked, events: root.querySelector("#table-events").checked });
  const generals = () => Object.fromEntries(["north", "south"].map((s) => [s, root.querySelector(`#${s}-general`).value]));
  const result = el("div", { id: "odds-result" });
  root.replaceChildren(el("form", { class: "battle-table", id: "battle-table", onsubmit: (event) => event.preventDefault() },
    sideForm("north"), sideForm("south"),
    el("label", {}, el("input", { type: "checkbox", id: "table-shelter" }), ` ${t.shelter}`),
    el("label", {}, el("input", { type: "checkbox", id: "table-events" }), ` ${t.events}`),
    el("p", {},
      el("button", { type: "button", id: "run-battle", class: "primary", onclick: () => run(ctx, options(), generals()) }, t.run),
      " ", el("button", { type: "button", id: "run-odds", onclick: () => odds(ctx, options(), generals(), result, lang) }, t.odds)),
    el("progress", { id: "odds-progress", max: "10000", value: "0", hidden: true }), result));
  fill("north");
  fill("south");
}

async function run(ctx, options, generals) {
  const bots = Object.fromEntries(Object.entries(generals).filter(([, g]) => g !== "me"));
  const created = await ctx.create({ ruleset: "bataille", options, bots });
  if (!created) return;
  const mine = Object.keys(generals).filter((s) => generals[s] === "me");
  const seats = mine.length ? mine : ["north"];
  const tokens = seats.map((s) => `${s}=${encodeURIComponent(created.seats[s].token)}`);
  window.location.href = mine.length === 1 ? created.seats[mine[0]].link
    : `/play/${encodeURIComponent(created.id)}${mine.length ? `#${tokens.join("&")}` : `?token=${encodeURIComponent(created.spectator.token)}`}`;
}

// Odds: 10,000 battles simulated by the server in chunks, so that the bar moves; the chart is SVG.
async function odds(ctx, options, generals, box, lang) {
  const t = T[lang];
  const bar = document.getElementById("odds-progress");
  bar.hidden = false;
  bar.value = 0;
  const total = { games: 0, holds: { north: 0, south: 0, nobody: 0 }, losses: { north: [], south: [] } };
  const policy = Object.fromEntries(Object.entries(generals).map(([s, g]) => [s, g === "me" ? "careful" : g]));
  for (let chunk = 0; chunk < 10; chunk++) {
    const answer = await ctx.simulate({ options, seats: policy, games: 1000, seed: chunk });
    if (!answer) return;
    total.games += answer.games;
    for (const key of Object.keys(total.holds)) total.holds[key] += answer.holds_field[key];
    for (const side of ["north", "south"]) total.losses[side].push(...answer.losses[side]);
    bar.value = total.games;
  }
  box.replaceChildren(el("p", { id: "odds-games" }, `${t.games}${t.colon}${total.games}`), holdsChart(total, t), lossChart(total, t));
}

function holdsChart(total, t) {
  const svg = el("svg:svg", { viewBox: "0 0 320 170", class: "odds-chart", id: "odds-held", role: "img" });
  svg.append(el("svg:text", { x: 160, y: 14, "text-anchor": "middle", class: "chart-title" }, t.held));
  ["north", "south", "nobody"].forEach((key, i) => {
    const share = total.holds[key] / total.games;
    const height = 120 * share;
    svg.append(el("svg:rect", { x: 30 + i * 95, y: 145 - height, width: 70, height, fill: COLOURS[key], "data-share": share.toFixed(3) }),
      el("svg:text", { x: 65 + i * 95, y: 140 - height, "text-anchor": "middle" }, `${(100 * share).toFixed(1)} %`),
      el("svg:text", { x: 65 + i * 95, y: 162, "text-anchor": "middle" }, key === "nobody" ? t.nobodyShort : t.sides[key]));
  });
  return svg;
}

function lossChart(total, t) {
  const svg = el("svg:svg", { viewBox: "0 0 320 170", class: "odds-chart", id: "odds-lost", role: "img" });
  svg.append(el("svg:text", { x: 160, y: 14, "text-anchor": "middle", class: "chart-title" }, t.lost));
  const top = Math.max(1, ...total.losses.north, ...total.losses.south);
  const bins = 20;
  const width = Math.ceil((top + 1) / bins);
  ["north", "south"].forEach((side, index) => {
    const counts = new Array(bins).fill(0);
    for (const value of total.losses[side]) counts[Math.min(bins - 1, Math.floor(value / width))] += 1;
    const peak = Math.max(...counts, 1);
    counts.forEach((count, b) => {
      const height = 110 * count / peak;
      svg.append(el("svg:rect", { x: 20 + b * 14 + index * 6, y: 140 - height, width: 6, height, fill: COLOURS[side] }));
    });
    const mean = total.losses[side].reduce((a, b) => a + b, 0) / Math.max(1, total.losses[side].length);
    svg.append(el("svg:text", { x: 20 + index * 150, y: 162 }, `${t.sides[side]}${t.colon}${t.mean} ${mean.toFixed(1)}`));
  });
  return svg;
}

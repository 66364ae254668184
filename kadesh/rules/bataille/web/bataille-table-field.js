// The battle table's field of one's own: each side's groups (troop, lane, when they arrive), its fortress
// and its river, the turn night falls and the storm's. It starts from a shipped field; the server checks
// what is sent and names what is wrong, the page only gathers it.

import { el } from "/static/dom.js";

const W = {
  fr: {
    side: { north: "Nord", south: "Sud" },
    lanes: { west: "Ouest", centre: "Centre", east: "Est" },
    start: "au début", turn: (n) => `au tour ${n}`,
    troop: (side, i) => `Troupe du groupe ${i} ${side === "north" ? "du Nord" : "du Sud"}`,
    lane: (side, i) => `Couloir du groupe ${i} ${side === "north" ? "du Nord" : "du Sud"}`,
    arrives: (side, i) => `Arrivée du groupe ${i} ${side === "north" ? "du Nord" : "du Sud"}`,
    remove: "Retirer", add: "Ajouter un groupe",
    fortress: "Forteresse à son bord", noFortress: "aucune", river: "Un fleuve derrière son bord",
    night: "La nuit tombe à la fin du tour", storm: "Tempête au tour", noStorm: "aucune",
    groups: "Groupes (troupe, couloir, arrivée)",
  },
  en: {
    side: { north: "North", south: "South" },
    lanes: { west: "West", centre: "Centre", east: "East" },
    start: "at the start", turn: (n) => `on turn ${n}`,
    troop: (side, i) => `Troop of the ${side === "north" ? "North" : "South"}'s group ${i}`,
    lane: (side, i) => `Lane of the ${side === "north" ? "North" : "South"}'s group ${i}`,
    arrives: (side, i) => `Arrival of the ${side === "north" ? "North" : "South"}'s group ${i}`,
    remove: "Remove", add: "Add a group",
    fortress: "Fortress at its edge", noFortress: "none", river: "A river behind its edge",
    night: "Night falls at the end of turn", storm: "Storm on turn", noStorm: "none",
    groups: "Groups (troop, lane, arrival)",
  },
};

const SIDES = ["north", "south"];
const MAX_NIGHT = 30;

function select(attrs, values, chosen) {
  const node = el("select", attrs, ...values.map(([value, label]) => el("option", { value: String(value) }, label)));
  node.value = String(chosen);
  return node;
}

// The editor, filled from ``start`` (a shipped field as rules.toml writes it); ``value()`` is the field to send.
export function fieldEditor(schema, lang, start) {
  const w = W[lang];
  const catalogue = schema.north.catalogue;
  const lanes = schema.field.lanes;
  const groups = Object.fromEntries(SIDES.map((side) => [side, start.groups.filter((g) => g.side === side)
    .map((g) => ({ troop: g.troop, lane: g.lane, turn: g.turn ?? 0 }))]));
  const settings = { night: start.night ?? 8, storm: start.storm ?? 0, fortress: { ...(start.fortress ?? {}) },
    river: new Set(start.river ?? []) };
  const node = el("div", { class: "field-editor", id: "field-editor" });
  const turns = () => Array.from({ length: settings.night }, (_, i) => i + 1);

  const row = (side, group, index) => el("li", { class: "editor-group" },
    select({ "aria-label": w.troop(side, index + 1), class: "group-troop", onchange: (e) => { group.troop = e.target.value; } },
      Object.entries(catalogue).map(([id, troop]) => [id, troop.names[lang]]), group.troop),
    select({ "aria-label": w.lane(side, index + 1), class: "group-lane", onchange: (e) => { group.lane = e.target.value; } },
      lanes.map((lane) => [lane, w.lanes[lane]]), group.lane),
    select({ "aria-label": w.arrives(side, index + 1), class: "group-turn", onchange: (e) => { group.turn = Number(e.target.value); } },
      [[0, w.start], ...turns().filter((n) => n >= 2).map((n) => [n, w.turn(n)])], group.turn),
    el("button", { type: "button", class: "remove-group", onclick: () => { groups[side].splice(index, 1); draw(); } }, w.remove));

  const sideBox = (side) => el("fieldset", { class: `editor-side ${side}`, "data-side": side },
    el("legend", {}, w.side[side]),
    el("p", { class: "muted" }, w.groups),
    el("ol", {}, ...groups[side].map((g, i) => row(side, g, i))),
    el("button", { type: "button", class: "add-group", id: `${side}-add-group`,
      onclick: () => { groups[side].push({ troop: Object.keys(catalogue)[0], lane: lanes[1] ?? lanes[0], turn: 0 }); draw(); } }, w.add),
    el("label", {}, `${w.fortress} `, select({ id: `${side}-fortress`, onchange: (e) => {
      if (e.target.value) settings.fortress[side] = e.target.value; else delete settings.fortress[side];
    } }, [["", w.noFortress], ...lanes.map((lane) => [lane, w.lanes[lane]])], settings.fortress[side] ?? "")),
    el("label", {}, el("input", { type: "checkbox", id: `${side}-river`, checked: settings.river.has(side) ? true : null,
      onchange: (e) => { if (e.target.checked) settings.river.add(side); else settings.river.delete(side); } }), ` ${w.river}`));

  const draw = () => {
    node.replaceChildren(
      el("p", { class: "editor-day" },
        el("label", {}, `${w.night} `, select({ id: "field-night", onchange: (e) => {
          settings.night = Number(e.target.value);
          settings.storm = Math.min(settings.storm, settings.night);
          draw();
        } }, Array.from({ length: MAX_NIGHT - 1 }, (_, i) => [i + 2, String(i + 2)]), settings.night)),
        " ",
        el("label", {}, `${w.storm} `, select({ id: "field-storm", onchange: (e) => { settings.storm = Number(e.target.value); } },
          [[0, w.noStorm], ...turns().map((n) => [n, String(n)])], settings.storm))),
      el("div", { class: "editor-sides" }, ...SIDES.map((side) => sideBox(side))));
  };
  draw();
  const value = () => ({
    night: settings.night, ...(settings.storm ? { storm: settings.storm } : {}),
    fortress: { ...settings.fortress }, river: SIDES.filter((s) => settings.river.has(s)),
    groups: SIDES.flatMap((side) => groups[side].map((g) => ({ side, lane: g.lane, troop: g.troop,
      ...(g.turn ? { turn: g.turn } : {}) }))),
  });
  return { node, value };
}

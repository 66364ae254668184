// Front's map in words: the accessible name of every cell and unit (« Char lourd bleu en D4, 25 PV sur 25 »),
// and the legend that names each ground, work, building, unit and mark. Names come from the server's glossary;
// only the map's own marks (fog, path, pips…) are named here.

import { el } from "/static/dom.js";
import * as art from "/static/rules/front-map-art.js";

// French agreement: the feminine (and plural) names among units and structures.
const FEMININE = new Set(["infantry", "aa_battery", "trench", "watchtower", "dragons_teeth"]);
const PLURAL = new Set(["dragons_teeth"]);
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

export const WORDS = {
  fr: {
    map: (title) => (title ? `Carte : ${title}` : "Carte de la bataille"),
    grid: "Cases de la carte",
    hint: "Flèches : déplacer le curseur (Maj : 5 cases). Entrée : choisir la case ou l'unité au sol ; Maj+Entrée : l'appareil en vol. "
      + "+ et − : zoom. À la souris ou au doigt : glisser pour déplacer la carte, molette ou pincement pour zoomer.",
    tools: "Commandes de la carte", zoomIn: "Zoomer", zoomOut: "Dézoomer", minimap: "Vue d'ensemble", legend: "Légende",
    sides: { blue: "Bleu", red: "Rouge" },
    adjective: { blue: ["bleu", "bleue", "bleus", "bleues"], red: ["rouge", "rouge", "rouges", "rouges"] },
    named: (name, side, id) => `${name}${side ? ` ${WORDS.fr.adjective[side]?.[(FEMININE.has(id) ? 1 : 0) + (PLURAL.has(id) ? 2 : 0)] ?? ""}` : ""}`,
    unit: "unité", ground: "terrain", structure: "ouvrage",
    at: (cell) => `en ${cell}`, over: (cell) => `en vol au-dessus de ${cell}`,
    hp: (hp, max) => `${hp} PV sur ${max}`,
    ammo: (n, max) => `munitions ${n} sur ${max}`, fuel: (n, max) => `carburant ${n} sur ${max}`,
    battery: (n, max) => `batterie ${n} sur ${max}`,
    flying: "en vol", landed: (id) => (FEMININE.has(id) ? "posée" : "posé"),
    camouflaged: (id) => (FEMININE.has(id) ? "camouflée" : "camouflé"), alert: "en alerte", patrol: "en patrouille",
    convoy: "du convoi", spent: "plus d'ordre ce tour", selected: (id) => (FEMININE.has(id) ? "choisie" : "choisi"),
    site: (name) => `chantier : ${name}`, carcass: (name) => `carcasse : ${name}`,
    fog: "hors de vue", mine: "mine", fire: "en feu", objective: "case de mission", reach: "atteignable", path: "sur le chemin",
    point: (side) => (side ? `point de victoire du ${WORDS.fr.sides[side] ?? ""}` : "point de victoire libre"),
    target: { ground: "cible", air: "cible en vol", structure: "ouvrage visé" },
    fault: "à corriger",
    sections: { terrain: "Terrain", work: "Ouvrages", building: "Bâtiments", units: "Unités", marks: "Repères" },
    marks: { fog: "Hors de vue : le terrain tel qu'on s'en souvient", reach: "Case atteignable", path: "Chemin prévu",
      target: "Cible (au sol, en vol ou ouvrage)", point: "Point de victoire (couleur du camp qui le tient)",
      objective: "Cases d'une mission", mine: "Mine", fire: "Feu", figures: "Points de vie, munitions (à droite), carburant ou batterie (à gauche)",
      camouflaged: "Camouflée : la feuille près de la barre de vie", alert: "En alerte", patrol: "En patrouille (sa zone en pointillés)",
      flying: "Appareil en vol, au-dessus de l'unité au sol, avec son ombre", spent: "Plus d'ordre ce tour", site: "Chantier (en pointillés)",
      carcass: "Carcasse d'un ouvrage détruit", convoy: "Unité d'un convoi à escorter",
      seenMove: "Mouvement ennemi vu pendant son tour (en pointillés : perdu de vue entre deux cases)",
      shot: "Tir reçu, depuis le tireur (trait plein : tireur hors de vue, la direction du tir)", lost: "Unité détruite" },
  },
  en: {
    map: (title) => (title ? `Map: ${title}` : "Battle map"),
    grid: "Map cells",
    hint: "Arrow keys: move the cursor (Shift: 5 cells). Enter: choose the cell or the unit on the ground; Shift+Enter: the aircraft in flight. "
      + "+ and −: zoom. With a mouse or a finger: drag to move the map, wheel or pinch to zoom.",
    tools: "Map controls", zoomIn: "Zoom in", zoomOut: "Zoom out", minimap: "Overview", legend: "Legend",
    sides: { blue: "Blue", red: "Red" },
    named: (name, side) => (side ? `${WORDS.en.sides[side] ?? ""} ${name}` : name),
    unit: "unit", ground: "ground", structure: "structure",
    at: (cell) => `at ${cell}`, over: (cell) => `in flight over ${cell}`,
    hp: (hp, max) => `${hp} HP of ${max}`,
    ammo: (n, max) => `ammunition ${n} of ${max}`, fuel: (n, max) => `fuel ${n} of ${max}`,
    battery: (n, max) => `battery ${n} of ${max}`,
    flying: "in flight", landed: () => "landed", camouflaged: () => "camouflaged", alert: "on alert", patrol: "on patrol",
    convoy: "of the convoy", spent: "no orders left this turn", selected: () => "selected",
    site: (name) => `${name} site`, carcass: (name) => `${name} carcass`,
    fog: "out of sight", mine: "mine", fire: "on fire", objective: "mission cell", reach: "reachable", path: "on the path",
    point: (side) => (side ? `victory point held by ${WORDS.en.sides[side] ?? ""}` : "free victory point"),
    target: { ground: "target", air: "target in flight", structure: "targeted structure" },
    fault: "to fix",
    sections: { terrain: "Ground", work: "Works", building: "Buildings", units: "Units", marks: "Marks" },
    marks: { fog: "Out of sight: the ground as remembered", reach: "Reachable cell", path: "Planned path",
      target: "Target (on the ground, in flight or a structure)", point: "Victory point (the colour of the side holding it)",
      objective: "A mission's cells", mine: "Mine", fire: "Fire", figures: "Hit points, ammunition (right), fuel or battery (left)",
      camouflaged: "Camouflaged: the leaf by the hit-point bar", alert: "On alert", patrol: "On patrol (its zone dashed)",
      flying: "Aircraft in flight, above the unit on the ground, with its shadow", spent: "No orders left this turn",
      site: "Building site (dashed)", carcass: "Carcass of a destroyed structure", convoy: "A unit of a convoy to escort",
      seenMove: "An enemy move seen during its turn (dashed: lost from sight between two cells)",
      shot: "A shot received, from the shooter (solid: shooter out of sight, the fire's direction)", lost: "A unit destroyed" },
  },
};

// Names and descriptions for one map, in one language, from the glossary.
export function describer(lang, glossary) {
  const t = WORDS[lang];
  const units = glossary?.units ?? {}, terrain = glossary?.terrain ?? {}, structures = glossary?.structures ?? {};
  const typeName = (type) => units[type]?.[lang] ?? t.unit;
  const structureName = (s) => {
    const name = t.named(structures[s.kind]?.[lang] ?? t.structure, s.side, s.kind);
    return s.carcass ? t.carcass(name) : s.complete ? name : t.site(name);
  };
  // « Char lourd bleu en D4, 25 PV sur 25, … »; `where` false inside a cell's own name.
  function unit(u, { where = true, own = false, spent = false, selected = false } = {}) {
    const info = units[u.type] ?? {};
    const parts = [cap(t.named(typeName(u.type), u.side, u.type)) + (where ? ` ${u.flying ? t.over(u.cell) : t.at(u.cell)}` : "")];
    if (!where && u.flying) parts[0] += ` ${t.flying}`;
    parts.push(t.hp(u.hp, info.hp ?? u.hp));
    if (u.flying === false) parts.push(t.landed(u.type));
    if (own) {
      if (info.ammo && u.ammo != null) parts.push(t.ammo(u.ammo, info.ammo));
      if (info.fuel && u.fuel != null) parts.push(t.fuel(u.fuel, info.fuel));
      if (info.battery && u.battery != null) parts.push(t.battery(u.battery, info.battery));
    }
    if (u.camouflaged) parts.push(t.camouflaged(u.type));
    if (u.alert) parts.push(t.alert);
    if (u.patrol) parts.push(t.patrol);
    if (u.tag) parts.push(t.convoy);
    if (spent) parts.push(t.spent);
    if (selected) parts.push(t.selected(u.type));
    return parts.join(", ");
  }
  const terrainName = (id) => terrain[id]?.[lang] ?? t.ground;
  return { t, typeName, structureName, terrainName, unit };
}

// The legend: every ground, work, building and unit of the glossary with its drawing, then the map's marks.
export function legend(lang, glossary, side) {
  const t = WORDS[lang];
  const swatch = (markup, cls = "", box = "0 0 40 40") => {
    const svg = el("svg:svg", { viewBox: box, width: 34, height: 34, class: `fm-swatch front-map ${cls}`, "aria-hidden": "true" });
    svg.innerHTML = markup;
    return svg;
  };
  const item = (markup, name, box) => el("li", {}, swatch(markup, "", box), el("span", {}, cap(name)));
  const section = (title, items) => el("section", {}, el("h3", {}, title), el("ul", {}, ...items));
  const meadow = art.terrainSwatch("meadow").replace(/<path class="t-grid"[^>]*>/, "");
  const own = `unit side-${side} own`;
  const symbol = (type, figures = {}, extra = "") => `<g class="${own}${extra}">${art.unitSymbol(type, glossary.units?.[type])}`
    + `${art.unitFigures({ hp: 8, hpMax: 10, ...figures })}</g>`;
  const structures = Object.entries(glossary.structures ?? {});
  const enemy = side === "red" ? "blue" : "red";
  const heads = `<defs>${[enemy, "shot"].map((kind) => `<marker id="fm-legend-head-${kind}" viewBox="0 0 10 10" refX="6" refY="5" `
    + `markerWidth="3.4" markerHeight="3.4" orient="auto"><path class="fm-trace-head ${kind}" d="M0 0L10 5 0 10z"/></marker>`).join("")}</defs>`;
  const marks = [
    [`${meadow}<rect class="fm-fog-shade" width="40" height="40"/>`, t.marks.fog],
    [`${meadow}<rect class="fm-reach" width="40" height="40"/><rect class="fm-reach-edge" x="1" y="1" width="38" height="38"/>`, t.marks.reach],
    [`${meadow}<path class="fm-path-edge" d="M4 34L20 20 34 8"/><path class="fm-path" d="M4 34L20 20 34 8" marker-end="url(#fm-legend-arrow)"/>`
      + `<defs><marker id="fm-legend-arrow" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="3" markerHeight="3" orient="auto">`
      + `<path class="fm-arrowhead" d="M0 0L10 5 0 10z"/></marker></defs>`, t.marks.path],
    [`${meadow}<path class="fm-target-fill" d="M2 2h36v36h-36z"/><path class="fm-target" d="M2 10V2H10M30 2H38V10M38 30V38H30M10 38H2V30"/>`, t.marks.target],
    [`${meadow}${art.pointArt(side)}`, t.marks.point],
    [`${meadow}<rect class="fm-objective hold" x="2" y="2" width="36" height="36"/>`, t.marks.objective],
    [`${meadow}${art.MINE}`, t.marks.mine], [`${meadow}${art.FIRE}`, t.marks.fire],
    [symbol("heavy_tank", { hp: 18, hpMax: 25, ammo: 6, ammoMax: 8, fuel: 12, fuelMax: 30 }), t.marks.figures],
    [symbol("infantry", { camouflaged: true }), t.marks.camouflaged],
    [symbol("infantry", { alert: true }), t.marks.alert], [symbol("infantry", { patrol: true }), t.marks.patrol],
    [`${meadow}<g transform="translate(0.5 10) scale(.74)">${symbol("infantry")}</g><path class="fm-shadow" d="M16 31.5a8 2.6 0 0 1 16 0a8 2.6 0 0 1-16 0z"/>`
      + `<g transform="translate(13.5 -4.5) scale(.68)">${symbol("attack_helicopter")}</g>`, t.marks.flying],
    [symbol("infantry", {}, " spent"), t.marks.spent],
    [symbol("truck", { tag: true }), t.marks.convoy],
    [`${meadow}${art.structureArt({ kind: "bunker", side, complete: false })}`, t.marks.site],
    [`${meadow}${art.structureArt({ kind: "bunker", side, carcass: true })}`, t.marks.carcass],
    [`${meadow}${heads}<g class="fm-trace side-${enemy}"><circle class="fm-trace-start" cx="8" cy="32" r="4"/>`
      + `<path class="fm-trace-edge" d="M8 32L31 9"/><path class="fm-trace-line" d="M8 32L31 9" marker-end="url(#fm-legend-head-${enemy})"/></g>`,
    t.marks.seenMove],
    [`${meadow}${heads}<g class="fm-shot unseen"><path class="fm-shot-line" d="M36 4L25 15" marker-end="url(#fm-legend-head-shot)"/>`
      + `<circle class="fm-shot-hit" cx="20" cy="20" r="6"/></g>`, t.marks.shot],
    [`${meadow}<path class="fm-lost" d="M9 9L31 31M31 9L9 31"/>`, t.marks.lost],
  ];
  return [
    section(t.sections.terrain, Object.entries(glossary.terrain ?? {}).map(([id, n]) => item(art.terrainSwatch(id), n[lang] ?? id))),
    ...["work", "building"].map((category) => section(t.sections[category], structures.filter(([, s]) => s.category === category)
      .map(([id, s]) => item(`${id === "bridge" ? art.terrainSwatch("bridge") : meadow}${art.structureArt({ kind: id, side, complete: true })}`, s[lang] ?? id)))),
    section(t.sections.units, Object.entries(glossary.units ?? {}).map(([id, u]) =>
      item(`<g class="${own}">${art.unitSymbol(id, u)}</g>`, u[lang] ?? id, "3 0 34 34"))),
    section(t.sections.marks, marks.map(([markup, name]) => item(markup, name))),
    el("p", { class: "fm-keys" }, t.hint),
  ];
}

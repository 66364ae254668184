// Front's information panel: the unit and the cell under the cursor, the clock, the capture points, the
// mission, and what the side saw happen since its last turn. Names and numbers come from the server's
// glossary and the side's view, the summary from the journal's lines: no rule is worked out here.

import { el } from "/static/dom.js";

// The French names' gender, for « infanterie bleue » (the glossary gives the names, not their gender).
const FEMININE = new Set(["infantry", "aa_battery"]);
const pct = (lang, value) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(value);
const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const plural = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

export const WORDS = {
  fr: {
    colon: " : ", sides: { blue: "Bleu", red: "Rouge" }, adjective: { blue: ["bleu", "bleue"], red: ["rouge", "rouge"] },
    at: (name, cell) => `${name} en ${cell}`, unitWord: "unité", ground: "terrain", structureWord: "ouvrage",
    the: (name, feminine) => (/^[aeiouéèêâh]/i.test(name) ? `l'${name}` : `${feminine ? "la" : "le"} ${name}`),
    turn: (n) => `Tour ${n}`,
    hours: { dawn: "aube", morning: "matin", afternoon: "après-midi", dusk: "crépuscule", night: "nuit" },
    seasons: { spring: "printemps, temps clair", summer: "été, temps sec", autumn: "automne, pluie", winter: "hiver, neige" },
    yourTurn: "À toi d'ordonner.", theirTurn: (s) => `Au tour du ${s}.`, spectator: (s) => `Le ${s} ordonne.`,
    won: (s) => `Victoire du ${s}.`, draw: "Personne ne l'emporte.",
    unitTitle: "Unité", cellTitle: "Case", pointsTitle: "Points de victoire", missionTitle: "Mission",
    journalName: (n) => `« ${n} » dans le journal`,
    hp: "PV", ap: "PA", ammo: "Munitions", rockets: "Roquettes", fuel: "Carburant",
    battery: (n) => `Batterie : encore ${plural(n, "tour")}`, mines: (n) => `Mines à poser : ${n}`,
    inFlight: "En vol", landed: "Posé", aboard: (name) => `À bord : ${name}`, carries: (names) => `Emporte : ${names}`,
    alert: "En alerte : tirera sur le premier ennemi qui bouge à sa portée", patrol: (cell) => `Patrouille autour de ${cell}`,
    camouflaged: "Camouflé", moved: "A bougé ce tour", fired: (n) => `A tiré ${n === 1 ? "une fois" : `${n} fois`} ce tour`,
    spent: "N'a plus d'ordre à recevoir ce tour", sight: (n) => `Vue : ${plural(n, "case")}`,
    weapons: "Armes", fire: "Tir", range: (n) => `portée ${n}`, indirect: "tir courbe", noWeapon: "Sans arme",
    pick: "L'unité choisie, ou celle que tu pointes, se décrit ici.",
    cover: (n, what) => `Couvert ${n} (${what})`, noCover: (what) => `Aucun couvert (${what})`,
    site: "chantier", carcass: "carcasse", ownedBy: (s) => `du ${s}`,
    unseen: "Hors de vue : le terrain tel qu'il fut vu, sans les unités qui s'y trouvent peut-être.",
    seen: "En vue", mine: "Mine connue", burning: "En feu",
    point: (holder) => (holder ? `Point de victoire tenu par le ${holder}` : "Point de victoire libre"),
    objectiveCell: "Case de la mission",
    cost: "Passage", classes: { foot: "à pied", wheel: "sur roues", track: "à chenilles" },
    costFor: (n, cls) => `${n} PA ${cls}`, noEntry: (cls) => `interdit ${cls}`, flies: "Les aéronefs en vol passent partout",
    held: (cell, holder) => `${cell} : ${holder ? `tenu par le ${holder}` : "libre"}`,
    taking: (name, cell, ends, needed) => `${name} prend ${cell} : ${ends} fin de tour sur ${needed}`,
    toWin: (n) => `Tenir ${n} points pour l'emporter, ou détruire toutes les unités adverses.`,
    noPoints: "Aucun point de victoire sur cette carte : il faut détruire toutes les unités adverses.",
    left: (n) => (n > 0 ? `ce tour et ${plural(n, "autre")}` : "dernier tour"),
    cells: (list) => (list.length <= 3 ? list.join(", ") : `les ${list.length} cases encadrées sur la carte (${list[0]} à ${list[list.length - 1]})`),
    objective: {
      hold: (o, s, _, cells) => `Le ${s} doit tenir ${cells(o.cells)} jusqu'à la fin du tour ${o.until}`,
      escort: (o, s, _, cells) => `Le ${s} doit faire sortir ${o.survivors} unités de son convoi par ${cells(o.exit)} avant la fin du tour ${o.by}`,
      destroy: (o, s, target) => `Le ${s} doit abattre ${target ?? "ses cibles"}${o.by ? ` avant la fin du tour ${o.by}` : ""}`,
    },
    escaped: (n, of) => `${n} sur ${of} déjà sortis`, over: "terminé",
    summaryTitle: (s) => `Pendant le tour du ${s}`, summaryNone: "Tes unités n'ont rien vu bouger.", dismiss: "Compris",
    earlier: (n) => `Seuls les derniers faits du tour ; ${n === 1 ? "l'autre est" : `les ${n} autres sont`} dans le journal.`,
    summaryMoves: (n) => (n === 1 ? "Un mouvement vu, tracé sur la carte" : `${n} mouvements vus, tracés sur la carte`),
    replayTurn: (s) => `Revoir le tour du ${s}`,
  },
  en: {
    colon: ": ", sides: { blue: "Blue", red: "Red" }, adjective: { blue: ["Blue", "Blue"], red: ["Red", "Red"] },
    at: (name, cell) => `${name} at ${cell}`, unitWord: "unit", ground: "ground", structureWord: "structure",
    the: (name) => `the ${name}`,
    turn: (n) => `Turn ${n}`,
    hours: { dawn: "dawn", morning: "morning", afternoon: "afternoon", dusk: "dusk", night: "night" },
    seasons: { spring: "spring, clear weather", summer: "summer, dry weather", autumn: "autumn, rain", winter: "winter, snow" },
    yourTurn: "Your orders.", theirTurn: (s) => `${s} to play.`, spectator: (s) => `${s} gives orders.`,
    won: (s) => `${s} wins.`, draw: "Nobody wins.",
    unitTitle: "Unit", cellTitle: "Cell", pointsTitle: "Victory points", missionTitle: "Mission",
    journalName: (n) => `“${n}” in the journal`,
    hp: "HP", ap: "AP", ammo: "Ammo", rockets: "Rockets", fuel: "Fuel",
    battery: (n) => `Battery: ${plural(n, "turn")} left`, mines: (n) => `Mines to lay: ${n}`,
    inFlight: "In flight", landed: "Landed", aboard: (name) => `Aboard: ${name}`, carries: (names) => `Carries: ${names}`,
    alert: "On alert: fires at the first enemy moving within its range", patrol: (cell) => `Patrols around ${cell}`,
    camouflaged: "Camouflaged", moved: "Has moved this turn", fired: (n) => `Has fired ${n === 1 ? "once" : `${n} times`} this turn`,
    spent: "Has no order left this turn", sight: (n) => `Sight: ${plural(n, "cell")}`,
    weapons: "Weapons", fire: "Fire", range: (n) => `range ${n}`, indirect: "indirect fire", noWeapon: "Unarmed",
    pick: "The unit chosen, or the one you point at, is described here.",
    cover: (n, what) => `Cover ${n} (${what})`, noCover: (what) => `No cover (${what})`,
    site: "building site", carcass: "carcass", ownedBy: (s) => `of ${s}`,
    unseen: "Out of sight: the ground as it was seen, without the units that may stand there.",
    seen: "In sight", mine: "Known mine", burning: "Burning",
    point: (holder) => (holder ? `Victory point held by ${holder}` : "Victory point, free"),
    objectiveCell: "Mission cell",
    cost: "Crossing", classes: { foot: "on foot", wheel: "on wheels", track: "on tracks" },
    costFor: (n, cls) => `${n} AP ${cls}`, noEntry: (cls) => `closed ${cls}`, flies: "Aircraft in flight pass over anything",
    held: (cell, holder) => `${cell}: ${holder ? `held by ${holder}` : "free"}`,
    taking: (name, cell, ends, needed) => `${name} is taking ${cell}: ${ends} turn end of ${needed}`,
    toWin: (n) => `Hold ${n} points to win, or destroy every enemy unit.`,
    noPoints: "No victory point on this map: destroy every enemy unit.",
    left: (n) => (n > 0 ? `this turn and ${n} more` : "last turn"),
    cells: (list) => (list.length <= 3 ? list.join(", ") : `the ${list.length} cells outlined on the map (${list[0]} to ${list[list.length - 1]})`),
    objective: {
      hold: (o, s, _, cells) => `${s} must hold ${cells(o.cells)} until the end of turn ${o.until}`,
      escort: (o, s, _, cells) => `${s} must get ${o.survivors} units of its convoy out through ${cells(o.exit)} before the end of turn ${o.by}`,
      destroy: (o, s, target) => `${s} must bring down ${target ?? "its targets"}${o.by ? ` before the end of turn ${o.by}` : ""}`,
    },
    escaped: (n, of) => `${n} of ${of} out already`, over: "over",
    summaryTitle: (s) => `During ${s}'s turn`, summaryNone: "Your units saw nothing move.", dismiss: "Got it",
    earlier: (n) => `The turn's last events only; ${n === 1 ? "the other is" : `the other ${n} are`} in the journal.`,
    summaryMoves: (n) => (n === 1 ? "One move seen, drawn on the map" : `${n} moves seen, drawn on the map`),
    replayTurn: (s) => `Replay ${s}'s turn`,
  },
};

// Names from the glossary: « Char lourd bleu en B3 » / "Blue heavy tank at B3".
export function namer(lang, glossary) {
  const t = WORDS[lang];
  const typeName = (type) => glossary.units?.[type]?.[lang] ?? t.unitWord;
  const unit = (u, { cell = true } = {}) => {
    const base = lang === "fr" ? `${cap(typeName(u.type))} ${t.adjective[u.side]?.[FEMININE.has(u.type) ? 1 : 0] ?? ""}`
      : `${t.adjective[u.side]?.[0] ?? ""} ${typeName(u.type)}`;
    return cell && u.cell && !u.aboard ? t.at(base.trim(), u.cell) : base.trim();
  };
  // in a sentence: « le char lourd bleu en B3 », "the Blue heavy tank at B3"
  const theUnit = (u) => {
    const name = unit(u);
    return t.the(lang === "fr" ? name.charAt(0).toLowerCase() + name.slice(1) : name, FEMININE.has(u.type));
  };
  const journalName = (u) => {
    const match = /^[a-z](\d+)$/.exec(String(u.id ?? ""));
    return match && t.sides[u.side] ? `${t.sides[u.side]} ${match[1]}` : null;
  };
  return {
    typeName, unit, theUnit, journalName, side: (side) => t.sides[side] ?? "",
    terrain: (id) => glossary.terrain?.[id]?.[lang] ?? t.ground,
    structure: (kind) => glossary.structures?.[kind]?.[lang] ?? t.structureWord,
    weapon: (id) => glossary.weapons?.[id]?.[lang] ?? "",
  };
}

// -- the clock: turn, hour (its tint is the page's), season and weather, whose turn -------------
const SUN = "M12 4v2M12 18v2M4 12h2M18 12h2M6.3 6.3l1.4 1.4M16.3 16.3l1.4 1.4M6.3 17.7l1.4-1.4M16.3 7.7l1.4-1.4";
function hourIcon(hour) {
  const night = hour === "night";
  const low = hour === "dawn" || hour === "dusk";
  return el("svg:svg", { viewBox: "0 0 24 24", class: "front-hour-icon", "aria-hidden": "true" },
    night ? el("svg:path", { d: "M15 3a9 9 0 1 0 6 15A7 7 0 0 1 15 3z", class: "moon" })
      : [el("svg:circle", { cx: 12, cy: low ? 15 : 12, r: 4.5, class: "sun" }),
        low ? el("svg:path", { d: "M3 18h18", class: "horizon" }) : el("svg:path", { d: SUN, class: "rays" })]);
}

// The clock's words, and whose turn it is (two parts: the page puts the end of the turn beside the second).
export function clock({ view, outcome, seat, myTurn, lang }) {
  const t = WORDS[lang];
  const side = (s) => t.sides[s] ?? "";
  const whose = outcome ? (outcome.winner ? t.won(side(outcome.winner)) : t.draw)
    : myTurn ? t.yourTurn : seat && view.active !== seat ? t.theirTurn(side(view.active)) : t.spectator(side(view.active));
  return [el("p", { class: "front-clock-text" }, hourIcon(view.hour),
    el("span", { class: "front-turn" }, t.turn(view.turn)), " · ",
    el("span", { class: "front-hour" }, cap(t.hours[view.hour] ?? "")), " · ",
    el("span", { class: "front-season" }, cap(t.seasons[view.season] ?? ""))),
  el("strong", { class: `front-whose${myTurn ? " mine" : ""}` }, whose)];
}

// -- the unit and the cell under the cursor --------------------------------------------------------
function gauge(label, now, most) {
  const ratio = most ? Math.max(0, Math.min(1, now / most)) : 1;
  return el("div", { class: "front-gauge" }, el("span", { class: "label" }, label),
    el("span", { class: "bar", "aria-hidden": "true" }, el("span", { class: ratio <= 0.34 ? "fill low" : "fill",
      style: `width: ${Math.round(ratio * 100)}%` })),
    el("span", { class: "value" }, most ? `${now} / ${most}` : String(now)));
}

export function unitCard({ unit, view, glossary, lang, spent }) {
  const t = WORDS[lang];
  const names = namer(lang, glossary);
  if (!unit) return el("section", { class: "front-card front-unit", "aria-label": t.unitTitle }, el("p", { class: "muted" }, t.pick));
  const spec = glossary.units?.[unit.type] ?? {};
  const own = unit.ap !== undefined;
  const byId = new Map((view.units ?? []).map((u) => [u.id, u]));
  const lines = [];
  lines.push(gauge(t.hp, unit.hp, spec.hp));
  if (own) {
    lines.push(gauge(t.ap, unit.ap, spec.ap));
    if (spec.ammo) lines.push(gauge(t.ammo, unit.ammo ?? 0, spec.ammo));
    if (unit.rockets != null) lines.push(gauge(t.rockets, unit.rockets, spec.weapons?.find((w) => w.id === "rocket")?.ammo));
    if (unit.fuel != null && spec.fuel) lines.push(gauge(t.fuel, unit.fuel, spec.fuel));
  }
  const facts = [];
  if (unit.flying != null) facts.push(unit.flying ? t.inFlight : t.landed);
  if (own) {
    if (unit.battery != null) facts.push(t.battery(unit.battery));
    if (unit.mines != null) facts.push(t.mines(unit.mines));
    if (unit.aboard && byId.get(unit.aboard)) facts.push(t.aboard(names.unit(byId.get(unit.aboard))));
    const cargo = (unit.cargo ?? []).map((id) => byId.get(id)).filter(Boolean);
    if (cargo.length) facts.push(t.carries(cargo.map((u) => names.unit(u, { cell: false })).join(", ")));
    if (unit.alert) facts.push(t.alert);
    if (unit.patrol) facts.push(t.patrol(unit.patrol));
    if (unit.camouflaged) facts.push(t.camouflaged);
    if (unit.moved) facts.push(t.moved);
    if (unit.shots) facts.push(t.fired(unit.shots));
    if (spent) facts.push(t.spent);
  }
  if (spec.vision) facts.push(t.sight(spec.vision));
  // its weapons by name (« canon, portée 6 »), or its one plain weapon by its reach (« Tir : portée 3 »)
  const weapons = spec.weapons ?? [];
  const plain = weapons.length === 1 && weapons[0].id === "main";
  const arms = weapons.map((w) => [plain ? null : names.weapon(w.id), t.range(w.range), w.indirect ? t.indirect : null]
    .filter(Boolean).join(", "));
  facts.push(arms.length ? `${plain ? t.fire : t.weapons}${t.colon}${arms.join(lang === "fr" ? " ; " : "; ")}` : t.noWeapon);
  const known = names.journalName(unit);
  return el("section", { class: `front-card front-unit ${unit.side}`, "aria-label": t.unitTitle, "data-unit-card": unit.cell ?? "" },
    el("h3", {}, el("span", { class: `front-swatch ${unit.side}`, "aria-hidden": "true" }), names.unit(unit)),
    known ? el("p", { class: "muted front-known" }, t.journalName(known)) : null,
    ...lines, el("ul", { class: "front-facts" }, ...facts.map((f) => el("li", {}, f))));
}

export function cellCard({ cell, view, glossary, lang, classOf }) {
  const t = WORDS[lang];
  if (!cell) return null;
  const names = namer(lang, glossary);
  const [x, y] = cellXY(cell);
  const terrainId = view.map?.[y]?.[x];
  const ground = glossary.terrain?.[terrainId] ?? { cover: 0, cost: {} };
  const facts = [];
  const structure = (view.structures ?? []).find((s) => s.cell === cell);
  const terrainName = names.terrain(terrainId);
  facts.push(ground.cover ? t.cover(ground.cover, terrainName) : t.noCover(terrainName));
  if (structure) {
    const spec = glossary.structures?.[structure.kind] ?? {};
    const state = structure.carcass ? `, ${t.carcass}` : structure.complete ? "" : `, ${t.site}`;
    const owner = structure.side ? ` ${t.ownedBy(names.side(structure.side))}` : "";
    const what = `${names.structure(structure.kind)}${owner}${state}`;
    facts.push(spec.cover && structure.complete && !structure.carcass ? t.cover(spec.cover, what) : t.noCover(what));
  }
  const classes = classOf ? [classOf] : ["foot", "wheel", "track"];
  if (classOf !== "air") {
    facts.push(`${t.cost}${t.colon}${classes.map((c) => (ground.cost?.[c] != null ? t.costFor(ground.cost[c], t.classes[c])
      : t.noEntry(t.classes[c]))).join(", ")}`);
  } else {
    facts.push(t.flies);
  }
  const seen = view.sight?.[y]?.[x] === "1";
  facts.push(seen ? t.seen : t.unseen);
  if ((view.mines ?? []).includes(cell)) facts.push(t.mine);
  if ((view.fires ?? []).includes(cell)) facts.push(t.burning);
  if (view.points && cell in view.points) facts.push(t.point(view.points[cell] ? names.side(view.points[cell]) : null));
  if ((view.victory?.objectives ?? []).some((o) => (o.cells ?? o.exit ?? []).includes(cell))) facts.push(t.objectiveCell);
  return el("section", { class: "front-card front-cell", "aria-label": t.cellTitle },
    el("h3", {}, `${cell} · ${cap(terrainName)}`), el("ul", { class: "front-facts" }, ...facts.map((f) => el("li", {}, f))));
}

// -- the capture points and the mission ------------------------------------------------------------
export function pointsCard({ view, glossary, lang }) {
  const t = WORDS[lang];
  const names = namer(lang, glossary);
  const points = Object.entries(view.points ?? {});
  if (!view.victory?.default && !points.length) return null;
  const byId = new Map((view.units ?? []).map((u) => [u.id, u]));
  const items = points.map(([cell, holder]) => el("li", { class: `front-point ${holder ?? "free"}`, "data-cell": cell },
    el("span", { class: `front-swatch ${holder ?? "free"}`, "aria-hidden": "true" }), t.held(cell, holder ? names.side(holder) : null)));
  const counting = (view.counting ?? []).map((c) => el("li", { class: "front-taking", "data-cell": c.cell },
    t.taking(byId.get(c.unit) ? names.unit(byId.get(c.unit), { cell: false }) : t.unitWord, c.cell, c.ends, c.needed)));
  return el("section", { class: "front-card front-points", "aria-label": t.pointsTitle }, el("h3", {}, t.pointsTitle),
    view.victory?.default ? el("p", { class: "muted" }, points.length ? t.toWin(view.victory.points_to_win) : t.noPoints) : null,
    points.length ? el("ul", { class: "front-list" }, ...items, ...counting) : null);
}

export function missionCard({ view, glossary, lang }) {
  const t = WORDS[lang];
  const objectives = view.victory?.objectives ?? [];
  if (!objectives.length) return null;
  const items = objectives.map((o) => {
    const side = t.sides[o.side] ?? "";
    const target = o.target ? namer(lang, glossary).theUnit({ type: o.target, side: o.side === "blue" ? "red" : "blue" }) : null;
    const text = t.objective[o.kind]?.(o, side, target, t.cells) ?? "";
    const end = o.until ?? o.by;
    const state = [];
    if (o.kind === "escort") {
      const out = Object.values(view.escaped?.[o.side] ?? {}).reduce((a, b) => a + b, 0);
      state.push(t.escaped(out, o.survivors));
    }
    if (end != null) state.push(view.turn > end ? t.over : t.left(end - view.turn));
    return el("li", { class: `front-objective ${o.side}` }, text, state.length ? el("span", { class: "muted" }, ` · ${state.join(" · ")}`) : null, ".");
  });
  return el("section", { class: "front-card front-mission", "aria-label": t.missionTitle }, el("h3", {}, t.missionTitle),
    el("ul", { class: "front-list" }, ...items));
}

// -- what the side saw since its last turn, from the journal ----------------------------------------
// A line that closes a side's turn: the server's mark when it gives one, else the line's words.
const TURN_ENDED = { fr: /^Fin du tour \d+ de (Bleu|Rouge)\.$/, en: /^End of (Blue|Red)'s turn \d+\.$/ };
const SIDE_OF = { Bleu: "blue", Rouge: "red", Blue: "blue", Red: "red" };
function endedBy(entry, lang) {
  if (entry.mark?.kind === "turn_ended") return entry.mark.side;
  const match = TURN_ENDED[lang].exec(entry.line);
  return match ? SIDE_OF[match[1]] : null;
}

// What the side saw while the other side played: the journal's entries after its own last turn ended (from the
// start before its first) up to the other side's turn end that handed it the turn, the turns' ends left out, and
// the version its own turn ended at (where a replay of the other side's turn begins); null when no other turn has
// ended yet (Blue's first turn).
export function otherTurn(journal, seat, lang) {
  let start = 0;
  let end = -1;
  let from = 0;
  journal.forEach((entry, index) => {
    const side = endedBy(entry, lang);
    if (side === seat) { start = index + 1; from = entry.version ?? 0; }
    else if (side) end = index;
  });
  if (end < start) return null;
  return { from, entries: journal.slice(start, end).filter((entry) => !endedBy(entry, lang)) };
}

export function sinceLastTurn(journal, seat, lang) {
  return otherTurn(journal, seat, lang)?.entries.map((entry) => entry.line) ?? null;
}

// What the map draws of a few journal entries (Front's marks): the other side's seen ways, shots and losses.
export const traces = (entries) => entries.map((entry) => entry.mark)
  .filter((mark) => mark && ["moved", "shot", "lost"].includes(mark.kind));

const SUMMARY_LINES = 8;  // a short summary: the last lines, the others are in the journal

export function summaryBox({ entries, other, lang, onClose, onReplay }) {
  const t = WORDS[lang];
  // The other side's moves the side saw are all listed (the map draws each); the rest, the last few.
  const moves = entries.filter((entry) => entry.mark?.kind === "moved").map((entry) => entry.line);
  const lines = entries.filter((entry) => entry.mark?.kind !== "moved").map((entry) => entry.line);
  const shown = lines.slice(-SUMMARY_LINES);
  const list = (items, cls = "") => el("ul", { class: `front-list ${cls}`.trim() },
    ...items.map((line) => el("li", { class: "front-line" }, line)));
  return el("section", { class: "front-summary card", role: "status", "aria-label": t.summaryTitle(other) },
    el("h3", {}, t.summaryTitle(other)),
    moves.length ? el("h4", { class: "front-summary-sub" }, t.summaryMoves(moves.length)) : null,
    moves.length ? list(moves, "front-seen-moves") : null,
    lines.length > shown.length ? el("p", { class: "muted" }, t.earlier(lines.length - shown.length)) : null,
    shown.length ? list(shown) : moves.length ? null : el("p", { class: "muted" }, t.summaryNone),
    el("div", { class: "front-summary-actions" },
      onReplay ? el("button", { type: "button", class: "front-replay-turn", onclick: onReplay }, t.replayTurn(other)) : null,
      el("button", { type: "button", class: "front-dismiss", onclick: onClose }, t.dismiss)));
}

// "C4" → [2, 3] (as dom.js parseMapCell, without throwing on nothing)
export function cellXY(name) {
  const match = /^([A-Z]+)(\d+)$/.exec(name ?? "");
  if (!match) return [-1, -1];
  let x = 0;
  for (const letter of match[1]) x = x * 26 + letter.charCodeAt(0) - 64;
  return [x - 1, Number(match[2]) - 1];
}

export { pct, plural, cap };

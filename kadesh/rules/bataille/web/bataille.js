// Bataille's view: the two groups face to face (a picture of their men, standing and fallen), their
// figures with what each one means, and the general's decisions when they are due, each with what it
// will do. The decisions offered are the server's legal actions; the rolls and their targets are in
// the journal. ``setup`` is the battle table of the lobby: set up two groups, fight the battle, or
// work out the odds of 10,000 battles (1,000 on a field), told in words and in two charts with their axes.

import { el } from "/static/dom.js";
import { fieldSeatName, renderField } from "/static/rules/bataille-field.js";
import { fieldEditor } from "/static/rules/bataille-table-field.js";

// The dice and the chances come from the server's view (``view.dice``, each group's ``*_chance``):
// the page never works a rule out for itself.
let dice = null;  // {sides, loss_divisor, loss_step_percent} of the game being drawn

const T = {
  fr: {
    side: { north: "Nord", south: "Sud" },
    theSide: { north: "le Nord", south: "le Sud" },
    ofSide: { north: "du Nord", south: "du Sud" },
    troop: "Troupe", you: "toi",
    seat: (troop, side) => `${troop} ${T.fr.ofSide[side]}`,
    fields: { strength: "Effectif", discipline: "Discipline", morale: "Moral", melee: "Mêlée", missile: "Tir",
      range: "Portée", speed: "Vitesse" },
    help: {
      strength: (d) => `Les hommes encore debout, sur l'effectif du début.${d ? ` Chaque attaque tue l'effectif de l'attaquant × sa valeur d'attaque × un dé de ${d.sides}, divisé par ${d.loss_divisor}, arrondi en dessous.` : ""}`,
      discipline: (v, c) => `La cohésion de la troupe. Un jet de discipline est réussi sur un dé de ${dice?.sides} à ${v} ou moins (${c}). Il faut le réussir pour tenir sa position, ne pas poursuivre, arrêter une poursuite ou riposter en fuyant.`,
      morale: (v, mod, c) => `Le courage de la troupe. Un jet de moral est réussi sur un dé de ${dice?.sides} à ${v + mod} ou moins (${c}) : le moral ${v}${mod ? `, ${signed(mod)} pour ses armes` : ""}, et 1 de moins par tranche de ${dice?.loss_step_percent} % de l'effectif perdue dans la séquence. Raté : la troupe rompt.`,
      melee: "Valeur d'attaque en mêlée et en poursuite.",
      missile: "Valeur d'attaque au tir. À 0, la troupe ne tire pas.",
      range: "Portée du tir, en pas. Une portée d'au moins la moitié plus longue que celle de l'adversaire fait tirer en premier.",
      speed: "Une troupe poursuivie plus rapide que ses poursuivants leur échappe.",
    },
    weapons: { 4: "armes de jet seules", 1: "armes de jet et de mêlée", "-2": "armes de mêlée seules", 0: "sans arme" },
    paces: (n) => `${n} pas`, noShot: "ne tire pas",
    men: (n, digits = 0) => `${number(n, digits)} homme${n >= 2 ? "s" : ""}`,
    standing: (s, i) => `${s} / ${i}`,
    figure: (n) => `Une figurine : ${n} homme${n > 1 ? "s" : ""}`,
    chance: (p) => `${p} de réussite`,
    state: {
      deploy: "mise en place", ready: "en position", steady: "en bon ordre", ordered: "ordre donné, en secret",
      awaits: "décision en cours", victor: "l'ennemi rompt : poursuite possible", broken: "en déroute",
      pursuing: "à la poursuite de l'ennemi", fleeing: "en fuite", holds: "maître du terrain",
      destroyed: "plus un homme debout", left: "hors du terrain", fallback: "en repli", escaped: "hors d'atteinte",
      dark: "la nuit tombe",
    },
    field: "Le champ de bataille",
    fieldLabel: (n, s) => `Le champ de bataille : ${n} face à ${s}.`,
    phase: { deploy: "Mise en place", stance: "Décision des généraux", pursue: "L'ennemi rompt", continue: "Poursuite",
      over: "Fin de la bataille" },
    turn: (n) => `tour de bataille ${n}`,
    prompt: {
      deploy: "Confirme que ta troupe est en position : la bataille commence quand les deux le sont.",
      stance: "Les deux troupes tiennent bon. Donne ton ordre : il reste secret jusqu'à ce que l'autre général ait donné le sien.",
      pursue: "La troupe ennemie rompt. La poursuis-tu ?",
      continue: "La poursuite continue-t-elle ?",
    },
    actions: { ready: "En position", pursue: "Poursuivre", let_go: "Ne pas poursuivre", stop: "Arrêter la poursuite",
      attack: "Attaquer", hold: "Tenir", withdraw: "Se replier" },
    explain: {
      ready: "La troupe est prête au combat.",
      attack: "Si l'ennemi attaque aussi ou tient : mêlée. S'il se replie : tu le poursuis.",
      hold: (d) => `Rester sur place. Il faut un jet de discipline (${d}), sinon la troupe attaque sans ordre. Si l'ennemi attaque, c'est la mêlée : il te trouve là où tu es. Si les deux tiennent, un nouveau tour commence.`,
      withdraw: "Quitter le terrain. Si l'ennemi attaque, il te poursuit ; sinon il garde le terrain.",
      pursue: "Tes hommes frappent les fuyards en premier ; ceux-ci ne ripostent que sur un jet de discipline réussi.",
      let_go: (d) => `Laisser partir l'ennemi et garder le terrain. Il faut un jet de discipline (${d}), sinon tes hommes poursuivent quand même.`,
      stop: (d) => `Arrêter et garder le terrain. Il faut un jet de discipline (${d}), sinon la poursuite continue.`,
      pursueAgain: "Une nouvelle séquence de poursuite : tes hommes frappent encore en premier.",
    },
    onField: {
      hold: (d) => `Rester sur place. Il faut un jet de discipline (${d}), sinon la troupe attaque sans ordre. Si l'ennemi attaque, c'est la mêlée : il te trouve là où tu es. Si les deux tiennent, l'engagement s'arrête jusqu'aux ordres du tour suivant.`,
      withdraw: "Se replier d'une marche. Si l'ennemi attaque, il te poursuit ; sinon il garde sa position.",
    },
    waiting: "En attente de l'autre général.", given: (s) => `Ordre donné : ${s}.`,
    otherDecided: "L'autre général a déjà donné son ordre, en secret : il attend le tien.",
    holds: (s) => `${cap(s)} tient le terrain.`, nobody: "Personne ne tient le terrain.",
    reasons: {
      both_fell_back: "Les deux troupes ont raté leur moral après le tir et se replient.",
      enemy_broke: "L'ennemi a rompu et n'a pas été poursuivi.",
      fight_over: "Les deux camps ont rompu en mêlée : le combat est terminé.",
      destroyed: "Une troupe a été anéantie.",
      withdrawal: "L'adversaire s'est replié sans combattre.",
      both_withdrew: "Les deux camps se sont retirés.",
      pursuit_stopped: "Les poursuivants se sont arrêtés.",
      outran: "Les poursuivis, plus rapides, se sont échappés.",
      shelter: "Les poursuivis se sont retranchés à l'abri.",
      event: "Un événement (nuit, tempête, renforts) a mis fin à la poursuite.",
      nightfall: "La nuit est tombée sur une bataille sans issue.",
      field_cleared: "Un camp n'a plus personne sur le terrain.",
    },
    settings: "Conditions", shelter: "Un abri est à portée des fuyards (forteresse, fleuve).",
    events: "Un événement peut finir une poursuite (nuit, tempête, renforts).",
    yourDecision: "Ta décision",
    // battle table
    table: "Table de bataille", custom: "sur mesure", general: "Décisions",
    fieldChoice: "Champ de bataille", ownField: "Un champ à soi", lanes: { west: "ouest", centre: "centre", east: "est" },
    armyGroup: (troop, lane, turn) => `${troop} (${lane}${turn ? `, en renfort au tour ${turn}` : ""})`,
    policies: { careful: "Prudent (automatique)", bold: "Téméraire (automatique)", me: "Moi" },
    run: "Livrer la bataille", odds: "Calculer les chances", games: "Batailles simulées",
    shelterTable: "Abri à portée des fuyards", eventsTable: "Événements possibles (nuit, tempête, renforts)",
    oddsTitle: (n) => `Sur ${n} batailles`,
    holdsLine: (side, troop, p) => `${p}\u00a0: ${T.fr.theSide[side]}${troop ? ` (${troop})` : ""} tient le terrain.`,
    nobodyLine: (p) => `${p}\u00a0: aucun des deux ne tient le terrain (les deux se replient ou rompent ensemble, ou la nuit tombe).`,
    nobodyFieldLine: (p) => `${p}\u00a0: aucun des deux ne tient le terrain (la nuit tombe sur autant d'hommes de chaque côté, ou plus personne n'y reste).`,
    // How they end: each battle one way, with who holds the field then (issue 59: « 65,6 % : le Nord tient le
    // terrain », then « 95,5 % : la nuit est tombée sur une bataille sans issue »).
    holdsAfter: { north: "le Nord tient le terrain", south: "le Sud tient le terrain", nobody: "personne ne tient le terrain" },
    fieldNight: { north: "La nuit tombe ; le Nord, plus nombreux sur le terrain, le tient.",
      south: "La nuit tombe ; le Sud, plus nombreux sur le terrain, le tient.",
      nobody: "La nuit tombe sur autant d'hommes de chaque côté : personne ne tient le terrain." },
    endings: "Comment elles finissent", meanLosses: "Pertes moyennes",
    lossesLine: (side, troop, mean) => `${cap(T.fr.theSide[side])}${troop ? ` (${troop})` : ""} perd en moyenne ${mean}.`,
    heldTitle: "Qui tient le terrain ?",
    heldBars: { north: "Nord", south: "Sud", nobody: "Aucun des deux" },
    heldAxis: "Part des batailles",
    lostTitle: "Hommes perdus, bataille par bataille",
    lostX: "Hommes perdus", lostY: "Batailles",
    mean: "moyenne",
    heldLabel: (parts) => `Qui tient le terrain : ${parts}.`,
    lostLabel: (parts) => `Histogramme des hommes perdus par bataille : ${parts}.`,
  },
  en: {
    side: { north: "North", south: "South" },
    theSide: { north: "North", south: "South" },
    ofSide: { north: "of the North", south: "of the South" },
    troop: "Troop", you: "you",
    seat: (troop, side) => `${troop} ${T.en.ofSide[side]}`,
    fields: { strength: "Strength", discipline: "Discipline", morale: "Morale", melee: "Melee", missile: "Missile",
      range: "Range", speed: "Speed" },
    help: {
      strength: (d) => `The men still standing, out of the strength at the start.${d ? ` Each attack kills the attacker's strength × its attack value × a ${d.sides}-sided die, divided by ${d.loss_divisor}, rounded down.` : ""}`,
      discipline: (v, c) => `The troop's cohesion. A discipline roll passes on a ${dice?.sides}-sided die at ${v} or less (${c}). It takes one to hold ground, not to pursue, to stop a pursuit or to strike back while fleeing.`,
      morale: (v, mod, c) => `The troop's courage. A morale roll passes on a ${dice?.sides}-sided die at ${v + mod} or less (${c}): morale ${v}${mod ? `, ${signed(mod)} for its weapons` : ""}, and 1 less for every ${dice?.loss_step_percent} % of its strength lost in the sequence. Failed: the troop breaks.`,
      melee: "Attack value in melee and in pursuit.",
      missile: "Attack value when shooting. At 0, the troop does not shoot.",
      range: "Range of its missiles, in paces. A range at least half as long again as the enemy's shoots first.",
      speed: "A pursued troop faster than its pursuers gets away.",
    },
    weapons: { 4: "missile weapons only", 1: "missile and melee weapons", "-2": "melee weapons only", 0: "no weapon" },
    paces: (n) => `${n} paces`, noShot: "does not shoot",
    men: (n, digits = 0) => `${number(n, digits)} ${n === 1 ? "man" : "men"}`,
    standing: (s, i) => `${s} / ${i}`,
    figure: (n) => `One figure: ${n} ${n === 1 ? "man" : "men"}`,
    chance: (p) => `${p} to pass`,
    state: {
      deploy: "taking position", ready: "in position", steady: "in good order", ordered: "order given, in secret",
      awaits: "deciding", victor: "the enemy breaks: may pursue", broken: "routed",
      pursuing: "in pursuit of the enemy", fleeing: "fleeing", holds: "master of the field",
      destroyed: "not a man standing", left: "off the field", fallback: "falling back", escaped: "out of reach",
      dark: "night falls",
    },
    field: "The battlefield",
    fieldLabel: (n, s) => `The battlefield: ${n} facing ${s}.`,
    phase: { deploy: "Setting up", stance: "The generals decide", pursue: "The enemy breaks", continue: "Pursuit",
      over: "End of the battle" },
    turn: (n) => `battle turn ${n}`,
    prompt: {
      deploy: "Confirm that your troop is in position: the battle begins when both are.",
      stance: "Both troops stand firm. Give your order: it stays secret until the other general has given his.",
      pursue: "The enemy troop breaks. Do you pursue it?",
      continue: "Does the pursuit go on?",
    },
    actions: { ready: "In position", pursue: "Pursue", let_go: "Do not pursue", stop: "Stop the pursuit",
      attack: "Attack", hold: "Hold", withdraw: "Withdraw" },
    explain: {
      ready: "The troop is ready to fight.",
      attack: "If the enemy attacks too or holds: melee. If it withdraws: you pursue it.",
      hold: (d) => `Stay where you are. It takes a discipline roll (${d}), or the troop attacks without orders. If the enemy attacks, it is melee: it finds you where you stand. If both hold, a new turn begins.`,
      withdraw: "Leave the field. If the enemy attacks, it pursues you; otherwise it keeps the field.",
      pursue: "Your men strike the fleeing enemy first; they strike back only on a passed discipline roll.",
      let_go: (d) => `Let the enemy go and keep the field. It takes a discipline roll (${d}), or your men pursue anyway.`,
      stop: (d) => `Stop and keep the field. It takes a discipline roll (${d}), or the pursuit goes on.`,
      pursueAgain: "Another pursuit sequence: your men strike first again.",
    },
    onField: {
      hold: (d) => `Stay where you are. It takes a discipline roll (${d}), or the troop attacks without orders. If the enemy attacks, it is melee: it finds you where you stand. If both hold, the engagement stops until next turn's orders.`,
      withdraw: "Fall back one march. If the enemy attacks, it pursues you; otherwise it keeps its ground.",
    },
    waiting: "Waiting for the other general.", given: (s) => `Order given: ${s}.`,
    otherDecided: "The other general has already given his order, in secret: he is waiting for yours.",
    holds: (s) => `${cap(s)} holds the field.`, nobody: "Nobody holds the field.",
    reasons: {
      both_fell_back: "Both troops failed their morale after the fire and fall back.",
      enemy_broke: "The enemy broke and was not pursued.",
      fight_over: "Both sides broke in the melee: the fight is over.",
      destroyed: "A troop was wiped out.",
      withdrawal: "The enemy withdrew without a fight.",
      both_withdrew: "Both sides withdrew.",
      pursuit_stopped: "The pursuers stopped.",
      outran: "The pursued, faster, got away.",
      shelter: "The pursued reached shelter.",
      event: "An event (night, storm, reinforcements) ended the pursuit.",
      nightfall: "Night fell on a battle with no end.",
      field_cleared: "One side has nobody left on the field.",
    },
    settings: "Conditions", shelter: "Shelter is at hand for a fleeing troop (a fortress, a river).",
    events: "An event may end a pursuit (night, storm, reinforcements).",
    yourDecision: "Your decision",
    table: "Battle table", custom: "custom", general: "Decisions",
    fieldChoice: "Battlefield", ownField: "A field of one's own", lanes: { west: "west", centre: "centre", east: "east" },
    armyGroup: (troop, lane, turn) => `${troop} (${lane}${turn ? `, reinforcing on turn ${turn}` : ""})`,
    policies: { careful: "Careful (automatic)", bold: "Bold (automatic)", me: "Me" },
    run: "Fight the battle", odds: "Work out the odds", games: "Battles simulated",
    shelterTable: "Shelter at hand for a fleeing troop", eventsTable: "Events may happen (night, storm, reinforcements)",
    oddsTitle: (n) => `Out of ${n} battles`,
    holdsLine: (side, troop, p) => `${p}: ${T.en.theSide[side]}${troop ? ` (${troop})` : ""} holds the field.`,
    nobodyLine: (p) => `${p}: neither side holds the field (both fall back or break together, or night falls).`,
    nobodyFieldLine: (p) => `${p}: neither side holds the field (night falls on as many men on each side, or nobody is left on it).`,
    holdsAfter: { north: "the North holds the field", south: "the South holds the field", nobody: "nobody holds the field" },
    fieldNight: { north: "Night falls; the North, with more men on the field, holds it.",
      south: "Night falls; the South, with more men on the field, holds it.",
      nobody: "Night falls on as many men on each side: nobody holds the field." },
    endings: "How they end", meanLosses: "Mean losses",
    lossesLine: (side, troop, mean) => `${T.en.theSide[side]}${troop ? ` (${troop})` : ""} loses ${mean} on average.`,
    heldTitle: "Who holds the field?",
    heldBars: { north: "North", south: "South", nobody: "Neither" },
    heldAxis: "Share of battles",
    lostTitle: "Men lost, battle by battle",
    lostX: "Men lost", lostY: "Battles",
    mean: "mean",
    heldLabel: (parts) => `Who holds the field: ${parts}.`,
    lostLabel: (parts) => `Histogram of the men lost in each battle: ${parts}.`,
  },
};
const FIELDS = ["strength", "discipline", "morale", "melee", "missile", "range", "speed"];
const FIELD_ODDS_CHUNK = 100;
const SIDES = ["north", "south"];

let lang = "fr";  // the language of the page being drawn (pct and number formats read it)
const cap = (s) => s[0].toUpperCase() + s.slice(1);
const lower = (s) => (s ? s[0].toLowerCase() + s.slice(1) : s);
const signed = (n) => (n > 0 ? `+${n}` : `−${-n}`);
const number = (n, digits = 0) => new Intl.NumberFormat(lang, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(n);
const pct = (chance) => `${number(100 * chance)} %`;
const colon = () => (lang === "fr" ? "\u00a0: " : ": ");
const semicolon = () => (lang === "fr" ? "\u00a0; " : "; ");
const share = (x) => `${number(100 * x, 1)} %`;

function troopName(view, side, l) {
  const group = view.groups[side];
  return group.names?.[l] ?? T[l].troop;
}

// The seat as its general reads it in the header: "Archers du Nord", "Guards of the South".
export function seatName(view, seat, l) {
  const t = T[l === "en" ? "en" : "fr"];
  if (view?.mode === "field") return fieldSeatName(seat, l === "en" ? "en" : "fr");
  if (!view?.groups?.[seat]) return t.side[seat] ?? "";
  return t.seat(troopName(view, seat, l === "en" ? "en" : "fr"), seat);
}

// What each group is doing now, in a few words.
function groupState(view, game, side) {
  const s = T[lang].state;
  const other = side === "north" ? "south" : "north";
  const toAct = game?.to_act ?? [];
  if (view.result) {
    const { winner, reason } = view.result;
    if (view.groups[side].strength <= 0) return s.destroyed;
    if (winner === side) return s.holds;
    if (reason === "nightfall") return s.dark;
    if (["both_withdrew", "withdrawal"].includes(reason)) return s.left;
    if (reason === "both_fell_back") return s.fallback;
    if (["outran", "shelter"].includes(reason)) return s.escaped;
    if (winner === other) return s.fleeing;
    return s.broken;
  }
  if (view.phase === "deploy") return toAct.includes(side) ? s.deploy : s.ready;
  if (view.phase === "stance") return `${s.steady}, ${view.stances_given.includes(side) ? s.ordered : s.awaits}`;
  if (view.phase === "pursue") return view.decider === side ? s.victor : s.broken;
  if (view.phase === "continue") return view.decider === side ? s.pursuing : s.fleeing;
  return "";
}

// -- the picture: both groups face to face, north above, south below ------------------------------------
const WIDTH = 360;
const PER_ROW = 20;
const FIG_W = 17;
const FIG_H = 20;

function figureScale(view) {
  const most = Math.max(...SIDES.map((s) => view.groups[s].initial));
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000]) {
    if (most / step <= 60) return step;
  }
  return Math.ceil(most / 60);
}

function figure(x, y, shoots, cls, facingUp) {
  const d = facingUp ? -1 : 1;  // the weapon points at the enemy
  const parts = [
    el("svg:circle", { cx: x, cy: y + 4, r: 3.2 }),
    el("svg:path", { d: `M${x - 4.5} ${y + 19} L${x + 4.5} ${y + 19} L${x + 2.8} ${y + 8} L${x - 2.8} ${y + 8} Z` }),
  ];
  parts.push(shoots
    ? el("svg:path", { class: "weapon", d: `M${x + 5} ${y + 3} Q${x + 9} ${y + 10} ${x + 5} ${y + 17}` })
    : el("svg:line", { class: "weapon", x1: x + 6, y1: y + 10 - 9 * d, x2: x + 6, y2: y + 10 + 9 * d }));
  return el("svg:g", { class: `fig ${cls}` }, ...parts);
}

function battlefield(view, game, seat) {
  const t = T[lang];
  const per = figureScale(view);
  const rows = Math.max(...SIDES.map((s) => Math.ceil(view.groups[s].initial / per / PER_ROW)));
  const band = 44 + rows * FIG_H;
  const gap = 46;
  const height = 2 * band + gap;
  const names = Object.fromEntries(SIDES.map((s) => [s, seatName(view, s, lang)]));
  const svg = el("svg:svg", { viewBox: `0 0 ${WIDTH} ${height}`, class: "battlefield", role: "img",
    "aria-labelledby": "battlefield-title battlefield-desc" });
  const summary = SIDES.map((s) => `${names[s]}${colon()}${t.men(view.groups[s].strength)}, ${groupState(view, game, s)}`);
  svg.append(el("svg:title", { id: "battlefield-title" }, t.fieldLabel(names.north, names.south)),
    el("svg:desc", { id: "battlefield-desc" }, `${summary.join(semicolon())}.`));
  svg.append(el("svg:rect", { x: 0, y: 0, width: WIDTH, height, rx: 6, class: "field-ground" }));
  for (const side of SIDES) {
    const group = view.groups[side];
    const top = side === "north" ? 0 : band + gap;
    const total = Math.ceil(group.initial / per);
    const standing = Math.ceil(group.strength / per);
    const figRows = Math.ceil(total / PER_ROW);
    // labels outside (north on top, south below), men towards the middle, facing each other
    const labelY = side === "north" ? top + 18 : top + band - 24;
    const figTop = side === "north" ? top + band - figRows * FIG_H - 4 : top + 6;
    const mine = side === seat ? ` (${t.you})` : "";
    svg.append(el("svg:text", { x: 10, y: labelY, class: `field-name ${side}` }, `${names[side]}${mine}`),
      el("svg:text", { x: WIDTH - 10, y: labelY, "text-anchor": "end", class: "field-strength" }, t.men(group.strength)),
      el("svg:text", { x: 10, y: labelY + 16, class: "field-state" }, cap(groupState(view, game, side))));
    const figs = el("svg:g", { class: `figures ${side}` }, el("svg:title", {}, `${t.figure(per)} · ${t.standing(group.strength, group.initial)}`));
    for (let i = 0; i < total; i++) {
      // the standing men are in the front ranks, the fallen behind
      const row = side === "north" ? figRows - 1 - Math.floor(i / PER_ROW) : Math.floor(i / PER_ROW);
      const x = 12 + (i % PER_ROW) * FIG_W + (WIDTH - 24 - PER_ROW * FIG_W) / 2;
      figs.append(figure(x, figTop + row * FIG_H, group.missile > 0 && group.range > 0, i < standing ? side : "fallen", side === "south"));
    }
    svg.append(figs);
  }
  // the ground between them: who pursues whom, or the melee line
  const mid = band + gap / 2;
  if (["pursue", "continue"].includes(view.phase) && view.decider) {
    const down = view.decider === "north";
    svg.append(el("svg:path", { class: "field-arrow", d: down ? `M${WIDTH / 2} ${mid - 16} L${WIDTH / 2} ${mid + 12} M${WIDTH / 2 - 8} ${mid + 4} L${WIDTH / 2} ${mid + 14} L${WIDTH / 2 + 8} ${mid + 4}`
      : `M${WIDTH / 2} ${mid + 16} L${WIDTH / 2} ${mid - 12} M${WIDTH / 2 - 8} ${mid - 4} L${WIDTH / 2} ${mid - 14} L${WIDTH / 2 + 8} ${mid - 4}` }));
  } else {
    svg.append(el("svg:line", { class: "field-line", x1: 20, y1: mid, x2: WIDTH - 150, y2: mid }));
  }
  svg.append(el("svg:text", { x: WIDTH - 10, y: mid + 4, "text-anchor": "end", class: "field-scale" }, t.figure(per)));
  return svg;
}

// -- the figures of a group, each with what it means ----------------------------------------------------
function groupCard(view, side, seat) {
  const t = T[lang];
  const group = view.groups[side];
  const mod = group.morale_modifier ?? 0;
  const left = Math.max(0, group.strength / group.initial);
  const values = {
    discipline: `${group.discipline} · ${t.chance(pct(group.discipline_chance))}`,
    morale: `${group.morale + mod}${mod ? ` (${group.morale} ${signed(mod)}, ${t.weapons[mod] ?? ""})` : ""} · ${t.chance(pct(group.morale_chance))}`,
    melee: String(group.melee),
    missile: group.missile > 0 && group.range > 0 ? String(group.missile) : `0 (${t.noShot})`,
    range: group.range > 0 ? t.paces(group.range) : "—",
    speed: String(group.speed),
  };
  const help = {
    discipline: t.help.discipline(group.discipline, pct(group.discipline_chance)),
    morale: t.help.morale(group.morale, mod, pct(group.morale_chance)),
    melee: t.help.melee, missile: t.help.missile, range: t.help.range, speed: t.help.speed,
  };
  return el("section", { class: `group ${side}`, "data-side": side, "aria-label": seatName(view, side, lang) },
    el("h3", {}, `${seatName(view, side, lang)}${side === seat ? ` (${t.you})` : ""}`),
    el("div", { class: "strength-bar", title: t.help.strength(dice), "aria-hidden": "true" },
      el("span", { style: `width: ${(100 * left).toFixed(0)}%` })),
    el("p", { class: "strength", "data-strength": String(group.strength), title: t.help.strength(dice) },
      `${t.fields.strength}${colon()}`, el("strong", {}, t.standing(group.strength, group.initial))),
    el("dl", {}, ...FIELDS.slice(1).flatMap((f) => [
      el("dt", {}, el("span", { class: "explained", title: help[f], tabindex: "0" }, t.fields[f])),
      el("dd", { title: help[f] }, values[f])])));
}

// The decisions due in a fight, each with what it will do; on a field, the engaged group's discipline.
function decisionChoices(view, ctx, t) {
  const { seat } = ctx;
  const mine = !seat ? null : view.mode === "field" ? view.groups[view.engagement?.[seat]] : view.groups[seat];
  const discipline = pct(mine?.discipline_chance ?? 0);
  const explain = (action) => {
    const key = action.type === "stance" ? action.stance : action.type;
    if (key === "pursue" && view.phase === "continue") return t.explain.pursueAgain;
    const text = (view.mode === "field" ? t.onField[key] : null) ?? t.explain[key];
    return typeof text === "function" ? text(discipline) : text;
  };
  return ctx.legal.filter((action) => action.type !== "order").map((action) => {
    const key = action.type === "stance" ? action.stance : action.type;
    const help = explain(action);
    return el("div", { class: "choice" },
      el("button", { type: "button", class: `decision${key === "attack" || key === "pursue" ? " primary" : ""}`,
        "data-decision": key, title: help, onclick: () => ctx.act(action) }, t.actions[key]),
      el("p", { class: "muted" }, help));
  });
}

// The other general has given his stance and this seat has not (issue 59: the general still deciding was not
// told): read from the stances the view says are given, never from the stance itself.
function otherDecided(view, seat, t) {
  const given = (view.mode === "field" ? view.engagement?.stances_given : view.stances_given) ?? [];
  const other = seat === "north" ? "south" : "north";
  if (view.phase !== "stance" || !seat || given.includes(seat) || !given.includes(other)) return null;
  return el("p", { class: "other-decided", id: "other-decided" }, t.otherDecided);
}

export function render(root, ctx) {
  const { view, seat, game } = ctx;
  lang = ctx.lang === "en" ? "en" : "fr";
  const t = T[lang];
  dice = view.dice;
  if (view.mode === "field") {
    renderField(root, ctx, { T, pct, decisionChoices, otherDecided });
    return;
  }
  const choices = decisionChoices(view, ctx, t);
  let status;
  let reason = null;
  if (view.result) {
    status = view.result.winner ? t.holds(t.theSide[view.result.winner]) : t.nobody;
    reason = t.reasons[view.result.reason] ?? null;
  } else if (choices.length) {
    status = `${t.phase[view.phase]}${view.turn ? ` · ${t.turn(view.turn)}` : ""}`;
  } else {
    status = view.your_stance ? `${t.given(t.actions[view.your_stance])} ${t.waiting}` : t.waiting;
  }
  const settings = [view.shelter ? t.shelter : null, view.events ? t.events : null].filter(Boolean);
  root.replaceChildren(el("div", { class: "bataille" },
    el("p", { class: "battle-status", id: "battle-status" }, status),
    reason ? el("p", { class: "battle-reason" }, reason) : null,
    choices.length ? el("section", { class: "decisions card", "aria-labelledby": "decision-title" },
      el("h2", { id: "decision-title" }, t.yourDecision),
      el("p", {}, t.prompt[view.phase] ?? ""), otherDecided(view, seat, t), el("div", { class: "choices" }, ...choices)) : null,
    battlefield(view, game, seat),
    el("div", { class: "groups" }, groupCard(view, "north", seat), groupCard(view, "south", seat)),
    settings.length ? el("p", { class: "settings muted" }, `${t.settings}${colon()}${settings.join(" ")}`) : null));
}

// -- the battle table (lobby) ------------------------------------------------------------------------
export function setup(root, ctx) {
  const { ruleset } = ctx;
  lang = ctx.lang === "en" ? "en" : "fr";
  const l = lang;
  const t = T[l];
  const schema = ruleset.options_schema;
  const catalogue = schema.north.catalogue;
  const tips = { strength: t.help.strength(null), discipline: t.help.discipline(0, "").split(".")[0] + ".",
    morale: t.help.morale(0, 0, "").split(".")[0] + ".", melee: t.help.melee, missile: t.help.missile, range: t.help.range,
    speed: t.help.speed };
  const sideForm = (side) => {
    const select = el("select", { id: `${side}-troop`, onchange: () => fill(side) },
      ...Object.entries(catalogue).map(([id, troop]) => el("option", { value: id }, troop.names[l])),
      el("option", { value: "custom" }, t.custom));
    select.value = schema[side].default.troop;
    const inputs = FIELDS.map((f) => el("label", { title: tips[f] }, `${t.fields[f]} `, el("input", { type: "number", id: `${side}-${f}`,
      min: String(schema[side].fields[f].min), max: String(schema[side].fields[f].max) })));
    const policy = el("select", { id: `${side}-general` }, ...Object.entries(t.policies).map(([v, label]) => el("option", { value: v }, label)));
    policy.value = side === "north" ? "me" : "careful";
    return el("fieldset", { class: `table-side ${side}` }, el("legend", {}, t.side[side]),
      el("label", { class: "troop-only" }, `${t.troop} `, select), ...inputs.map((i) => { i.classList.add("troop-only"); return i; }),
      el("p", { class: "field-army muted", id: `${side}-army` }),
      el("label", {}, `${t.general} `, policy));
  };
  const fieldChoice = el("select", { id: "table-field", onchange: () => showField() },
    ...schema.field.values.map((v) => el("option", { value: v }, schema.field.labels[v][l])),
    el("option", { value: "custom" }, t.ownField));
  const chosenField = () => root.querySelector("#table-field").value;
  const editor = fieldEditor(schema, l, schema.field.fields[schema.field.suggested]);
  editor.node.hidden = true;
  // On a field, each side is its army: the groups and the reinforcements the shipped field gives it, or
  // the editor's for a field of one's own.
  const showField = () => {
    const name = chosenField();
    for (const node of root.querySelectorAll(".troop-only, .table-flag")) node.hidden = Boolean(name);
    editor.node.hidden = name !== "custom";
    for (const side of SIDES) {
      const box = root.querySelector(`#${side}-army`);
      box.hidden = !name || name === "custom";
      if (box.hidden) continue;
      const groups = schema.field.fields[name].groups.filter((g) => g.side === side);
      box.textContent = groups.map((g) => t.armyGroup(catalogue[g.troop]?.names[l] ?? t.custom, t.lanes[g.lane], g.turn)).join(", ");
    }
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
  const fieldOption = () => (chosenField() === "custom" ? editor.value() : chosenField());
  const options = () => (chosenField() ? { field: fieldOption() } : { north: group("north"), south: group("south"),
    shelter: root.querySelector("#table-shelter").checked, events: root.querySelector("#table-events").checked });
  const generals = () => Object.fromEntries(SIDES.map((s) => [s, root.querySelector(`#${s}-general`).value]));
  const troops = () => Object.fromEntries(SIDES.map((s) => {
    const id = root.querySelector(`#${s}-troop`).value;
    return [s, chosenField() ? "" : catalogue[id]?.names[l] ?? t.custom];
  }));
  const result = el("div", { id: "odds-result", "aria-live": "polite" });
  root.replaceChildren(el("form", { class: "battle-table", id: "battle-table", onsubmit: (event) => event.preventDefault() },
    el("p", {}, el("label", { for: "table-field" }, `${t.fieldChoice} `), fieldChoice),
    editor.node,
    el("div", { class: "table-sides" }, sideForm("north"), sideForm("south")),
    el("label", { class: "table-flag" }, el("input", { type: "checkbox", id: "table-shelter" }), ` ${t.shelterTable}`),
    el("label", { class: "table-flag" }, el("input", { type: "checkbox", id: "table-events" }), ` ${t.eventsTable}`),
    el("p", {},
      el("button", { type: "button", id: "run-battle", class: "primary", onclick: () => run(ctx, options(), generals()) }, t.run),
      " ", el("button", { type: "button", id: "run-odds", onclick: () => odds(ctx, options(), generals(), result, l, troops()) }, t.odds)),
    el("progress", { id: "odds-progress", max: "10000", value: "0", hidden: true, "aria-label": t.games }), result));
  fill("north");
  fill("south");
  showField();
}

async function run(ctx, options, generals) {
  const bots = Object.fromEntries(Object.entries(generals).filter(([, g]) => g !== "me"));
  const created = await ctx.create({ ruleset: "bataille", options, bots });
  if (!created) return;
  const mine = Object.keys(generals).filter((s) => generals[s] === "me");
  const seats = mine.length ? mine : ["north"];
  const tokens = seats.map((s) => `${s}=${encodeURIComponent(created.seats[s].token)}`);
  window.location.href = mine.length === 1 ? created.seats[mine[0]].link
    : `/play/${encodeURIComponent(created.id)}${mine.length ? `#${tokens.join("&")}` : `#token=${encodeURIComponent(created.spectator.token)}`}`;
}

// Odds: 10,000 battles (1,000 on a field) simulated by the server in chunks, so that the bar moves; told in words, then
// drawn as two SVG charts with their axes.
async function odds(ctx, options, generals, box, l, troops) {
  lang = l;
  const t = T[l];
  const bar = document.getElementById("odds-progress");
  const perChunk = options.field ? FIELD_ODDS_CHUNK : 1000;  // a field battle takes some fifty decisions
  bar.max = String(10 * perChunk);
  bar.hidden = false;
  bar.value = 0;
  const total = { games: 0, holds: { north: 0, south: 0, nobody: 0 }, endings: {}, losses: { north: [], south: [] } };
  const policy = Object.fromEntries(Object.entries(generals).map(([s, g]) => [s, g === "me" ? "careful" : g]));
  for (let chunk = 0; chunk < 10; chunk++) {
    const answer = await ctx.simulate({ options, seats: policy, games: perChunk, seed: chunk });
    if (!answer) return;
    total.games += answer.games;
    for (const key of Object.keys(total.holds)) total.holds[key] += answer.holds_field[key];
    for (const { reason, holds, games } of answer.endings) {
      const key = `${reason} ${holds}`;
      total.endings[key] = (total.endings[key] ?? 0) + games;
    }
    for (const side of SIDES) total.losses[side].push(...answer.losses[side]);
    bar.value = total.games;
  }
  lang = l;
  const means = Object.fromEntries(SIDES.map((s) => [s, total.losses[s].reduce((a, b) => a + b, 0) / Math.max(1, total.losses[s].length)]));
  const endings = Object.entries(total.endings).sort((a, b) => b[1] - a[1]);
  const onField = Boolean(options.field);
  box.replaceChildren(
    el("p", { id: "odds-games", "data-games": String(total.games) }, `${t.games}${colon()}${number(total.games)}`),
    el("div", { class: "odds-words" },
      el("h3", {}, t.oddsTitle(number(total.games))),
      el("ul", { id: "odds-summary" },
        ...SIDES.map((s) => el("li", { class: s }, t.holdsLine(s, troops[s], share(total.holds[s] / total.games)))),
        el("li", { class: "nobody" }, (onField ? t.nobodyFieldLine : t.nobodyLine)(share(total.holds.nobody / total.games)))),
      el("h3", {}, t.endings),
      el("ul", { id: "odds-endings" }, ...endings.map(([key, count]) => {
        const [reason, holds] = key.split(" ");
        return el("li", { "data-games": String(count), "data-holds": holds },
          `${share(count / total.games)}${colon()}${lower(endingWords(t, reason, holds, onField))}`);
      })),
      el("h3", {}, t.meanLosses),
      el("ul", { id: "odds-losses" }, ...SIDES.map((s) => el("li", {}, t.lossesLine(s, troops[s], t.men(means[s], 1)))))),
    el("div", { class: "odds-charts" }, holdsChart(total, t), lossChart(total, t, means)));
}

// One way a battle ends and who holds the field then; on a field, night gives it to the side with more men there.
function endingWords(t, reason, holds, onField) {
  if (onField && reason === "nightfall") return t.fieldNight[holds];
  return `${(t.reasons[reason] ?? "").replace(/\.$/, "")}${semicolon()}${t.holdsAfter[holds]}.`;
}

function chart(id, width, height, title, label) {
  return el("svg:svg", { viewBox: `0 0 ${width} ${height}`, class: "odds-chart", id, role: "img", "aria-label": label },
    el("svg:title", {}, title));
}

function holdsChart(total, t) {
  const keys = ["north", "south", "nobody"];
  const parts = keys.map((k) => `${t.heldBars[k]} ${share(total.holds[k] / total.games)}`);
  const svg = chart("odds-held", 340, 220, t.heldTitle, t.heldLabel(parts.join(semicolon())));
  const left = 48, bottom = 180, top = 30, plot = bottom - top;
  svg.append(el("svg:text", { x: 170, y: 16, "text-anchor": "middle", class: "chart-title" }, t.heldTitle));
  for (const tick of [0, 25, 50, 75, 100]) {
    const y = bottom - (plot * tick) / 100;
    svg.append(el("svg:line", { x1: left, x2: 330, y1: y, y2: y, class: tick ? "grid" : "axis" }),
      el("svg:text", { x: left - 4, y: y + 3, "text-anchor": "end", class: "tick" }, `${tick} %`));
  }
  svg.append(el("svg:line", { x1: left, x2: left, y1: top, y2: bottom, class: "axis" }),
    el("svg:text", { x: 12, y: (top + bottom) / 2, "text-anchor": "middle", class: "axis-label",
      transform: `rotate(-90 12 ${(top + bottom) / 2})` }, t.heldAxis));
  keys.forEach((key, i) => {
    const part = total.holds[key] / total.games;
    const height = plot * part;
    const x = left + 14 + i * 92;
    svg.append(el("svg:rect", { x, y: bottom - height, width: 64, height, class: `bar ${key}`, "data-share": part.toFixed(3) }),
      el("svg:text", { x: x + 32, y: bottom - height - 4, "text-anchor": "middle", class: "value" }, share(part)),
      el("svg:text", { x: x + 32, y: bottom + 16, "text-anchor": "middle", class: "tick" }, t.heldBars[key]));
  });
  return svg;
}

function niceStep(top, ticks) {
  const raw = top / ticks;
  const power = 10 ** Math.floor(Math.log10(Math.max(1, raw)));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
}

function lossChart(total, t, means) {
  const parts = SIDES.map((s) => `${t.side[s]}, ${t.mean} ${t.men(means[s], 1)}`);
  const svg = chart("odds-lost", 340, 240, t.lostTitle, t.lostLabel(parts.join(semicolon())));
  const left = 52, right = 330, bottom = 178, top = 30, plot = bottom - top;
  svg.append(el("svg:text", { x: 180, y: 16, "text-anchor": "middle", class: "chart-title" }, t.lostTitle));
  const most = Math.max(1, ...total.losses.north, ...total.losses.south);
  const bins = 20;
  const width = Math.max(1, Math.ceil((most + 1) / bins));
  const counts = Object.fromEntries(SIDES.map((side) => {
    const c = new Array(bins).fill(0);
    for (const value of total.losses[side]) c[Math.min(bins - 1, Math.floor(value / width))] += 1;
    return [side, c];
  }));
  const peak = Math.max(1, ...counts.north, ...counts.south);
  const yStep = niceStep(peak, 4);
  const yTop = Math.ceil(peak / yStep) * yStep;
  for (let v = 0; v <= yTop; v += yStep) {
    const y = bottom - (plot * v) / yTop;
    svg.append(el("svg:line", { x1: left, x2: right, y1: y, y2: y, class: v ? "grid" : "axis" }),
      el("svg:text", { x: left - 4, y: y + 3, "text-anchor": "end", class: "tick" }, number(v)));
  }
  const slot = (right - left) / bins;
  SIDES.forEach((side, index) => {
    counts[side].forEach((count, b) => {
      const height = (plot * count) / yTop;
      svg.append(el("svg:rect", { x: left + b * slot + 1 + index * (slot - 2) / 2, y: bottom - height, width: (slot - 2) / 2, height,
        class: `bar ${side}` }));
    });
  });
  const xStep = niceStep(width * bins, 5);
  for (let v = 0; v <= width * bins; v += xStep) {
    const x = left + (v / width) * slot;
    svg.append(el("svg:line", { x1: x, x2: x, y1: bottom, y2: bottom + 4, class: "axis" }),
      el("svg:text", { x, y: bottom + 14, "text-anchor": "middle", class: "tick" }, number(v)));
  }
  svg.append(el("svg:line", { x1: left, x2: left, y1: top, y2: bottom, class: "axis" }),
    el("svg:text", { x: (left + right) / 2, y: bottom + 28, "text-anchor": "middle", class: "axis-label" }, t.lostX),
    el("svg:text", { x: 12, y: (top + bottom) / 2, "text-anchor": "middle", class: "axis-label",
      transform: `rotate(-90 12 ${(top + bottom) / 2})` }, t.lostY));
  SIDES.forEach((side, index) => {  // the legend: each side's colour and its mean losses
    const y = bottom + 42 + index * 0;
    const x = left + index * 140;
    svg.append(el("svg:rect", { x, y: y - 8, width: 10, height: 10, class: `bar ${side}` }),
      el("svg:text", { x: x + 14, y, class: "legend" }, `${t.side[side]}, ${t.mean} ${number(means[side], 1)}`));
  });
  return svg;
}

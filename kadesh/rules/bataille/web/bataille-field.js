// Bataille on a field: three lanes seen from above, the North's edge at the top and the South's at the
// bottom, each group a labelled block with its strength bar where it stands. In the orders phase, the
// general picks a group (on the field or in the list) and gives it its order; every figure an order's
// help quotes (paces a turn, range) is the server's, from the view. When an engagement waits for a
// decision its lane lights up and the two groups' figures come first; the decision buttons are the
// server's legal actions, the rolls and their targets are in the journal.

import { el } from "/static/dom.js";
import { storyBox, storySince } from "/static/turn-story.js";

const W = {
  fr: {
    side: { north: "Nord", south: "Sud" },
    army: { north: "l'armée du Nord", south: "l'armée du Sud" },
    ofSide: { north: "du Nord", south: "du Sud" },
    lane: { west: "Ouest", centre: "Centre", east: "Est" },
    laneAt: { west: "à l'ouest", centre: "au centre", east: "à l'est" },
    turn: (n, night) => `Tour ${n} sur ${night}`,
    nightAfter: (n) => `La nuit tombe à la fin du tour ${n}.`,
    legend: "Sur le champ, un trait tous les 100 pas ; devant le groupe choisi, la zone ombrée est la portée de son tir, le tiret sa marche d'un tour.",
    stormAt: (n) => `Une tempête est annoncée au tour ${n} : aucun arc ne porte, et elle met fin aux poursuites.`,
    stormNow: "Tempête : aucun arc ne porte ce tour, et elle mettra fin à toute poursuite.",
    expected: (name, turn, lane) => `${name} arrivent au tour ${turn}, ${lane}.`,
    reinforcements: "Tes renforts",
    orders: { advance: "Avancer", close: "Approcher à portée", hold: "Tenir", withdraw: "Reculer",
      west: "Passer à l'ouest", east: "Passer à l'est" },
    orderHelp: {
      advance: (g) => `Avancer de ${g.move} pas vers l'ennemi ; on s'arrête au contact.`,
      close: (g) => `Avancer (au plus ${g.move} pas) jusqu'à ${g.range} pas de l'ennemi de tête de ce couloir, pour tirer sans mêlée : s'il ne porte pas aussi loin, il ne peut pas riposter. Sans ennemi dans le couloir, toute la marche. Seul le groupe de tête d'un couloir combat.`,
      hold: () => "Rester sur place.",
      withdraw: (g) => `Reculer de ${g.move} pas. Au-delà de ton bord, le groupe quitte le terrain pour de bon (à l'abri s'il y trouve ta forteresse ou un fleuve) et ne compte plus pour le tenir.`,
    },
    // « Passer à l'ouest » from the east lane leads to the centre (issue 59): the words name the lane it leads to,
    // as the server's view gives it (``shifts``).
    shift: (lane) => `Passer ${W.fr.laneAt[lane]}`,
    shiftHelp: (lane) => `Passer ${W.fr.laneInto[lane]}, à la même hauteur : cela prend le tour.`,
    laneInto: { west: "dans le couloir de l'ouest", centre: "dans le couloir du centre", east: "dans le couloir de l'est" },
    ordersTitle: "Tes ordres", ordersPhase: "Ordres",
    ordersPrompt: "Donne un ordre à chacun de tes groupes : choisis un groupe, sur le champ ou dans la liste, puis son ordre. Un ordre donné l'est pour tout le tour. Les ordres restent secrets jusqu'à ce que les deux généraux aient donné tous les leurs.",
    onField: (men) => `Sur le terrain : ${men.north} hommes au Nord, ${men.south} au Sud. À la nuit, le camp qui en a le plus le tient ; les hommes à l'abri ne comptent pas.`,
    nearest: (name, d, range) => `Ennemi de tête dans ce couloir : ${name}, à ${d} pas${range ? ` (sa portée : ${range} pas)` : " (il ne tire pas)"}.`,
    noEnemy: "Aucun ennemi dans ce couloir.",
    pick: "Groupe", given: (o) => `ordre : ${o}`, toGive: "ordre à donner",
    allGiven: "Tous tes ordres sont donnés. En attente de l'autre général.",
    drafted: (o) => `ordre : ${o}, à envoyer`,
    reviewTitle: "Tes ordres, avant de les envoyer",
    reviewPrompt: "Relis-les : une fois envoyés, ils ne changent plus. Ils restent secrets jusqu'à ce que l'autre général ait envoyé les siens.",
    send: "Envoyer les ordres", sending: "Envoi des ordres…", change: "Changer", changeOne: (name) => `Changer l'ordre des ${name}`,
    review: (name, lane, order, g) => `Les ${name}, ${lane}, ${{
      advance: `avancent de ${g.move} pas vers l'ennemi, jusqu'au contact`,
      close: `s'approchent jusqu'à ${g.range} pas de l'ennemi de tête, pour tirer sans mêlée`,
      hold: "tiennent leur position", withdraw: `reculent de ${g.move} pas`,
      west: `passent ${W.fr.laneInto[g.shifts?.west]}`, east: `passent ${W.fr.laneInto[g.shifts?.east]}` }[order]}.`,
    othersDone: "L'autre général a donné ses ordres.",
    othersWaiting: "L'autre général a déjà envoyé ses ordres : il attend les tiens.",
    storyTitle: (n) => (n ? `Pendant le tour ${n}` : "Pendant le tour"), storyMoves: "Les ordres et les mouvements",
    storyFight: (lane) => `Engagement ${lane}`,
    engagement: (lane, mine, theirs, d) => `Engagement ${lane} : ${mine} face à ${theirs}, ${d ? `à ${d} pas` : "au contact"}.`,
    engagementWatch: (lane, n, s, d) => `Engagement ${lane} : ${n} face à ${s}, ${d ? `à ${d} pas` : "au contact"}.`,
    decidingElsewhere: "L'autre général décide.",
    where: { field: "sur le terrain", sheltered: "à l'abri", left: "hors du terrain", destroyed: "anéantis", expected: "attendus" },
    out: "Hors du terrain", pending: "engagement à suivre",
    inMelee: "Pris dans une mêlée que personne n'a rompue : il tient et combat, la mêlée reprend au début du tour.",
    allGroups: (n) => `Les figures des ${n} autres groupes sur le terrain`,
    men: (n) => `${n} homme${n >= 2 ? "s" : ""}`,
    standing: (s, i) => `${s} / ${i}`,
    fields: { discipline: "Discipline", morale: "Moral", melee: "Mêlée", missile: "Tir", range: "Portée", move: "Marche" },
    paces: (n) => `${n} pas`, perTurn: (n) => `${n} pas par tour`, noShot: "ne tire pas",
    chance: (p) => `${p} de réussite`,
    fieldTitle: (name) => name ? `Le champ de bataille : ${name}` : "Le champ de bataille",
    fieldDesc: (parts) => parts,
    edge: { north: "Bord du Nord", south: "Bord du Sud" },
    river: "Fleuve", fortress: "Forteresse",
    fought: { standoff: "chacun tient", melee_goes_on: "mêlée à suivre", volley: "tir par-dessus", destroyed: "un groupe anéanti", shelter: "fuite à l'abri", outran: "fuite",
      event: "poursuite interrompue", both_fell_back: "repli des deux", fight_over: "les deux rompent",
      enemy_broke: "l'un rompt", withdrawal: "repli", both_withdrew: "repli des deux",
      pursuit_stopped: "poursuite arrêtée", default: "combat" },
    result: (men) => `Sur le terrain à la fin : ${men.north} hommes au Nord, ${men.south} au Sud.`,
    resultSheltered: (men) => `À l'abri : ${men.north} au Nord, ${men.south} au Sud.`,
    reasons: { field_cleared: "Un camp n'a plus personne sur le terrain.",
      nightfall: "La nuit est tombée : le camp qui a le plus d'hommes sur le terrain le tient." },
    you: "toi",
  },
  en: {
    side: { north: "North", south: "South" },
    army: { north: "the North's army", south: "the South's army" },
    ofSide: { north: "of the North", south: "of the South" },
    lane: { west: "West", centre: "Centre", east: "East" },
    laneAt: { west: "in the west", centre: "in the centre", east: "in the east" },
    turn: (n, night) => `Turn ${n} of ${night}`,
    nightAfter: (n) => `Night falls at the end of turn ${n}.`,
    legend: "On the field, a mark every 100 paces; ahead of the chosen group, the shaded band is its bow's range, the dash its march for one turn.",
    stormAt: (n) => `A storm is coming on turn ${n}: no bow carries, and it ends any pursuit.`,
    stormNow: "Storm: no bow carries this turn, and it will end any pursuit.",
    expected: (name, turn, lane) => `${name} arrive on turn ${turn}, ${lane}.`,
    reinforcements: "Your reinforcements",
    orders: { advance: "Advance", close: "Close to range", hold: "Hold", withdraw: "Draw back",
      west: "Move west", east: "Move east" },
    orderHelp: {
      advance: (g) => `Advance ${g.move} paces towards the enemy; stop at contact.`,
      close: (g) => `Advance (at most ${g.move} paces) to ${g.range} paces from the front enemy in this lane, to shoot without melee: if its range is shorter it cannot shoot back. With no enemy in the lane, the whole march. Only a lane's front group fights.`,
      hold: () => "Stay where you are.",
      withdraw: (g) => `Draw back ${g.move} paces. Past your edge the group leaves the field for good (safe if your fortress or a river is there) and no longer counts for holding it.`,
    },
    shift: (lane) => `Move ${W.en.laneTo[lane]}`,
    shiftHelp: (lane) => `Move ${W.en.laneInto[lane]}, level with where you are: it takes the turn.`,
    laneTo: { west: "to the west", centre: "to the centre", east: "to the east" },
    laneInto: { west: "into the west lane", centre: "into the centre lane", east: "into the east lane" },
    ordersTitle: "Your orders", ordersPhase: "Orders",
    ordersPrompt: "Give each of your groups an order: pick a group, on the field or in the list, then its order. An order given stands for the whole turn. Orders stay secret until both generals have given all of theirs.",
    onField: (men) => `On the field: ${men.north} men for the North, ${men.south} for the South. At night the side with more holds it; men in shelter do not count.`,
    nearest: (name, d, range) => `Front enemy in this lane: ${name}, ${d} paces away${range ? ` (its range: ${range} paces)` : " (it does not shoot)"}.`,
    noEnemy: "No enemy in this lane.",
    pick: "Group", given: (o) => `order: ${o}`, toGive: "order to give",
    allGiven: "All your orders are given. Waiting for the other general.",
    drafted: (o) => `order: ${o}, to send`,
    reviewTitle: "Your orders, before you send them",
    reviewPrompt: "Read them again: once sent they cannot change. They stay secret until the other general has sent his.",
    send: "Send the orders", sending: "Sending the orders…", change: "Change", changeOne: (name) => `Change the order of the ${name}`,
    review: (name, lane, order, g) => `The ${name}, ${lane}, ${{
      advance: `advance ${g.move} paces towards the enemy, up to contact`,
      close: `close to ${g.range} paces from the front enemy, to shoot without melee`,
      hold: "hold their ground", withdraw: `draw back ${g.move} paces`,
      west: `move ${W.en.laneInto[g.shifts?.west]}`, east: `move ${W.en.laneInto[g.shifts?.east]}` }[order]}.`,
    othersDone: "The other general has given his orders.",
    othersWaiting: "The other general has already sent his orders: he is waiting for yours.",
    storyTitle: (n) => (n ? `During turn ${n}` : "During the turn"), storyMoves: "The orders and the moves",
    storyFight: (lane) => `Engagement ${lane}`,
    engagement: (lane, mine, theirs, d) => `Engagement ${lane}: ${mine} facing ${theirs}, ${d ? `${d} paces apart` : "in contact"}.`,
    engagementWatch: (lane, n, s, d) => `Engagement ${lane}: ${n} facing ${s}, ${d ? `${d} paces apart` : "in contact"}.`,
    decidingElsewhere: "The other general is deciding.",
    where: { field: "on the field", sheltered: "in shelter", left: "off the field", destroyed: "wiped out", expected: "expected" },
    out: "Off the field", pending: "engagement to come",
    inMelee: "Caught in a melee nobody broke: it holds and fights; the melee goes on at the start of the turn.",
    allGroups: (n) => `The figures of the ${n} other groups on the field`,
    men: (n) => `${n} ${n === 1 ? "man" : "men"}`,
    standing: (s, i) => `${s} / ${i}`,
    fields: { discipline: "Discipline", morale: "Morale", melee: "Melee", missile: "Missile", range: "Range", move: "March" },
    paces: (n) => `${n} paces`, perTurn: (n) => `${n} paces a turn`, noShot: "does not shoot",
    chance: (p) => `${p} to pass`,
    fieldTitle: (name) => name ? `The battlefield: ${name}` : "The battlefield",
    fieldDesc: (parts) => parts,
    edge: { north: "North's edge", south: "South's edge" },
    river: "River", fortress: "Fortress",
    fought: { standoff: "both hold", melee_goes_on: "melee goes on", volley: "volley over friends", destroyed: "a group wiped out", shelter: "fled to shelter", outran: "got away",
      event: "pursuit cut short", both_fell_back: "both fall back", fight_over: "both break",
      enemy_broke: "one breaks", withdrawal: "withdrawal", both_withdrew: "both withdraw",
      pursuit_stopped: "pursuit stopped", default: "fight" },
    result: (men) => `On the field at the end: ${men.north} men for the North, ${men.south} for the South.`,
    resultSheltered: (men) => `In shelter: ${men.north} for the North, ${men.south} for the South.`,
    reasons: { field_cleared: "One side has nobody left on the field.",
      nightfall: "Night has fallen: the side with more men on the field holds it." },
    you: "you",
  },
};

const SIDES = ["north", "south"];
const selected = {};  // game id → the group whose order is being chosen
// game id → the turn's orders chosen and not sent yet: { turn, orders: {group: order} }. A turn's orders go
// together, after the general has read them again (issue 44: the last group's order sent the turn at once).
const drafts = {};
let sending = false;  // the reviewed orders are on their way
let latest = null;    // the last drawing's arguments, to draw again once they are sent
const stories = {};   // game id → the turn's story shown: { key, at, shut }

function draftOf(view, ctx) {
  const id = ctx.game?.id;
  if (!drafts[id] || drafts[id].turn !== view.turn) drafts[id] = { turn: view.turn, orders: {} };
  const open = pickableGroups(view, ctx);
  for (const gid of Object.keys(drafts[id].orders)) if (!open.includes(gid)) delete drafts[id].orders[gid];  // sent
  return drafts[id];
}

// The group whose order is being chosen: the one picked if it still waits to be sent, else the first without
// an order chosen; none once every group has one (the review) and outside the orders phase.
function chosenGroup(view, ctx) {
  const open = pickableGroups(view, ctx);
  if (!open.length) return null;
  const draft = draftOf(view, ctx);
  if (!open.includes(selected[ctx.game?.id])) selected[ctx.game.id] = open.find((gid) => !draft.orders[gid]) ?? null;
  return selected[ctx.game.id] ? view.groups[selected[ctx.game.id]] : null;
}

function choose(view, ctx, g, order) {
  const draft = draftOf(view, ctx);
  draft.orders[g.id] = order;
  selected[ctx.game.id] = pickableGroups(view, ctx).find((gid) => !draft.orders[gid]) ?? null;
  ctx.rerender();
}

// « Envoyer »: each chosen order sent as the legal action it is; the turn goes on once the last is in.
async function sendOrders(view, ctx) {
  const draft = draftOf(view, ctx);
  sending = true;
  ctx.rerender();
  try {
    for (const gid of pickableGroups(view, ctx)) {
      const action = ctx.legal.find((a) => a.type === "order" && a.group === gid && a.order === draft.orders[gid]);
      if (action) await ctx.act(action);
    }
  } finally {
    sending = false;
    if (latest) renderField(...latest);
  }
}

// "Archers du Nord", "North's Chariots (2)": a group's name for the page.
export function groupName(view, gid, lang) {
  const g = view.groups[gid];
  const w = W[lang];
  const troop = g.names?.[lang] ?? (lang === "fr" ? "Guerriers" : "Warriors");
  const same = Object.values(view.groups).filter((o) => o.side === g.side && o.troop === g.troop)
    .sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));
  const number = same.length > 1 ? ` (${same.findIndex((o) => o.id === gid) + 1})` : "";
  return lang === "fr" ? `${troop} ${w.ofSide[g.side]}${number}` : `${w.side[g.side]}'s ${troop}${number}`;
}

export function fieldSeatName(seat, lang) {
  if (!W[lang].side[seat]) return "";
  return lang === "fr" ? `Armée du ${W.fr.side[seat]}` : `${W.en.side[seat]}'s army`;
}

// -- the picture -------------------------------------------------------------------------------------------
const WIDTH = 360;
const MARGIN = 8;
const TOP = 34;          // room for the lane names and the north edge
const PX = 0.78;         // pixels per pace
const BLOCK_W = 100;
const BLOCK_H = 32;

function laneX(view, lane) {
  const lanes = view.field.lanes;
  const width = (WIDTH - 2 * MARGIN) / lanes.length;
  return MARGIN + lanes.indexOf(lane) * width + width / 2;
}

const paceY = (pos) => TOP + pos * PX;

// Blocks of one side in one lane, front first, drawn so that none hides another: each stands behind its
// front line, the next one behind it; a stack that would leave the field is pushed back in from the edge.
function layout(view) {
  const at = {};
  const low = TOP;
  const high = paceY(view.field.depth) - BLOCK_H;
  for (const side of SIDES) {
    const north = side === "north";
    for (const lane of view.field.lanes) {
      const groups = Object.values(view.groups).filter((g) => g.where === "field" && g.side === side && g.lane === lane)
        .sort((a, b) => (north ? b.pos - a.pos : a.pos - b.pos) || Number(a.id.slice(1)) - Number(b.id.slice(1)));
      const tops = [];
      for (const g of groups) {
        const wanted = north ? paceY(g.pos) - BLOCK_H : paceY(g.pos);
        const previous = tops.at(-1);
        tops.push(previous === undefined ? wanted
          : north ? Math.min(wanted, previous - BLOCK_H - 3) : Math.max(wanted, previous + BLOCK_H + 3));
      }
      // from the rear (the own edge) forwards: no block past the edge, none over the one behind it
      for (let i = tops.length - 1; i >= 0; i--) {
        const behind = tops[i + 1];
        if (north) tops[i] = Math.max(tops[i], behind === undefined ? low : behind + BLOCK_H + 3);
        else tops[i] = Math.min(tops[i], behind === undefined ? high : behind - BLOCK_H - 3);
      }
      groups.forEach((g, i) => { at[g.id] = Math.min(Math.max(tops[i], low), high); });
    }
  }
  return at;
}

function drawTerrain(svg, view, w) {
  const bottom = paceY(view.field.depth);
  for (const side of view.field.river) {
    const y = side === "north" ? TOP - 14 : bottom;
    svg.append(el("svg:rect", { x: MARGIN, y, width: WIDTH - 2 * MARGIN, height: 14, class: "river" }),
      el("svg:text", { x: WIDTH - MARGIN - 4, y: y + 11, "text-anchor": "end", class: "terrain-label" }, w.river));
  }
  for (const [side, lane] of Object.entries(view.field.fortress)) {
    const x = laneX(view, lane);
    const y = side === "north" ? TOP - 20 : bottom;
    const top = side === "north" ? y : y + 2;
    svg.append(el("svg:path", { class: "fortress",
      d: `M${x - 38} ${top + 18} L${x - 38} ${top} L${x - 28} ${top} L${x - 28} ${top + 5} L${x - 18} ${top + 5} L${x - 18} ${top} L${x + 18} ${top} L${x + 18} ${top + 5} L${x + 28} ${top + 5} L${x + 28} ${top} L${x + 38} ${top} L${x + 38} ${top + 18} Z` }),
    el("svg:text", { x, y: top + 14, "text-anchor": "middle", class: "terrain-label on-fortress" }, w.fortress));
  }
}

function drawLanes(svg, view, w, storyLane) {
  const lanes = view.field.lanes;
  const width = (WIDTH - 2 * MARGIN) / lanes.length;
  const bottom = paceY(view.field.depth);
  lanes.forEach((lane, i) => {
    const active = view.engagement?.lane === lane;
    svg.append(el("svg:rect", { x: MARGIN + i * width + 2, y: TOP, width: width - 4, height: bottom - TOP,
      class: `lane${active ? " engaged" : ""}${storyLane === lane ? " story" : ""}`, "data-lane": lane }));
    svg.append(el("svg:text", { x: MARGIN + i * width + width / 2, y: 12, "text-anchor": "middle", class: "lane-name" }, w.lane[lane]));
  });
  for (let pace = 100; pace < view.field.depth; pace += 100) {  // a mark every hundred paces
    svg.append(el("svg:line", { x1: MARGIN, x2: MARGIN + 5, y1: paceY(pace), y2: paceY(pace), class: "pace-tick" }));
  }
}

function drawReach(svg, view, g) {
  // the selected group's march this turn and its bow's range, ahead of it
  const ahead = g.side === "north" ? 1 : -1;
  const x = laneX(view, g.lane);
  const front = paceY(g.pos);
  if (g.reach > 0) {  // nothing in a storm
    const end = paceY(Math.min(view.field.depth, Math.max(0, g.pos + ahead * g.reach)));
    svg.append(el("svg:rect", { x: x - BLOCK_W / 2 - 4, y: Math.min(front, end), width: BLOCK_W + 8,
      height: Math.abs(end - front), class: "reach" }));
  }
  const march = paceY(Math.min(view.field.depth, Math.max(0, g.pos + ahead * g.move)));
  svg.append(el("svg:line", { x1: x - BLOCK_W / 2, x2: x + BLOCK_W / 2, y1: march, y2: march, class: "march" }));
}

function drawGroup(svg, view, g, top, ctx, lang) {
  const w = W[lang];
  const x = laneX(view, g.lane) - BLOCK_W / 2;
  const mine = g.side === ctx.seat;
  const engaged = view.engagement && (view.engagement.north === g.id || view.engagement.south === g.id);
  const pickable = pickableGroups(view, ctx).includes(g.id);
  const chosen = ctx.chosen?.id === g.id;
  const name = groupName(view, g.id, lang);
  const short = g.names?.[lang] ?? name;
  const left = Math.max(0, g.strength / g.initial);
  const block = el("svg:g", { class: `field-group ${g.side}${mine ? " mine" : ""}${engaged ? " engaged" : ""}${chosen ? " chosen" : ""}${pickable ? " pickable" : ""}${g.ordered ? " ordered" : ""}`,
    "data-group": g.id, onclick: pickable && !sending ? () => { selected[ctx.game.id] = g.id; ctx.rerender(); } : null },
  el("svg:title", {}, `${name} · ${w.men(g.strength)} · ${w.laneAt[g.lane]}`),
  el("svg:rect", { x, y: top, width: BLOCK_W, height: BLOCK_H, rx: 4, class: "block" }),
  el("svg:text", { x: x + 5, y: top + 13, class: "block-name", "font-size": 11, "font-weight": 600, "data-room": BLOCK_W - 10 }, short),
  el("svg:rect", { x: x + 5, y: top + 20, width: BLOCK_W - 38, height: 6, class: "bar-back" }),
  el("svg:rect", { x: x + 5, y: top + 20, width: (BLOCK_W - 38) * left, height: 6, class: "bar" }),
  el("svg:text", { x: x + BLOCK_W - 5, y: top + 27, "text-anchor": "end", class: "block-men" }, String(g.strength)));
  const drafted = mine && !g.order && drafts[ctx.game?.id]?.orders[g.id];
  if (mine && (g.order || drafted)) {  // an order sent, or chosen and waiting to be sent (hollow)
    block.append(el("svg:circle", { cx: x + BLOCK_W - 2, cy: top + 2, r: 5, class: `order-dot${drafted ? " drafted" : ""}` }));
  }
  svg.append(block);
}

function drawEngagement(svg, view) {
  const e = view.engagement;
  if (!e) return;
  const n = view.groups[e.north];
  const s = view.groups[e.south];
  const x = laneX(view, e.lane);
  const y1 = paceY(n.pos);
  const y2 = paceY(s.pos);
  const mid = (y1 + y2) / 2;
  svg.append(el("svg:line", { x1: x, x2: x, y1, y2, class: "engagement-line" }),
    el("svg:path", { class: "swords", d: `M${x - 9} ${mid - 9} L${x + 9} ${mid + 9} M${x + 9} ${mid - 9} L${x - 9} ${mid + 9}` }));
}

// A lane's caption, in the middle of the lane; wrapped to the lane's width once drawn (``fitWords``).
function caption(view, lane, words, extra = "") {
  const room = (WIDTH - 2 * MARGIN) / view.field.lanes.length - 12;
  return el("svg:text", { x: laneX(view, lane), y: paceY(view.field.depth / 2) + 4, "text-anchor": "middle",
    class: `fought${extra}`, "font-size": 11, "data-lane": lane, "data-room": room }, words);
}

function drawPending(svg, view, w) {
  for (const lane of view.pending ?? []) svg.append(caption(view, lane, w.pending, " pending"));
}

function drawFought(svg, view, w) {
  for (const [lane, reason] of Object.entries(view.fought ?? {})) {
    if (view.engagement?.lane === lane) continue;
    svg.append(caption(view, lane, w.fought[reason] ?? w.fought.default));
  }
}

// Words drawn on the field stay inside what they belong to (issue 44: captions spilled over the lanes' borders,
// « Archers nubi… » was cut): a caption wraps to its lane, a group's name narrows to its block. Measured once
// the picture is in the page; the font's size is an attribute as well, so that a measure taken before the
// stylesheet has come stays right.
function fitWords(svg) {
  for (const text of svg.querySelectorAll("text.fought")) wrapText(text, Number(text.dataset.room));
  for (const text of svg.querySelectorAll("text.block-name")) narrowText(text, Number(text.dataset.room));
}

function wrapText(text, room) {
  if (!room || text.getComputedTextLength() <= room) return;
  const x = text.getAttribute("x");
  const all = text.textContent;
  const lines = [];
  const probe = el("svg:tspan", {});
  text.replaceChildren(probe);
  let line = "";
  for (const word of all.split(" ")) {
    const longer = line ? `${line} ${word}` : word;
    probe.textContent = longer;
    if (line && probe.getComputedTextLength() > room) {
      lines.push(line);
      line = word;
    } else {
      line = longer;
    }
  }
  lines.push(line);
  text.replaceChildren(...lines.map((words, i) => el("svg:tspan", { x, dy: i ? "1.15em" : `${-0.575 * (lines.length - 1)}em` }, words)));
}

function narrowText(text, room) {
  const width = text.getComputedTextLength();
  if (!room || width <= room) return;
  const size = parseFloat(getComputedStyle(text).fontSize) || 11;
  text.style.fontSize = `${Math.max(8, Math.floor((10 * size * room) / width) / 10)}px`;
  if (text.getComputedTextLength() > room) text.setAttribute("textLength", String(room));  // squeezed, never cut
}

function fieldPicture(view, ctx, lang) {
  const w = W[lang];
  const height = paceY(view.field.depth) + 22;
  const name = view.field.names?.[lang] ?? null;
  const onField = Object.values(view.groups).filter((g) => g.where === "field");
  const desc = SIDES.map((side) => {
    const parts = onField.filter((g) => g.side === side).map((g) => `${groupName(view, g.id, lang)}, ${w.men(g.strength)}, ${w.laneAt[g.lane]}`);
    return `${w.side[side]} — ${parts.join(" ; ")}`;
  }).join(". ");
  const svg = el("svg:svg", { viewBox: `0 0 ${WIDTH} ${height}`, class: "field-map", role: "img",
    "aria-labelledby": "field-title field-desc" },
  el("svg:title", { id: "field-title" }, w.fieldTitle(name)), el("svg:desc", { id: "field-desc" }, `${desc}.`),
  el("svg:rect", { x: 0, y: 0, width: WIDTH, height, rx: 6, class: "field-ground" }));
  drawLanes(svg, view, w, ctx.storyLane);
  drawTerrain(svg, view, w);
  svg.append(el("svg:text", { x: MARGIN + 2, y: TOP - 3, class: "edge-label north" }, w.edge.north),
    el("svg:text", { x: MARGIN + 2, y: paceY(view.field.depth) + 14, class: "edge-label south" }, w.edge.south));
  if (ctx.chosen) drawReach(svg, view, ctx.chosen);
  drawFought(svg, view, w);
  drawPending(svg, view, w);
  const tops = layout(view);
  for (const g of onField) drawGroup(svg, view, g, tops[g.id], ctx, lang);
  drawEngagement(svg, view);  // over the blocks: groups in contact would hide it
  return svg;
}

// -- orders ----------------------------------------------------------------------------------------------
function pickableGroups(view, ctx) {
  if (view.phase !== "orders" || !ctx.seat) return [];
  return [...new Set(ctx.legal.filter((a) => a.type === "order").map((a) => a.group))];
}

function ordersPanel(view, ctx, lang) {
  const w = W[lang];
  const mine = Object.values(view.groups).filter((g) => g.side === ctx.seat && g.where === "field");
  const open = pickableGroups(view, ctx);
  if (!open.length) {
    const done = view.orders_done?.[ctx.seat === "north" ? "south" : "north"];
    return el("section", { class: "orders card", "aria-labelledby": "orders-title" },
      el("h2", { id: "orders-title" }, w.ordersTitle), el("p", { class: "orders-waiting" }, w.allGiven),
      done ? el("p", { class: "muted" }, w.othersDone) : null,
      orderList(view, mine, ctx, lang));
  }
  const g = ctx.chosen;
  const draft = draftOf(view, ctx);
  if (!g) return reviewPanel(view, ctx, lang, open, draft);
  const othersDone = otherSent(view, ctx, w);
  const buttons = ctx.legal.filter((a) => a.type === "order" && a.group === g.id).map((a) =>
    el("div", { class: "choice" },
      el("button", { type: "button", class: `order${a.order === "advance" ? " primary" : ""}`, "data-order": a.order,
        "aria-pressed": draft.orders[g.id] === a.order ? "true" : "false",
        title: orderHelp(w, g, a.order), onclick: () => choose(view, ctx, g, a.order) }, orderName(w, g, a.order)),
      el("p", { class: "muted" }, orderHelp(w, g, a.order))));
  return el("section", { class: "orders card", "aria-labelledby": "orders-title" },
    el("h2", { id: "orders-title" }, w.ordersTitle),
    el("p", {}, w.ordersPrompt), othersDone,
    orderList(view, mine, ctx, lang),
    el("h3", { class: "order-for", id: "order-for" }, `${groupName(view, g.id, lang)} · ${w.laneAt[g.lane]}`),
    el("p", { class: "nearest", id: "nearest-enemy" }, nearestEnemy(view, g, lang)),
    g.in_melee ? el("p", { class: "in-melee", id: "in-melee" }, w.inMelee) : null,
    el("div", { class: "choices", role: "group", "aria-labelledby": "order-for" }, ...buttons));
}

// Every group has its order: the turn's orders in sentences, each with a way back to it, and « Envoyer ».
function reviewPanel(view, ctx, lang, open, draft) {
  const w = W[lang];
  const mine = Object.values(view.groups).filter((g) => g.side === ctx.seat && g.where === "field");
  return el("section", { class: "orders review card", "aria-labelledby": "orders-title" },
    el("h2", { id: "orders-title" }, w.reviewTitle),
    el("p", {}, w.reviewPrompt), otherSent(view, ctx, w),
    el("ol", { class: "review-list" }, ...open.map((gid) => {
      const g = view.groups[gid];
      const name = groupName(view, gid, lang);
      return el("li", { "data-group": gid },
        el("span", { class: "review-sentence" }, w.review(name, w.laneAt[g.lane], draft.orders[gid], g)), " ",
        el("button", { type: "button", class: "change-order", "data-group": gid, disabled: sending ? true : null,
          "aria-label": w.changeOne(name), onclick: () => { selected[ctx.game.id] = gid; ctx.rerender(); } }, w.change));
    })),
    el("p", {}, el("button", { type: "button", id: "send-orders", class: "primary", disabled: sending ? true : null,
      onclick: () => sendOrders(view, ctx) }, sending ? w.sending : w.send)),
    mine.some((g) => g.order) ? orderList(view, mine.filter((g) => g.order), ctx, lang) : null);  // any sent before
}

// An order's name and help; a shift names the lane it leads to.
const orderName = (w, g, order) => (g.shifts?.[order] ? w.shift(g.shifts[order]) : w.orders[order]);
const orderHelp = (w, g, order) => (g.shifts?.[order] ? w.shiftHelp(g.shifts[order]) : w.orderHelp[order](g));
const lower = (s) => s[0].toLowerCase() + s.slice(1);

// The other general has sent all his orders (the view's ``orders_done``, not the orders): said to the one still
// giving his (issue 59).
function otherSent(view, ctx, w) {
  if (!view.orders_done?.[ctx.seat === "north" ? "south" : "north"]) return null;
  return el("p", { class: "other-decided", id: "other-decided" }, w.othersWaiting);
}

// The front enemy in the group's lane and how far it is: read from the view's positions.
function nearestEnemy(view, g, lang) {
  const w = W[lang];
  const ahead = g.side === "north" ? 1 : -1;
  const enemies = Object.values(view.groups).filter((o) => o.where === "field" && o.side !== g.side && o.lane === g.lane);
  if (!enemies.length) return w.noEnemy;
  const front = enemies.reduce((a, b) => (-ahead * a.pos > -ahead * b.pos ? a : b));
  return w.nearest(groupName(view, front.id, lang), Math.abs(front.pos - g.pos), front.reach);
}

function orderList(view, mine, ctx, lang) {
  const w = W[lang];
  return el("ul", { class: "order-list" }, ...mine.map((g) => {
    const drafted = drafts[ctx.game?.id]?.orders[g.id];
    const state = g.order ? w.given(lower(orderName(w, g, g.order))) : drafted ? w.drafted(lower(orderName(w, g, drafted))) : w.toGive;
    const chosen = ctx.chosen?.id === g.id;
    return el("li", {},
      el("button", { type: "button", class: `pick-group${chosen ? " chosen" : ""}`, "data-group": g.id,
        "aria-pressed": chosen ? "true" : "false", disabled: g.order || sending ? true : null,
        onclick: () => { selected[ctx.game.id] = g.id; ctx.rerender(); } },
      `${groupName(view, g.id, lang)} · ${w.laneAt[g.lane]} — ${state}`));
  }));
}

// -- the groups' figures -------------------------------------------------------------------------------------
function card(view, g, lang, pct) {
  const w = W[lang];
  const mod = g.morale_modifier ?? 0;
  const rows = [
    ["discipline", `${g.discipline} · ${w.chance(pct(g.discipline_chance))}`],
    ["morale", `${g.morale + mod} · ${w.chance(pct(g.morale_chance))}`],
    ["melee", String(g.melee)],
    ["missile", g.missile > 0 && g.range > 0 ? `${g.missile} · ${w.paces(g.range)}` : `0 (${w.noShot})`],
    ["move", w.perTurn(g.move)],
  ];
  const name = groupName(view, g.id, lang);
  return el("section", { class: `group ${g.side}`, "data-group": g.id, "aria-label": name },
    el("h3", {}, name),
    el("div", { class: "strength-bar", "aria-hidden": "true" }, el("span", { style: `width: ${(100 * Math.max(0, g.strength / g.initial)).toFixed(0)}%` })),
    el("p", { class: "strength", "data-strength": String(g.strength) },
      el("strong", {}, w.standing(g.strength, g.initial)), ` · ${g.where === "field" ? w.laneAt[g.lane] : w.where[g.where]}`),
    el("dl", {}, ...rows.flatMap(([k, v]) => [el("dt", {}, w.fields[k]), el("dd", {}, v)])));
}

// -- the turn's story ------------------------------------------------------------------------------------------
// Issue 59: « Envoyer les ordres » resolved the turn in one burst, the page jumped to the end of its chain of fights
// and what happened first was scrolled away in the journal. The turn is told at the top of the board, the orders
// and moves first, then each fight, one at a time (the journal's lines, cut where the server's marks say), until
// closed; its lane lit on the field. A turn of moves alone is told too (its one step): the page moves on to the next
// turn at once, and where each group went is the turn's news.
function turnStory(ctx, lang, rerender) {
  if (ctx.replaying || !ctx.journal?.length) return { box: null, lane: null };
  const story = storySince(ctx.journal, { start: "orders", step: "fight", end: "turn" });
  if (!story) return { box: null, lane: null };
  const w = W[lang];
  const key = `${story.version}:${story.from}`;
  const id = ctx.game?.id;
  if (stories[id]?.key !== key) stories[id] = { key, at: 0, shut: false, seen: false };
  const shown = stories[id];
  if (shown.shut) return { box: null, lane: null };
  shown.at = Math.min(shown.at, story.steps.length - 1);
  const lane = (step) => (step[0].mark?.kind === "fight" ? step[0].mark.lane : null);
  const box = storyBox({ title: w.storyTitle(story.steps[0][0].mark.turn), steps: story.steps, at: shown.at, lang,
    stepTitle: (step) => (lane(step) ? w.storyFight(w.laneAt[lane(step)]) : w.storyMoves),
    onStep: (at) => { shown.at = at; rerender(); },
    onClose: () => { shown.shut = true; rerender(); } });
  const first = !shown.seen;
  shown.seen = true;
  return { box, lane: lane(story.steps[shown.at]), fresh: first };
}

// -- the page ----------------------------------------------------------------------------------------------
// What the day still holds and how it is won, with the men each side has on the field now.
function dayNotes(view, w) {
  if (view.result) return [];
  const { storm, night } = view.field;
  const men = Object.fromEntries(SIDES.map((side) => [side, Object.values(view.groups)
    .filter((g) => g.side === side && g.where === "field").reduce((sum, g) => sum + g.strength, 0)]));
  const notes = [];
  if (storm === view.turn) notes.push(w.stormNow);
  notes.push(w.onField(men), w.nightAfter(night));
  if (storm && storm > view.turn) notes.push(w.stormAt(storm));
  return notes;
}

export function renderField(root, ctx, shared) {
  latest = [root, ctx, shared];
  const { view, seat } = ctx;
  const lang = ctx.lang === "en" ? "en" : "fr";
  const w = W[lang];
  const { T, pct, decisionChoices, otherDecided } = shared;
  const t = T[lang];
  const e = view.engagement;
  const inner = { ...ctx, rerender: () => renderField(root, ctx, shared), chosen: null };
  inner.chosen = chosenGroup(view, inner);
  const story = turnStory(ctx, lang, inner.rerender);
  inner.storyLane = story.lane;
  const choices = e ? decisionChoices(view, ctx, t, e.your_stance) : [];
  let status;
  let reason = null;
  if (view.result) {
    status = view.result.winner ? t.holds(t.theSide[view.result.winner]) : t.nobody;
    reason = `${w.reasons[view.result.reason] ?? ""} ${w.result(view.result.strength)}`;
  } else {
    const phase = view.phase === "orders" ? w.ordersPhase : t.phase[view.phase];
    status = `${w.turn(view.turn, view.field.night)} · ${phase}`;
  }
  const engagementLine = e ? (seat
    ? w.engagement(w.laneAt[e.lane], groupName(view, e[seat], lang), groupName(view, e[seat === "north" ? "south" : "north"], lang), e.distance)
    : w.engagementWatch(w.laneAt[e.lane], groupName(view, e.north, lang), groupName(view, e.south, lang), e.distance)) : null;
  const notes = dayNotes(view, w);
  const expected = Object.values(view.groups).filter((g) => g.where === "expected");
  const out = Object.values(view.groups).filter((g) => !["field", "expected"].includes(g.where));
  const onField = Object.values(view.groups).filter((g) => g.where === "field");
  const engaged = e ? [view.groups[e.north], view.groups[e.south]] : [];
  const first = inner.chosen ? [inner.chosen] : engaged;
  if (inner.chosen) notes.push(w.legend);
  const others = onField.filter((g) => !first.includes(g)).sort((a, b) => (a.side === seat ? -1 : 0) - (b.side === seat ? -1 : 0));
  const over = view.result || (!ctx.replaying && ctx.game?.outcome);  // by the rules, or at the table (cancelled)
  const orders = view.phase === "orders" && seat && !over ? ordersPanel(view, inner, lang) : null;
  const decision = choices.length ? el("section", { class: "decisions card", "aria-labelledby": "decision-title" },
    el("h2", { id: "decision-title" }, t.yourDecision),
    el("p", {}, t.prompt[view.phase] ?? ""), otherDecided(view, seat, t), el("div", { class: "choices" }, ...choices))
    : e && seat && !over ? el("p", { class: "muted" }, e.your_stance ? `${t.given(t.actions[e.your_stance])} ${t.waiting}` : w.decidingElsewhere) : null;
  const colon = lang === "fr" ? "\u00a0: " : ": ";
  root.replaceChildren(el("div", { class: "bataille field-battle" },
    el("p", { class: "battle-status", id: "battle-status" }, status),
    reason ? el("p", { class: "battle-reason" }, reason) : null,
    view.result && (view.result.sheltered.north || view.result.sheltered.south) ? el("p", { class: "muted" }, w.resultSheltered(view.result.sheltered)) : null,
    engagementLine ? el("p", { class: "engagement-line-text", id: "engagement-now" }, engagementLine) : null,
    story.box,
    el("div", { class: "field-layout" },
      fieldPicture(view, inner, lang),
      el("div", { class: "field-side" }, decision, orders,
        notes.length || expected.length ? el("ul", { class: "field-notes" }, ...notes.map((n) => el("li", {}, n)),
          ...(expected.length ? [el("li", {}, `${w.reinforcements}${colon}${expected.map((g) =>
            w.expected(groupName(view, g.id, lang), g.arrives, w.laneAt[g.lane])).join(" ")}`)] : [])) : null,
        first.length ? el("div", { class: "groups" }, ...first.map((g) => card(view, g, lang, pct))) : null,
        others.length ? el("details", { class: "other-groups" }, el("summary", {}, w.allGroups(others.length)),
          el("div", { class: "groups" }, ...others.map((g) => card(view, g, lang, pct)))) : null,
        out.length ? el("section", { class: "out-of-field" }, el("h3", {}, w.out),
          el("ul", {}, ...out.map((g) => el("li", { "data-group": g.id }, `${groupName(view, g.id, lang)} — ${w.where[g.where]}${g.strength ? `, ${w.men(g.strength)}` : ""}`)))) : null))));
  fitWords(root.querySelector("svg.field-map"));
  // a new story is brought on screen: the button that sent the orders may be far below it, on a phone
  if (story.fresh) root.querySelector(".turn-story")?.scrollIntoView({ block: "nearest" });
}

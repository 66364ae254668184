// Royaumes' view: the campaign map in SVG; for a kingdom, its figures, the order form (drawn on
// the map or pasted as text) and its turn reports; for Imhotep, the console that sees everything.
// Legal destinations, the reading of a text order and every ruling come from the server.

import { el, columnName, parseMapCell } from "/static/dom.js";

const CELL = 30;
const MARGIN = 24;

const T = {
  fr: {
    turn: (n) => `Tour ${n}`, deadline: "Échéance", noDeadline: "quand tous les royaumes ont envoyé",
    sent: "Ordres reçus", waitingFor: "En attente de", yours: "Vos chiffres", level: "Niveau militaire",
    population: "Population", guild: "Guilde des Constructeurs", defence: "Défense des cités",
    resources: "Ressources", known: "Niveaux ennemis connus", spiedOn: (t) => `espionné au tour ${t}`, unknown: "inconnu",
    relations: "Relations", war: "guerre", peace: "paix", ally: "alliance", suspended: "alliance suspendue",
    atWar: "en guerre", allied: "alliés",
    orders: "Ordres du tour", formTab: "Formulaire", textTab: "Message texte",
    pick: "Clique une de tes armées, puis une case voisine en surbrillance.",
    selected: (c, n) => `Armées en ${c} : ${n} peuvent partir.`, stay: "Reste sur place", unstay: "Ne reste plus",
    othersStay: "Toutes les autres restent", moves: "Mouvements", none: "aucun", remove: "Retirer",
    stances: "Guerre et paix", create: "Créer une armée à", noCreate: "ne pas créer d'armée",
    createNote: "Ce tour-ci : aucun bâtiment, aucune fête ; la nouvelle armée ne bouge qu'au tour suivant.",
    build: "Agrandir la Guilde des Constructeurs", spies: "Espions", spy: (k) => `Espion chez ${k}`,
    conquest: "Une cité prise sera", convert: "convertie", destroy: "détruite",
    tribute: "Tribut, si l'or manque, en", mostOf: "ce que j'ai le plus",
    review: "Relire avant d'envoyer", confirmTitle: "Voici l'ordre tel qu'il partira. Seul le premier message compte.",
    send: "Envoyer (définitif)", back: "Revenir", sentMine: "Vos ordres sont partis. Imhotep jugera le tour.",
    paste: "Colle ton message d'ordres (une ligne par ordre, par ex. « C4 -> D5 », « C7 reste », « guerre: Thèbes »).",
    read: "Lire le message", understood: "Compris", problem: "Non compris", fill: "Remplir le formulaire",
    lineOk: (n, text) => `ligne ${n} : ${text}`,
    reports: "Rapports des tours", before: "avant les mouvements", afterMoves: "après les mouvements",
    afterBattles: "après les batailles", now: "maintenant", mapOf: (t, s) => `Carte du tour ${t}, ${s}`,
    console: "Console d'Imhotep", kingdoms: "Royaumes", ordersOf: "Ordres reçus (contenu)", notYet: "pas encore",
    adjudicate: "Juger le tour maintenant", setDeadline: "Fixer l'échéance", clearDeadline: "Quand tous ont envoyé",
    suspend: "Suspendre l'alliance", restore: "Rétablir l'alliance", edit: "Modifier un royaume",
    override: "Trancher (avec raison)", reason: "Raison", apply: "Appliquer", end: "Clore la campagne",
    confirm: "Confirmer", cancel: "Annuler", sure: (what) => `Confirmer : ${what} ?`,
    armiesAt: "Armées (royaume, case, nombre)", cityFate: "Cité", owner: "possesseur", destroyed: "détruite",
    initial: "cité initiale", ended: "Campagne terminée.",
    resourceLabel: (r) => r,
  },
  en: {
    turn: (n) => `Turn ${n}`, deadline: "Deadline", noDeadline: "when every kingdom has sent",
    sent: "Orders in", waitingFor: "Waiting for", yours: "Your figures", level: "Military level",
    population: "Population", guild: "Builders' Guild", defence: "City defence",
    resources: "Resources", known: "Known enemy levels", spiedOn: (t) => `spied on turn ${t}`, unknown: "unknown",
    relations: "Relations", war: "war", peace: "peace", ally: "alliance", suspended: "suspended alliance",
    atWar: "at war", allied: "allied",
    orders: "This turn's orders", formTab: "Form", textTab: "Text message",
    pick: "Click one of your armies, then a highlighted neighbouring cell.",
    selected: (c, n) => `Armies at ${c}: ${n} may leave.`, stay: "Stays", unstay: "No longer stays",
    othersStay: "All others stay", moves: "Moves", none: "none", remove: "Remove",
    stances: "War and peace", create: "Raise an army at", noCreate: "raise no army",
    createNote: "This turn: no building, no feast; the new army moves only next turn.",
    build: "Enlarge the Builders' Guild", spies: "Spies", spy: (k) => `Spy in ${k}`,
    conquest: "A city taken will be", convert: "converted", destroy: "destroyed",
    tribute: "Tribute, if gold runs short, in", mostOf: "what I have most of",
    review: "Review before sending", confirmTitle: "This is the order as it will leave. Only the first message counts.",
    send: "Send (final)", back: "Back", sentMine: "Your orders are on their way. Imhotep will adjudicate the turn.",
    paste: "Paste your order message (one order per line, e.g. 'C4 -> D5', 'C7 stays', 'war: Thebes').",
    read: "Read the message", understood: "Understood", problem: "Not understood", fill: "Fill the form",
    lineOk: (n, text) => `line ${n}: ${text}`,
    reports: "Turn reports", before: "before moves", afterMoves: "after moves",
    afterBattles: "after battles", now: "now", mapOf: (t, s) => `Map of turn ${t}, ${s}`,
    console: "Imhotep's console", kingdoms: "Kingdoms", ordersOf: "Orders received (content)", notYet: "not yet",
    adjudicate: "Adjudicate the turn now", setDeadline: "Set the deadline", clearDeadline: "When all have sent",
    suspend: "Suspend the alliance", restore: "Restore the alliance", edit: "Edit a kingdom",
    override: "Overrule (with a reason)", reason: "Reason", apply: "Apply", end: "End the campaign",
    confirm: "Confirm", cancel: "Cancel", sure: (what) => `Confirm: ${what}?`,
    armiesAt: "Armies (kingdom, cell, count)", cityFate: "City", owner: "owner", destroyed: "destroyed",
    initial: "initial city", ended: "Campaign over.",
    resourceLabel: (r) => r,
  },
};

// -- state of the page between renders ----------------------------------------------------------
let draft = null;        // the order being written: {moves, stay, stances, create, build, spies, conquest, tribute}
let draftKey = null;     // game + seat + turn the draft belongs to
let selectedCell = null; // the own army cell picked on the map
let tab = "form";
let reviewing = false;
let pasted = "";
let reading = null;      // the server's reading of the pasted text
let readingLines = [];   // each line of it: understood or why not
let shown = null;        // {turn, stage} of a past map, or null for now
let asking = null;       // Imhotep's act waiting for confirmation: {label, action}


const centre = (name) => { const [x, y] = parseMapCell(name); return [MARGIN + x * CELL + CELL / 2, MARGIN + y * CELL + CELL / 2]; };

export function seatName(view, seat, lang) {
  if (seat === "imhotep") return "Imhotep";
  const kingdom = view.kingdoms.find((k) => k.id === seat);
  return kingdom ? kingdom.names[lang] ?? kingdom.names.fr : seat;
}

const nameOf = (view, id, lang) => seatName(view, id, lang);
const colourOf = (view, id) => view.kingdoms.find((k) => k.id === id)?.colour ?? "#777";

// -- the map --------------------------------------------------------------------------------------
function drawMap(view, layer, options) {
  const { width, height, rows } = view.map;
  const svg = el("svg:svg", { viewBox: `0 0 ${MARGIN * 2 + width * CELL} ${MARGIN * 2 + height * CELL}`, class: "campaign-map", role: "img" });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const name = `${columnName(x)}${y + 1}`;
      const classes = ["cell", rows[y][x] === "~" ? "water" : "land"];
      if (options.targets?.has(name)) classes.push("target");
      if (options.selected === name) classes.push("picked");
      svg.append(el("svg:rect", { x: MARGIN + x * CELL, y: MARGIN + y * CELL, width: CELL, height: CELL,
        class: classes.join(" "), "data-cell": name, onclick: () => options.onCell?.(name) }));
    }
  }
  for (let x = 0; x < width; x++) svg.append(el("svg:text", { x: MARGIN + x * CELL + CELL / 2, y: MARGIN - 8, class: "coord", "text-anchor": "middle" }, columnName(x)));
  for (let y = 0; y < height; y++) svg.append(el("svg:text", { x: MARGIN - 6, y: MARGIN + y * CELL + CELL / 2 + 4, class: "coord", "text-anchor": "end" }, String(y + 1)));
  const cityFacts = Object.fromEntries(view.cities.map((c) => [c.name, c]));
  for (const city of layer.cities) {
    const facts = cityFacts[city.name];
    const [cx, cy] = centre(facts.cell);
    const classes = ["city", city.destroyed ? "ruined" : "", facts.initial_of ? "initial" : "", options.relation?.(city.owner) ?? ""].join(" ");
    svg.append(el("svg:g", { class: classes, "data-city": city.name, onclick: () => options.onCell?.(facts.cell) },
      el("svg:rect", { x: cx - 10, y: cy - 10, width: 20, height: 20, rx: 3, fill: city.owner ? colourOf(view, city.owner) : "#aaa" }),
      facts.initial_of ? el("svg:rect", { x: cx - 7, y: cy - 7, width: 14, height: 14, rx: 2, class: "initial-mark" }) : null,
      el("svg:title", {}, `${city.name} (${city.destroyed ? "✕" : nameOf(view, city.owner, options.lang)})`)));
  }
  const byCell = {};
  for (const army of layer.armies) (byCell[army.cell] ??= []).push(army);
  for (const [cell, armies] of Object.entries(byCell)) {
    const [cx, cy] = centre(cell);
    armies.forEach((army, index) => {
      const dx = (index - (armies.length - 1) / 2) * 11;
      svg.append(el("svg:g", { class: `army${army.kingdom === options.seat ? " own" : ""}`, "data-army": `${army.kingdom}@${cell}`, onclick: () => options.onCell?.(cell) },
        el("svg:circle", { cx: cx + dx, cy: cy + 4, r: 8, fill: colourOf(view, army.kingdom) }),
        el("svg:text", { x: cx + dx, y: cy + 8, class: "army-count", "text-anchor": "middle" }, String(army.count))));
    });
  }
  for (const move of options.moves ?? []) {
    const [x1, y1] = centre(move.from);
    const [x2, y2] = centre(move.to);
    svg.append(el("svg:line", { x1, y1, x2: x1 + (x2 - x1) * 0.8, y2: y1 + (y2 - y1) * 0.8, class: "order-arrow" }));
    svg.append(el("svg:text", { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 4, class: "order-count", "text-anchor": "middle" }, String(move.count)));
  }
  return svg;
}

// -- the kingdom page -------------------------------------------------------------------------------
function freshDraft(view) {
  const you = view.you;
  const stances = Object.fromEntries(Object.entries(view.kingdoms.find((k) => k.id === you.kingdom).stances));
  return { moves: [], stay: new Set(), stances, create: "", build: false, spies: new Set(),
    conquest: you.conquest, tribute: you.tribute_resource ?? "" };
}

function orderAction(view, d) {
  const changed = (stance) => Object.keys(d.stances).filter((k) => d.stances[k] === stance);
  const action = { type: "orders", moves: d.moves.map((m) => ({ from: m.from, to: m.to, count: m.count })), stay: [...d.stay] };
  for (const [key, stance] of [["war", "war"], ["peace", "peace"], ["ally", "ally"]]) {
    const listed = changed(stance);
    if (listed.length) action[key] = listed;  // restating every relation, as the text asks
  }
  if (d.create) action.create = d.create;
  if (d.build) action.build = ["guild"];
  if (d.spies.size) action.spies = [...d.spies];
  if (d.conquest && d.conquest !== view.you.conquest) action.conquest = d.conquest;
  if (d.tribute) action.tribute = d.tribute;
  return action;
}

function orderLines(view, action, lang) {
  const t = T[lang];
  const lines = action.moves.map((m) => `${m.count > 1 ? `${m.count} x ` : ""}${m.from} -> ${m.to}`);
  for (const cell of action.stay) lines.push(lang === "en" ? `${cell} stays` : `${cell} reste`);
  for (const key of ["war", "peace", "ally"]) {
    if (action[key]) lines.push(`${t[key]}: ${action[key].map((k) => nameOf(view, k, lang)).join(", ")}`);
  }
  if (action.create) lines.push(`${t.create} ${action.create}`);
  if (action.build) lines.push(t.build);
  if (action.spies) lines.push(`${t.spies}: ${action.spies.map((k) => nameOf(view, k, lang)).join(", ")}`);
  if (action.conquest) lines.push(`${t.conquest} ${t[action.conquest]}`);
  if (action.tribute) lines.push(`${t.tribute} ${view.resources[action.tribute]?.[lang] ?? action.tribute}`);
  return lines;
}

function leaving(d, cell) {
  return d.moves.filter((m) => m.from === cell).reduce((sum, m) => sum + m.count, 0);
}

function kingdomPage(root, ctx) {
  const { view, lang } = ctx;
  const t = T[lang];
  const you = view.you;
  const key = `${ctx.game.id}:${ctx.seat}:${view.turn}`;
  if (draftKey !== key) {
    draft = freshDraft(view); draftKey = key; selectedCell = null; reviewing = false; reading = null; pasted = "";
  }
  const mine = Object.fromEntries(you.armies.map((a) => [a.cell, a]));
  const canSend = ctx.legal.some((a) => a.type === "orders");
  const targets = new Set();
  if (canSend && selectedCell && mine[selectedCell] && leaving(draft, selectedCell) < mine[selectedCell].mobile) {
    for (const cell of mine[selectedCell].destinations) targets.add(cell);
  }
  const onCell = (cell) => {
    if (!canSend || reviewing) return;
    if (targets.has(cell)) {
      const existing = draft.moves.find((m) => m.from === selectedCell && m.to === cell);
      if (existing) existing.count += 1; else draft.moves.push({ from: selectedCell, to: cell, count: 1 });
      draft.stay.delete(selectedCell);
      if (leaving(draft, selectedCell) >= mine[selectedCell].mobile) selectedCell = null;
    } else {
      selectedCell = mine[cell] ? cell : null;
    }
    kingdomPage(root, ctx);
  };
  const relation = (owner) => owner === you.kingdom ? "own" : view.alliances.some((p) => p.includes(owner) && p.includes(you.kingdom)) ? "allied" : view.wars.some((p) => p.includes(owner) && p.includes(you.kingdom)) ? "enemy" : "neutral";
  const layer = shownLayer(view);
  const map = drawMap(view, layer, { seat: you.kingdom, lang, targets: shown ? new Set() : targets, selected: shown ? null : selectedCell,
    moves: shown ? [] : draft.moves, onCell: shown ? null : onCell, relation });
  root.replaceChildren(el("div", { class: "royaumes" },
    el("div", { class: "map-wrap" }, status(view, lang), map, historyBar(root, ctx, () => kingdomPage(root, ctx))),
    el("div", { class: "side" }, figures(view, lang),
      canSend ? orderPanel(root, ctx, mine) : el("p", { class: "sent-note" }, you.orders ? t.sentMine : ""),
      you.orders ? el("pre", { class: "my-orders" }, orderLines(view, { type: "orders", ...jsonOf(you.orders) }, lang).join("\n")) : null,
      reports(ctx))));
}

function jsonOf(order) {  // the normalized order back in the JSON form, to show it
  const out = { moves: order.moves, stay: order.stay };
  for (const [kingdom, stance] of Object.entries(order.stances)) (out[stance] ??= []).push(kingdom);
  if (order.create) out.create = order.create;
  if (order.build.length) out.build = order.build;
  if (order.spies.length) out.spies = order.spies;
  if (order.conquest) out.conquest = order.conquest;
  if (order.tribute) out.tribute = order.tribute;
  return out;
}

function status(view, lang) {
  const t = T[lang];
  const sent = view.kingdoms.filter((k) => k.orders_in).map((k) => k.names[lang]);
  const waiting = view.kingdoms.filter((k) => !k.orders_in).map((k) => k.names[lang]);
  return el("div", { class: "campaign-status" },
    el("strong", {}, t.turn(view.turn)), " · ", `${t.deadline} : ${view.deadline ?? t.noDeadline}`,
    el("div", { class: "orders-in" }, `${t.sent} : ${sent.join(", ") || "—"}`,
      waiting.length ? ` · ${t.waitingFor} : ${waiting.join(", ")}` : ""),
    view.outcome ? el("p", { class: "winner" }, t.ended) : null);
}

function figures(view, lang) {
  const t = T[lang];
  const you = view.you;
  const resources = Object.entries(you.resources).map(([r, n]) => `${n} ${view.resources[r]?.[lang] ?? r}`).join(", ");
  const others = view.kingdoms.filter((k) => k.id !== you.kingdom);
  const own = view.kingdoms.find((k) => k.id === you.kingdom);
  return el("section", { class: "figures" },
    el("h3", {}, t.yours),
    el("dl", {},
      el("dt", {}, t.level), el("dd", { id: "own-level" }, String(you.military_level)),
      el("dt", {}, t.population), el("dd", {}, String(you.population)),
      el("dt", {}, t.guild), el("dd", {}, String(you.guild_level)),
      el("dt", {}, t.defence), el("dd", {}, `+${you.city_defence}`),
      el("dt", {}, t.resources), el("dd", {}, resources)),
    el("h3", {}, t.known),
    el("ul", { class: "known-levels" }, ...others.map((k) => {
      const known = you.intelligence[k.id];
      return el("li", {}, `${k.names[lang]} : `, known ? `${known.level} (${t.spiedOn(known.turn)})` : t.unknown);
    })),
    el("h3", {}, t.relations),
    el("ul", { class: "relations" }, ...others.map((k) => {
      const pair = (list) => list.some((p) => p.includes(k.id) && p.includes(you.kingdom));
      const state = pair(view.suspended) ? t.suspended : pair(view.alliances) ? t.allied : pair(view.wars) ? t.atWar : t.peace;
      return el("li", {}, `${k.names[lang]} : ${state} (${t[own.stances[k.id]]} / ${t[k.stances[you.kingdom]]})`);
    })));
}

function orderPanel(root, ctx, mine) {
  const { view, lang } = ctx;
  const t = T[lang];
  const redraw = () => kingdomPage(root, ctx);
  const tabs = el("div", { class: "tabs", role: "tablist" },
    el("button", { type: "button", role: "tab", "aria-selected": String(tab === "form"), id: "tab-form", onclick: () => { tab = "form"; redraw(); } }, t.formTab),
    el("button", { type: "button", role: "tab", "aria-selected": String(tab === "text"), id: "tab-text", onclick: () => { tab = "text"; redraw(); } }, t.textTab));
  if (reviewing) {
    const action = orderAction(view, draft);
    return el("section", { class: "orders review" }, el("h3", {}, t.orders), el("p", {}, t.confirmTitle),
      el("pre", { id: "review" }, orderLines(view, action, lang).join("\n") || t.none),
      el("button", { type: "button", id: "send", class: "primary", onclick: async () => { reviewing = false; await ctx.act(action, { independent: true }); } }, t.send),
      el("button", { type: "button", onclick: () => { reviewing = false; redraw(); } }, t.back));
  }
  const body = tab === "form" ? orderForm(root, ctx, mine) : textForm(root, ctx);
  return el("section", { class: "orders" }, el("h3", {}, t.orders), tabs, body,
    el("button", { type: "button", id: "review-orders", class: "primary", onclick: () => { reviewing = true; redraw(); } }, t.review));
}

function orderForm(root, ctx, mine) {
  const { view, lang } = ctx;
  const t = T[lang];
  const you = view.you;
  const redraw = () => kingdomPage(root, ctx);
  const select = (id, value, options, onchange) => {
    const node = el("select", { id, onchange: (event) => { onchange(event.target.value); redraw(); } },
      ...options.map(([v, label]) => el("option", { value: v }, label)));
    node.value = value;
    return node;
  };
  const others = view.kingdoms.filter((k) => k.id !== you.kingdom);
  const ownCities = view.cities.filter((c) => c.owner === you.kingdom && !c.destroyed);
  const cost = (what) => Object.entries(view.costs[what]).map(([r, n]) => `${n} ${view.resources[r]?.[lang] ?? r}`).join(", ");
  const picked = selectedCell && mine[selectedCell];
  return el("div", { class: "order-form" },
    el("p", { class: "hint" }, picked ? t.selected(selectedCell, picked.mobile - leaving(draft, selectedCell)) : t.pick),
    picked ? el("button", { type: "button", id: "stay", onclick: () => {
      if (draft.stay.has(selectedCell)) draft.stay.delete(selectedCell); else draft.stay.add(selectedCell);
      redraw();
    } }, draft.stay.has(selectedCell) ? t.unstay : t.stay) : null,
    el("button", { type: "button", id: "others-stay", onclick: () => {
      for (const cell of Object.keys(mine)) if (!leaving(draft, cell)) draft.stay.add(cell);
      redraw();
    } }, t.othersStay),
    el("h4", {}, t.moves),
    el("ul", { id: "draft-moves" }, draft.moves.length ? draft.moves.map((m, i) => el("li", {},
      `${m.count > 1 ? `${m.count} × ` : ""}${m.from} → ${m.to} `,
      el("button", { type: "button", onclick: () => { draft.moves.splice(i, 1); redraw(); } }, t.remove))) : el("li", {}, t.none)),
    draft.stay.size ? el("p", { id: "draft-stay" }, `${t.stay} : ${[...draft.stay].join(", ")}`) : null,
    el("h4", {}, t.stances),
    ...others.map((k) => el("label", { class: "stance" }, `${k.names[lang]} `,
      select(`stance-${k.id}`, draft.stances[k.id], [["war", t.war], ["peace", t.peace], ["ally", t.ally]], (v) => { draft.stances[k.id] = v; }))),
    el("h4", {}, t.create),
    select("create", draft.create, [["", t.noCreate], ...ownCities.map((c) => [c.name, `${c.name} (${c.cell}, ${cost("army")})`])], (v) => { draft.create = v; if (v) draft.build = false; }),
    draft.create ? el("p", { class: "note" }, t.createNote) : null,
    el("label", {}, el("input", { type: "checkbox", id: "build", checked: draft.build, disabled: Boolean(draft.create),
      onchange: (event) => { draft.build = event.target.checked; redraw(); } }), ` ${t.build} (${cost("guild")})`),
    el("h4", {}, t.spies),
    ...others.map((k) => el("label", { class: "spy" }, el("input", { type: "checkbox", id: `spy-${k.id}`, checked: draft.spies.has(k.id),
      onchange: (event) => { if (event.target.checked) draft.spies.add(k.id); else draft.spies.delete(k.id); redraw(); } }),
      ` ${t.spy(k.names[lang])} (${cost("spy")})`)),
    el("h4", {}, t.conquest),
    select("conquest", draft.conquest, [["convert", t.convert], ["destroy", t.destroy]], (v) => { draft.conquest = v; }),
    el("h4", {}, t.tribute),
    select("tribute", draft.tribute, [["", t.mostOf], ...Object.keys(view.resources).slice(1).map((r) => [r, view.resources[r][lang]])], (v) => { draft.tribute = v; }));
}

function textForm(root, ctx) {
  const { view, lang } = ctx;
  const t = T[lang];
  const redraw = () => kingdomPage(root, ctx);
  const area = el("textarea", { id: "order-text", rows: "8", cols: "40" });
  area.value = pasted;
  area.addEventListener("input", () => { pasted = area.value; });
  const result = reading ? el("div", { id: "reading" },
    el("ol", { class: "lines" }, ...readingLines.map((line) => el("li", { value: String(line.line), class: line.understood ? "ok" : "not" },
      `${line.understood ? "✓" : "✗"} « ${line.text} »${line.understood ? "" : ` — ${line[lang]}`}`))),
    el("h4", {}, t.understood),
    el("pre", {}, orderLines(view, { type: "orders", ...jsonOf(reading) }, lang).join("\n") || t.none),
    reading.problems.length ? el("h4", {}, t.problem) : null,
    el("ul", { class: "problems" }, ...reading.problems.map((p) => el("li", {}, t.lineOk(p.line, `« ${p.text} » — ${p[lang]}`)))),
    el("button", { type: "button", id: "fill", onclick: () => { fill(view, reading); tab = "form"; redraw(); } }, t.fill)) : null;
  return el("div", { class: "text-form" }, el("p", {}, t.paste), area,
    el("button", { type: "button", id: "read", onclick: async () => {
      try {
        const answer = await ctx.preview({ type: "orders", text: pasted });
        reading = answer.order;
        readingLines = answer.lines ?? [];
      } catch (error) {
        readingLines = [];
        reading = { moves: [], stay: [], stances: {}, create: null, build: [], spies: [], conquest: null, tribute: null,
          problems: [{ line: 0, text: "", fr: error.message, en: error.message }] };
      }
      redraw();
    } }, t.read), result);
}

function fill(view, order) {
  draft = freshDraft(view);
  draft.moves = order.moves.map((m) => ({ from: m.from, to: m.to, count: m.count }));
  draft.stay = new Set(order.stay);
  Object.assign(draft.stances, order.stances);
  draft.create = order.create ?? "";
  draft.build = order.build.length > 0 && !order.create;
  draft.spies = new Set(order.spies);
  if (order.conquest) draft.conquest = order.conquest;
  if (order.tribute) draft.tribute = order.tribute;
}

// -- past turns -------------------------------------------------------------------------------------
const STAGES = ["before_moves", "after_moves", "after_battles"];

function shownLayer(view) {
  if (!shown) return { armies: view.armies, cities: view.cities };
  const turn = view.history.find((h) => h.turn === shown.turn);
  return turn ? turn[shown.stage] : { armies: view.armies, cities: view.cities };
}

function historyBar(root, ctx, redraw) {
  const { view, lang } = ctx;
  const t = T[lang];
  if (!view.history.length) return null;
  const label = { before_moves: t.before, after_moves: t.afterMoves, after_battles: t.afterBattles };
  const buttons = [];
  for (const turn of view.history) {
    for (const stage of STAGES) {
      buttons.push(el("button", { type: "button", "data-turn": String(turn.turn), "data-stage": stage,
        "aria-pressed": String(shown?.turn === turn.turn && shown?.stage === stage),
        onclick: () => { shown = { turn: turn.turn, stage }; redraw(); } }, `${turn.turn} · ${label[stage]}`));
    }
  }
  buttons.push(el("button", { type: "button", id: "map-now", "aria-pressed": String(!shown), onclick: () => { shown = null; redraw(); } }, t.now));
  return el("div", { class: "history" }, shown ? el("p", { id: "shown-map" }, t.mapOf(shown.turn, label[shown.stage])) : null, ...buttons);
}

function reports(ctx) {
  const t = T[ctx.lang];
  const turns = [];
  for (const entry of ctx.journal ?? []) {
    if (/^— Imhotep (juge|adjudicates)/.test(entry.line)) turns.push({ title: entry.line.replace(/^— /, ""), lines: [] });
    else if (turns.length && !/^(Tour|Turn) \d+ :?/.test(entry.line)) turns[turns.length - 1].lines.push(entry.line);
  }
  if (!turns.length) return null;
  return el("section", { class: "reports" }, el("h3", {}, t.reports),
    ...turns.reverse().map((turn, index) => el("details", { open: index === 0 },
      el("summary", {}, turn.title), el("ul", {}, ...turn.lines.map((line) => el("li", {}, line))))));
}

// -- Imhotep's console ---------------------------------------------------------------------------------
function consolePage(root, ctx) {
  const { view, lang } = ctx;
  const t = T[lang];
  const redraw = () => consolePage(root, ctx);
  const ask = (label, action) => { asking = { label, action }; redraw(); };
  const layer = shownLayer(view);
  const confirmBox = asking ? el("div", { class: "confirm", role: "alertdialog" }, el("p", {}, t.sure(asking.label)),
    el("button", { type: "button", id: "confirm", class: "primary", onclick: async () => { const { action } = asking; asking = null; await ctx.act(action); } }, t.confirm),
    el("button", { type: "button", onclick: () => { asking = null; redraw(); } }, t.cancel)) : null;
  const rows = view.kingdoms.map((k) => {
    const secret = view.secrets[k.id];
    const resources = Object.entries(secret.resources).map(([r, n]) => `${n} ${view.resources[r]?.[lang] ?? r}`).join(", ");
    const orders = secret.orders ? orderLines(view, { type: "orders", ...jsonOf(secret.orders) }, lang).join(" · ") || "—" : t.notYet;
    return el("tr", { "data-kingdom": k.id }, el("th", {}, k.names[lang]), el("td", {}, String(secret.military_level)),
      el("td", {}, String(secret.population)), el("td", {}, String(secret.guild_level)), el("td", {}, resources),
      el("td", { class: "orders-cell" }, orders));
  });
  const kingdomSelect = (id) => el("select", { id }, ...view.kingdoms.map((k) => el("option", { value: k.id }, k.names[lang])));
  const value = (id) => root.querySelector(`#${id}`)?.value ?? "";
  const alliances = ctx.legal.filter((a) => a.type === "suspend_alliance" || a.type === "restore_alliance");
  root.replaceChildren(el("div", { class: "royaumes console" },
    el("div", { class: "map-wrap" }, status(view, lang), drawMap(view, layer, { seat: null, lang }), historyBar(root, ctx, redraw)),
    el("div", { class: "side" },
      el("h3", {}, t.console), confirmBox,
      el("table", { class: "secrets" }, el("thead", {}, el("tr", {}, el("th", {}, t.kingdoms), el("th", {}, t.level),
        el("th", {}, t.population), el("th", {}, t.guild), el("th", {}, t.resources), el("th", {}, t.ordersOf))), el("tbody", {}, ...rows)),
      el("button", { type: "button", id: "adjudicate", class: "primary", onclick: () => ask(t.adjudicate, { type: "adjudicate" }) }, t.adjudicate),
      el("div", { class: "deadline" }, el("input", { type: "datetime-local", id: "deadline-at" }),
        el("button", { type: "button", id: "set-deadline", onclick: () => {
          const at = value("deadline-at");
          if (at) ask(`${t.setDeadline} ${at}`, { type: "set_deadline", deadline: new Date(at).toISOString() });
        } }, t.setDeadline),
        el("button", { type: "button", id: "clear-deadline", onclick: () => ask(t.clearDeadline, { type: "set_deadline", deadline: null }) }, t.clearDeadline)),
      ...alliances.map((a) => el("button", { type: "button", class: "alliance", onclick: () => ask(`${a.type === "suspend_alliance" ? t.suspend : t.restore} ${a.kingdoms.map((k) => nameOf(view, k, lang)).join(" – ")}`, { ...a, reason: value("reason") }) },
        `${a.type === "suspend_alliance" ? t.suspend : t.restore} : ${a.kingdoms.map((k) => nameOf(view, k, lang)).join(" – ")}`)),
      el("h4", {}, t.edit),
      el("div", { class: "edit" }, kingdomSelect("edit-kingdom"),
        el("select", { id: "edit-field" }, ...[["military_level", t.level], ["population", t.population], ["guild_level", t.guild],
          ...Object.keys(view.resources).map((r) => [`resources.${r}`, view.resources[r][lang]])].map(([v, l]) => el("option", { value: v }, l))),
        el("input", { type: "number", min: "0", id: "edit-value" }),
        el("button", { type: "button", id: "edit-apply", onclick: () => {
          const field = value("edit-field");
          const amount = Number(value("edit-value"));
          const values = field.startsWith("resources.") ? { resources: { [field.slice(10)]: amount } } : { [field]: amount };
          ask(`${t.edit} ${nameOf(view, value("edit-kingdom"), lang)}`, { type: "edit", kingdom: value("edit-kingdom"), values, reason: value("reason") });
        } }, t.apply)),
      el("h4", {}, t.override),
      el("div", { class: "override" }, el("label", {}, `${t.reason} `, el("input", { id: "reason", size: "30" })),
        el("p", {}, t.armiesAt), kingdomSelect("override-kingdom"), el("input", { id: "override-cell", size: "5", placeholder: "C4" }),
        el("input", { type: "number", min: "0", id: "override-count", value: "0" }),
        el("button", { type: "button", id: "override-apply", onclick: () => ask(t.override, { type: "override", reason: value("reason"),
          armies: [{ kingdom: value("override-kingdom"), cell: value("override-cell").toUpperCase(), count: Number(value("override-count")) }] }) }, t.apply)),
      el("button", { type: "button", id: "end-campaign", onclick: () => ask(t.end, { type: "end_campaign", winner: null, reason: value("reason") }) }, t.end))));
}

// -- entry ---------------------------------------------------------------------------------------------
export function render(root, ctx) {
  if (ctx.seat === "imhotep") return consolePage(root, ctx);
  if (ctx.view.you) return kingdomPage(root, ctx);
  const t = T[ctx.lang];
  root.replaceChildren(el("div", { class: "royaumes" }, el("div", { class: "map-wrap" }, status(ctx.view, ctx.lang),
    drawMap(ctx.view, shownLayer(ctx.view), { seat: null, lang: ctx.lang }),
    historyBar(root, ctx, () => render(root, ctx))), el("div", { class: "side" }, el("h3", {}, t.reports))));
}

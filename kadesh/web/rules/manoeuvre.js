// Manœuvre's view: the 12×12 field in SVG, the deployment tray, and the controls.
// Every legal cell, target and odd comes from the server's legal actions and odds.

import { el } from "/static/dom.js";

const CELL = 40;
const MARGIN = 22;
const COLUMNS = "abcdefghijkl";

const T = {
  fr: {
    kinds: { general: "Général", chariot: "Char léger", blade: "Lame", bow: "Archer", skirmisher: "Tirailleur" },
    short: { general: "Gé", chariot: "Ch", blade: "La", bow: "Ar", skirmisher: "Ti" },
    sides: { north: "Nord", south: "Sud" },
    facings: { N: "nord", E: "est", S: "sud", W: "ouest" },
    tray: "Tes éléments à placer (clic ou glisser-déposer)",
    ready: "Prêt", undeploy: "Retirer", endTurn: "Fin du tour", resign: "Abandonner",
    confirmResign: "Abandonner la manœuvre ? L'adversaire l'emportera.", yes: "Oui, abandonner", no: "Non",
    moveTo: (cell) => `Aller en ${cell}, face :`, turn: "Tourner vers :", attack: "Attaquer", shoot: "Tirer",
    from: (cell) => `depuis ${cell}`, here: "sur place",
    odds: (o) => `détruit ${o.enemy_destroyed}/36 · recule ${o.enemy_recoils}/36 · égalité ${o.tie}/36 · tu recules ${o.own_recoils}/36 · tu es détruit ${o.own_destroyed}/36`,
    deployment: "Déploiement", battle: "Bataille", over: "Terminée",
    yourTurn: "À toi de jouer.", theirTurn: (s) => `Au ${s} de jouer.`, waiting: "En attente de l'adversaire.",
    readyState: (s, r) => `${s} : ${r ? "prêt" : "se déploie"}`,
    losses: (s, n, max) => `Pertes ${s} : ${n}/${max}`,
    winner: (s, reason) => `Victoire du ${s} (${reason === "break" ? "l'adversaire plie" : "abandon"}).`,
    engaged: (names) => `Engagé par ${names} : il ne peut que lui faire face, l'attaquer ou reculer droit devant la menace.`,
    selectHint: "Choisis un élément.", threatens: (c) => `Menace ${c}`, acted: "a déjà agi",
  },
  en: {
    kinds: { general: "General", chariot: "Light chariot", blade: "Blade", bow: "Bow", skirmisher: "Skirmisher" },
    short: { general: "Ge", chariot: "Ch", blade: "Bl", bow: "Bw", skirmisher: "Sk" },
    sides: { north: "North", south: "South" },
    facings: { N: "north", E: "east", S: "south", W: "west" },
    tray: "Your elements to place (click or drag and drop)",
    ready: "Ready", undeploy: "Take back", endTurn: "End turn", resign: "Resign",
    confirmResign: "Resign the manoeuvre? Your opponent will win.", yes: "Yes, resign", no: "No",
    moveTo: (cell) => `Move to ${cell}, facing:`, turn: "Turn to:", attack: "Attack", shoot: "Shoot",
    from: (cell) => `from ${cell}`, here: "in place",
    odds: (o) => `destroyed ${o.enemy_destroyed}/36 · recoils ${o.enemy_recoils}/36 · tie ${o.tie}/36 · you recoil ${o.own_recoils}/36 · you are destroyed ${o.own_destroyed}/36`,
    deployment: "Deployment", battle: "Battle", over: "Over",
    yourTurn: "Your turn.", theirTurn: (s) => `${s} to play.`, waiting: "Waiting for your opponent.",
    readyState: (s, r) => `${s}: ${r ? "ready" : "deploying"}`,
    losses: (s, n, max) => `${s} losses: ${n}/${max}`,
    winner: (s, reason) => `${s} wins (${reason === "break" ? "the enemy breaks" : "resignation"}).`,
    engaged: (names) => `Engaged by ${names}: it may only face it, attack it, or step straight back from it.`,
    selectHint: "Choose an element.", threatens: (c) => `Threatens ${c}`, acted: "has acted",
  },
};

const ARROW = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
let selected = null;     // id of the selected own element
let targetId = null;     // id of the selected enemy
let pendingMove = null;  // destination cell waiting for a facing
let confirming = false;
let lastVersion = null;


const xy = (cell) => [COLUMNS.indexOf(cell[0]), Number(cell.slice(1)) - 1];
const origin = (cell) => { const [x, y] = xy(cell); return [MARGIN + x * CELL, MARGIN + y * CELL]; };

export function render(root, ctx) {
  if (ctx.game.version !== lastVersion) {
    if (lastVersion !== null && !ctx.legal.some((a) => a.element === selected)) selected = null;
    const placed = ctx.view.elements.find((e) => e.id === selected && e.cell);
    if (ctx.view.phase === "deployment" && placed) {
      const next = ctx.view.elements.find((e) => e.side === ctx.seat && !e.cell);
      selected = next ? next.id : null;
    }
    targetId = null; pendingMove = null; confirming = false;
    lastVersion = ctx.game.version;
  }
  const t = T[ctx.lang];
  const view = ctx.view;
  const byId = Object.fromEntries(view.elements.map((e) => [e.id, e]));
  const mine = (a) => a.element === selected;
  const actionsOf = ctx.legal.filter(mine);
  const redraw = () => render(root, ctx);
  const name = (e) => `${t.kinds[e.kind]} ${e.cell ? e.cell : ""}`.trim();

  // Cells the selected element may use, from the legal actions only.
  const deployCells = new Set(actionsOf.filter((a) => a.type === "deploy").map((a) => a.cell));
  const moveCells = new Set(actionsOf.filter((a) => a.type === "move").map((a) => a.to));
  const attackOptions = actionsOf.filter((a) => a.type === "attack" || a.type === "shoot");
  const targets = new Set(attackOptions.map((a) => a.target));
  const selectedView = selected ? byId[selected] : null;

  function clickCell(cell) {
    if (deployCells.has(cell)) return ctx.act({ type: "deploy", element: selected, cell });
    if (moveCells.has(cell)) { pendingMove = cell; targetId = null; return redraw(); }
    const occupant = view.elements.find((e) => e.cell === cell);
    if (occupant) return clickElement(occupant);
  }
  function clickElement(e) {
    if (e.side === ctx.seat) {
      selected = selected === e.id ? null : e.id;
      targetId = null; pendingMove = null;
      return redraw();
    }
    if (targets.has(e.id)) { targetId = e.id; pendingMove = null; return redraw(); }
  }

  // -- the field ---------------------------------------------------------------------------------
  const size = MARGIN * 2 + CELL * 12;
  const svg = el("svg:svg", { viewBox: `0 0 ${size} ${size}`, class: "field", role: "grid", "aria-label": "12 × 12" });
  for (let i = 0; i < 12; i++) {
    const label = (x, y, text) => el("svg:text", { x, y, class: "coord", "text-anchor": "middle", "dominant-baseline": "middle" }, text);
    svg.append(label(MARGIN + i * CELL + CELL / 2, MARGIN / 2, COLUMNS[i]), label(MARGIN + i * CELL + CELL / 2, size - MARGIN / 2, COLUMNS[i]));
    svg.append(label(MARGIN / 2, MARGIN + i * CELL + CELL / 2, String(i + 1)), label(size - MARGIN / 2, MARGIN + i * CELL + CELL / 2, String(i + 1)));
  }
  const threatened = selectedView && selectedView.threatens;
  for (let y = 0; y < 12; y++) {
    for (let x = 0; x < 12; x++) {
      const cell = `${COLUMNS[x]}${y + 1}`;
      const classes = ["cell"];
      if (deployCells.has(cell)) classes.push("legal", "deploy");
      if (moveCells.has(cell)) classes.push("legal", "dest");
      if (cell === pendingMove) classes.push("pending");
      if (cell === threatened) classes.push("threat");
      const rect = el("svg:rect", {
        x: MARGIN + x * CELL, y: MARGIN + y * CELL, width: CELL, height: CELL, class: classes.join(" "),
        "data-cell": cell, onclick: () => clickCell(cell),
        tabindex: deployCells.has(cell) || moveCells.has(cell) ? 0 : null, role: "gridcell", "aria-label": cell,
        onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); clickCell(cell); } },
      });
      rect.addEventListener("dragover", (event) => { if (deployCells.has(cell) || dragAccepts(cell)) event.preventDefault(); });
      rect.addEventListener("drop", (event) => {
        event.preventDefault();
        const id = event.dataTransfer.getData("text/plain");
        if (ctx.legal.some((a) => a.type === "deploy" && a.element === id && a.cell === cell)) ctx.act({ type: "deploy", element: id, cell });
      });
      svg.append(rect);
    }
  }
  let dragging = null;
  const dragAccepts = (cell) => dragging && ctx.legal.some((a) => a.type === "deploy" && a.element === dragging && a.cell === cell);

  for (const e of view.elements) {
    if (!e.cell || !e.alive) continue;
    const [px, py] = origin(e.cell);
    const [dx, dy] = ARROW[e.facing];
    const cx = px + CELL / 2, cy = py + CELL / 2;
    const tip = [cx + dx * 17, cy + dy * 17];
    const base1 = [cx + dx * 10 - dy * 7, cy + dy * 10 + dx * 7];
    const base2 = [cx + dx * 10 + dy * 7, cy + dy * 10 - dx * 7];
    const classes = ["token", e.side, e.kind];
    if (e.id === selected) classes.push("selected");
    if (targets.has(e.id)) classes.push("target");
    if (e.id === targetId) classes.push("aimed");
    if (e.acted) classes.push("acted");
    if (e.engaged_by && e.engaged_by.length) classes.push("engaged");
    svg.append(el("svg:g", {
      class: classes.join(" "), "data-element": e.id, tabindex: e.side === ctx.seat || targets.has(e.id) ? 0 : null,
      role: "button", "aria-label": `${t.sides[e.side]} — ${name(e)} — ${t.facings[e.facing]}`,
      onclick: (event) => { event.stopPropagation(); clickElement(e); },
      onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); clickElement(e); } },
    },
      el("svg:rect", { x: px + 4, y: py + 4, width: CELL - 8, height: CELL - 8, rx: 6, class: "body" }),
      el("svg:polygon", { points: [tip, base1, base2].map((p) => p.join(",")).join(" "), class: "arrow" }),
      el("svg:text", { x: cx, y: cy + 1, "text-anchor": "middle", "dominant-baseline": "middle", class: "label" }, t.short[e.kind]),
    ));
  }

  // -- status ------------------------------------------------------------------------------------
  const status = el("div", { class: "status", "aria-live": "polite" });
  const phase = t[view.phase];
  const sideName = (s) => t.sides[s];
  status.append(el("strong", {}, phase), " · ");
  if (view.phase === "deployment") {
    status.append(["north", "south"].map((s) => t.readyState(sideName(s), view.ready[s])).join(" · "));
  } else if (view.phase === "battle") {
    status.append(view.active === ctx.seat ? t.yourTurn : t.theirTurn(sideName(view.active)));
  } else if (ctx.game.outcome) {
    status.append(el("span", { class: "winner" }, t.winner(sideName(ctx.game.outcome.winner), ctx.game.outcome.reason)));
  }
  status.append(el("br"), ["north", "south"].map((s) => t.losses(sideName(s), view.losses[s], view.break_losses)).join(" · "));

  // -- controls ----------------------------------------------------------------------------------
  const controls = el("div", { class: "controls" });
  const button = (label, action, attrs = {}) => el("button", { type: "button", onclick: () => ctx.act(action), ...attrs }, label);
  if (view.phase === "deployment" && ctx.seat) {
    const tray = view.elements.filter((e) => e.side === ctx.seat && !e.cell);
    if (tray.length) {
      controls.append(el("p", {}, t.tray), el("div", { class: "tray" }, tray.map((e) => el("button", {
        type: "button", draggable: "true", class: `piece ${e.side} ${e.kind}${e.id === selected ? " selected" : ""}`,
        "data-element": e.id, title: t.kinds[e.kind],
        onclick: () => { selected = e.id; redraw(); },
        ondragstart: (event) => { dragging = e.id; event.dataTransfer.setData("text/plain", e.id); event.dataTransfer.effectAllowed = "move"; },
        ondragend: () => { dragging = null; },
      }, t.short[e.kind], el("span", { class: "kind" }, t.kinds[e.kind])))));
    }
    if (actionsOf.some((a) => a.type === "undeploy")) controls.append(button(t.undeploy, { type: "undeploy", element: selected }));
  }
  if (selectedView && view.phase === "battle") {
    controls.append(el("p", { class: "selected-info" }, `${name(selectedView)} — ${t.threatens(selectedView.threatens || "—")}${selectedView.acted ? ` (${t.acted})` : ""}`));
    if (selectedView.engaged_by && selectedView.engaged_by.length) {
      controls.append(el("p", { class: "engaged-note" }, t.engaged(selectedView.engaged_by.map((id) => name(byId[id])).join(", "))));
    }
    if (pendingMove) {
      const facings = actionsOf.filter((a) => a.type === "move" && a.to === pendingMove);
      controls.append(el("div", { class: "facings move" }, el("span", {}, t.moveTo(pendingMove)),
        facings.map((a) => button(t.facings[a.facing], a, { "data-facing": a.facing }))));
    }
    const turns = actionsOf.filter((a) => a.type === "turn");
    if (turns.length) {
      controls.append(el("div", { class: "facings turn" }, el("span", {}, t.turn),
        turns.map((a) => button(t.facings[a.facing], a, { "data-facing": a.facing }))));
    }
    if (targetId) {
      const options = attackOptions.filter((a) => a.target === targetId);
      const box = el("div", { class: "attacks" }, el("p", {}, `→ ${name(byId[targetId])}`));
      for (const option of options) {
        const label = option.type === "shoot" ? t.shoot : `${t.attack} ${option.from ? t.from(option.from) : t.here}`;
        const line = el("div", { class: "attack-option" }, button(label, option, { "data-kind": option.type, "data-from": option.from || null }));
        const odds = el("span", { class: "odds" }, "…");
        line.append(" ", odds);
        box.append(line);
        ctx.odds(option).then((o) => { odds.textContent = o ? t.odds(o.effects) : ""; });
      }
      controls.append(box);
    }
  } else if (view.phase === "battle" && view.active === ctx.seat) {
    controls.append(el("p", {}, t.selectHint));
  }
  const bar = el("div", { class: "buttons" });
  if (ctx.legal.some((a) => a.type === "ready")) bar.append(button(t.ready, { type: "ready" }, { id: "ready" }));
  if (ctx.legal.some((a) => a.type === "end_turn")) bar.append(button(t.endTurn, { type: "end_turn" }, { id: "end-turn" }));
  if (ctx.legal.some((a) => a.type === "resign")) {
    if (confirming) {
      bar.append(el("span", { class: "confirm" }, t.confirmResign, " ",
        button(t.yes, { type: "resign" }, { id: "confirm-resign" }),
        el("button", { type: "button", onclick: () => { confirming = false; redraw(); } }, t.no)));
    } else {
      bar.append(el("button", { type: "button", id: "resign", onclick: () => { confirming = true; redraw(); } }, t.resign));
    }
  }
  controls.append(bar);
  root.dataset.version = String(ctx.game.version);
  root.replaceChildren(el("div", { class: "manoeuvre" }, el("div", { class: "field-wrap" }, svg), el("div", { class: "side" }, status, controls)));
}

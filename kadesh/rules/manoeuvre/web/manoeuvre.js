// Manœuvre's view: the 12×12 field (manoeuvre-field.js), and beside it (under it on a phone) what
// the player may do now, the chances of each fight, the losses of each side and what the other
// side just did. Every legal cell, target and odd comes from the server; the other side's last
// turn comes from the journal's marks (GET /journal → mark).

import { el, update } from "/static/dom.js";
import { drawField } from "/static/rules/manoeuvre-field.js";
import { T, named } from "/static/rules/manoeuvre-text.js";

const OTHER = { north: "south", south: "north" };
const OUTCOMES = ["enemy_destroyed", "enemy_recoils", "tie", "own_recoils", "own_destroyed"];

let selected = null;     // id of the selected own element
let targetId = null;     // id of the enemy aimed at
let inspected = null;    // id of an element looked at (not one's own to command)
let pendingMove = null;  // destination cell waiting for a facing
let confirming = false;
let notice = "";         // why the last cell or drop was refused, in words
let lastVersion = null;
let placing = false;     // the default placement is being sent
let latest = null;       // the last drawing's root and context, to draw again after the placement
let oddsOf = new Map();  // this version's odds of each fight option asked for (null while asked), by the option
const drag = { id: null };

// One click for the whole deployment (issue 44): the server suggests a legal placement of the elements not
// placed yet (the preview of « Je suis prêt »), and each of its deploy actions is sent as a click would.
async function placeByDefault(ctx) {
  placing = true;
  notice = "";
  render(latest.root, latest.ctx);
  try {
    const answer = await ctx.preview({ type: "ready" });
    for (const action of answer?.suggested ?? []) await ctx.act(action);
  } catch (error) {
    notice = error.message;
  } finally {
    placing = false;
    render(latest.root, latest.ctx);
  }
}

// The other side's last turn: the marks after one's own last action, in order, with their lines.
export function lastTurn(journal, seat, phase) {
  if (phase === "deployment") return { side: null, items: [] };
  const marked = journal.filter((entry) => entry.mark && entry.mark.side);
  if (!marked.length) return { side: null, items: [] };
  const side = seat ? OTHER[seat] : marked[marked.length - 1].mark.side;
  const items = [];
  let i = marked.length - 1;
  // The seat's own turn going on: what the other side did before it stays in sight until the seat ends its turn.
  if (seat && marked[i].mark.side === seat && marked[i].mark.kind !== "end_turn") {
    while (i >= 0 && marked[i].mark.side === seat) i--;
  }
  for (; i >= 0; i--) {
    const mark = marked[i].mark;
    if (mark.side !== side) break;
    if (mark.kind === "end_turn") {
      if (items.length) break;  // a spectator: the side's turn before this one is over
      continue;
    }
    items.unshift({ ...mark, line: marked[i].line, version: marked[i].version });
  }
  return { side, items };
}

function zoneText(t, zone) {
  const cells = [...zone];
  const cols = [...new Set(cells.map((c) => c[0]))].sort();
  const rows = [...new Set(cells.map((c) => Number(c.slice(1))))].sort((a, b) => a - b);
  return [t.colsTo(cols[0], cols[cols.length - 1]), rows.length === 2 ? t.rowsAnd(rows[0], rows[1]) : rows.join(", ")];
}

export function render(root, ctx) {
  latest = { root, ctx };
  if (ctx.game.version !== lastVersion) {
    const placed = ctx.view.elements.find((e) => e.id === selected && e.cell);
    if (ctx.view.phase === "deployment" && placed) {
      const next = ctx.view.elements.find((e) => e.side === ctx.seat && !e.cell);
      selected = next ? next.id : null;
    }
    targetId = null; pendingMove = null; confirming = false; notice = "";
    oddsOf = new Map();
    if (inspected && !ctx.view.elements.some((e) => e.id === inspected && e.alive && e.cell)) inspected = null;
    lastVersion = ctx.game.version;
  }
  // At every drawing, not only a new version's: a pushed board is drawn before its legal actions come.
  if (!ctx.legal.some((a) => a.element === selected)) selected = null;
  const focused = document.activeElement;
  const refocus = root.contains(focused) ? (focused.dataset?.element ? `[data-element="${focused.dataset.element}"]`
    : focused.dataset?.cell ? `[data-cell="${focused.dataset.cell}"]` : focused.id ? `#${focused.id}` : null) : null;

  const t = T[ctx.lang];
  const view = ctx.view;
  const seat = ctx.seat;
  const byId = Object.fromEntries(view.elements.map((e) => [e.id, e]));
  const kinds = view.kinds || {};
  const actionsOf = ctx.legal.filter((a) => a.element === selected);
  const redraw = () => render(root, ctx);
  const playing = !ctx.replaying && !ctx.game.outcome;  // a past board, or one over: nothing on it is to be played

  // From the legal actions only: the zone (every cell some element may be placed on), the
  // selected element's cells, moves and targets.
  const zone = new Set(ctx.legal.filter((a) => a.type === "deploy").map((a) => a.cell));
  if (zone.size) for (const e of view.elements) if (e.side === seat && e.cell) zone.add(e.cell);  // one's placed elements
  const deployCells = new Set(actionsOf.filter((a) => a.type === "deploy").map((a) => a.cell));
  const moveCells = new Set(actionsOf.filter((a) => a.type === "move").map((a) => a.to));
  const attackOptions = actionsOf.filter((a) => a.type === "attack" || a.type === "shoot");
  const targets = new Set(attackOptions.map((a) => a.target));
  const selectedView = selected ? byId[selected] : null;
  const looked = (inspected && byId[inspected]) || selectedView;

  // -- why a cell says no --------------------------------------------------------------------
  function whyNot(id, cell) {
    const element = byId[id];
    const occupant = view.elements.find((e) => e.alive && e.cell === cell && e.id !== id);
    if (view.phase === "deployment") {
      if (!ctx.legal.some((a) => a.type === "deploy")) return t.why.notReadyPhase;
      if (!zone.has(cell)) {
        const [cols, rows] = zoneText(t, zone);
        return t.why.outside(cols, rows);
      }
      if (occupant) return t.why.occupied(named(t, occupant, seat));
      return t.why.generic;
    }
    if (!element || element.side !== seat) return t.why.pickFirst;
    if (view.active !== seat) return t.why.notYourTurn;
    const name = named(t, element, seat, { cap: true });
    if (element.acted) return t.why.acted(name);
    if (element.engaged_by && element.engaged_by.length) return t.why.engaged(name);
    if (occupant) return t.why.occupiedBattle(named(t, occupant, seat));
    return t.why.tooFar(name, kinds[element.kind]?.move ?? 1);
  }
  function refuse(id, cell) { notice = whyNot(id, cell); targetId = null; pendingMove = null; redraw(); }

  function clickCell(cell) {
    if (deployCells.has(cell)) return ctx.act({ type: "deploy", element: selected, cell });
    if (moveCells.has(cell)) { pendingMove = cell; targetId = null; notice = ""; return redraw(); }
    const occupant = view.elements.find((e) => e.alive && e.cell === cell);
    if (occupant) return clickElement(occupant);
    if (selected) return refuse(selected, cell);
    if (playing && view.phase === "battle" && view.active === seat) { notice = t.why.pickFirst; redraw(); }
  }
  function clickElement(e) {
    notice = "";
    if (e.side === seat && ctx.legal.some((a) => a.element === e.id)) {
      selected = selected === e.id ? null : e.id;
      targetId = null; pendingMove = null; inspected = null;
      return redraw();
    }
    if (targets.has(e.id)) { targetId = e.id; pendingMove = null; inspected = null; return redraw(); }
    if (view.phase === "deployment" && selected && e.side === seat) return refuse(selected, e.cell);
    inspected = inspected === e.id ? null : e.id;  // anyone else: look at it
    redraw();
  }
  function drop(cell, id) {
    drag.id = null;
    if (ctx.legal.some((a) => a.type === "deploy" && a.element === id && a.cell === cell)) {
      return ctx.act({ type: "deploy", element: id, cell });
    }
    refuse(id, cell);
  }

  // An element's tooltip: what it is, its factors (from the view's data), facing, threats.
  function tooltip(e) {
    const k = kinds[e.kind];
    const parts = [t.token(t.ofSide[e.side], t.kinds[e.kind], e.cell, t.facings[e.facing])];
    if (k) parts.push(t.factors(k), t.moves(k.move) + (k.shoots ? `, ${t.shoots}` : ""));
    if (e.threatens) parts.push(t.threatens(e.threatens));
    if (e.engaged_by && e.engaged_by.length) {
      parts.push(t.threatenedBy(e.engaged_by.map((id) => named(t, byId[id], seat, { where: true })).join(", ")));
    }
    if (e.acted) parts.push(t.acted);
    return parts.join(" · ");
  }

  function kindTip(kind) {
    const k = kinds[kind];
    return [t.kinds[kind], ...(k ? [t.factors(k), t.moves(k.move) + (k.shoots ? `, ${t.shoots}` : "")] : [])].join(" · ");
  }

  const last = lastTurn(ctx.journal || [], seat, view.phase);
  const svg = drawField({
    view, seat, t, zone: seat ? zone : new Set(), legalCells: deployCells, destCells: moveCells, pending: pendingMove,
    threatCell: looked && looked.alive ? looked.threatens : null, selected, targets, aimed: targetId, inspected,
    marks: last.items, drag, tooltip, onCell: clickCell, onElement: clickElement, onDrop: drop,
  });
  const noticeBox = el("p", { class: "notice", role: "status", "aria-live": "polite" }, notice);

  // -- status ------------------------------------------------------------------------------------
  const status = el("div", { class: "status" });
  const sideName = (s) => t.sides[s];
  status.append(el("strong", {}, t[view.phase]));
  const outcome = ctx.replaying ? null : ctx.game.outcome;
  if (outcome && !outcome.winner) {  // a game cancelled before it began
    status.append(" · ", el("span", { class: "winner" }, t.noWinner));
  } else if (view.phase === "deployment") {
    status.append(" · ", ["north", "south"].map((s) => t.readyState(sideName(s), view.ready[s])).join(" · "));
  } else if (view.phase === "battle") {
    status.append(` (${t.turnNumber(Math.ceil(view.turn / 2))}) · `,
      el("span", { class: view.active === seat ? "your-turn" : "" },
        view.active === seat ? t.yourTurn : t.theirTurn(sideName(view.active))));
  } else if (ctx.game.outcome) {
    status.append(" · ", el("span", { class: "winner" }, t.winner(sideName(ctx.game.outcome.winner), ctx.game.outcome.reason)));
  }

  // -- controls ----------------------------------------------------------------------------------
  const controls = el("div", { class: "controls" });
  const button = (label, action, attrs = {}) => el("button", { type: "button", onclick: () => ctx.act(action), ...attrs }, label);
  if (view.phase === "deployment" && seat && playing) {
    const tray = view.elements.filter((e) => e.side === seat && !e.cell);
    const deploying = ctx.legal.some((a) => a.type === "deploy");
    if (tray.length) {
      const some = tray.length < view.elements.filter((e) => e.side === seat).length;
      controls.append(el("h3", {}, t.tray), el("p", { class: "hint" }, t.trayHint),
        ...(deploying ? [el("div", { class: "default-placement" },
          el("button", { type: "button", id: "default-placement", class: "primary", disabled: placing ? true : null,
            "aria-describedby": "default-placement-hint", onclick: () => placeByDefault(ctx) },
          placing ? t.placing : some ? t.placeRest : t.placeAll),
          el("p", { class: "hint", id: "default-placement-hint" }, t.placeHint))] : []),
        el("div", { class: "tray" }, tray.map((e) => el("button", {
          type: "button", draggable: "true", class: `piece ${e.side} ${e.kind}${e.id === selected ? " selected" : ""}`,
          "data-element": e.id, title: kindTip(e.kind),
          "aria-pressed": e.id === selected ? "true" : "false",
          onclick: () => { selected = e.id; notice = ""; redraw(); },
          ondragstart: (event) => { drag.id = e.id; event.dataTransfer.setData("text/plain", e.id); event.dataTransfer.effectAllowed = "move"; },
          ondragend: () => { drag.id = null; },
        }, el("span", { class: "short", "aria-hidden": "true" }, t.short[e.kind]), el("span", { class: "kind" }, t.kinds[e.kind])))));
    } else if (deploying) {
      controls.append(el("p", { class: "hint" }, t.allPlaced));
    } else {
      controls.append(el("p", { class: "hint" }, t.readyDone));
    }
    if (actionsOf.some((a) => a.type === "undeploy")) controls.append(button(t.undeploy, { type: "undeploy", element: selected }, { id: "undeploy" }));
  }
  if (looked && view.phase === "battle") {
    const mine = looked.id === selected;
    const info = el("div", { class: `selected-info card ${looked.side}` },
      el("p", { class: "who" }, named(t, looked, seat, { cap: true, where: true })),
      el("p", { class: "muted" }, tooltip(looked).split(" · ").slice(1).join(" · ")));
    controls.append(info);
    if (looked.engaged_by && looked.engaged_by.length && mine) {
      controls.append(el("p", { class: "engaged-note" }, t.engaged(looked.engaged_by.map((id) => named(t, byId[id], seat, { where: true })).join(", "))));
    }
  }
  if (selectedView && view.phase === "battle") {
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
      const box = el("div", { class: "attacks" }, el("p", { class: "against" }, t.against(named(t, byId[targetId], seat, { where: true }))));
      for (const option of options) {
        const label = option.type === "shoot" ? t.shoot : `${t.attack} ${option.from ? t.from(option.from) : t.here}`;
        box.append(el("div", { class: "attack-option" },
          button(label, option, { "data-kind": option.type, "data-from": option.from || null, class: "primary" }),
          oddsBox(t, ctx, option)));
      }
      controls.append(box);
    }
  } else if (playing && view.phase === "battle" && view.active === seat && !looked) {
    controls.append(el("p", { class: "hint" }, t.selectHint));
  }
  const bar = el("div", { class: "buttons" });
  if (ctx.legal.some((a) => a.type === "ready")) bar.append(button(t.ready, { type: "ready" }, { id: "ready", class: "primary" }));
  if (ctx.legal.some((a) => a.type === "end_turn")) bar.append(button(t.endTurn, { type: "end_turn" }, { id: "end-turn", class: "primary" }));
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

  // -- what the other side just did, and the losses ----------------------------------------------
  const extras = [];
  if (last.side && view.phase !== "deployment" && (last.items.length || !ctx.game.outcome)) {
    extras.push(el("section", { class: "last-turn", "data-side": last.side, "aria-label": t.lastTurn(sideName(last.side)) },
      el("h3", {}, t.lastTurn(sideName(last.side))),
      last.items.length ? el("ol", {}, last.items.map((item) => el("li", { class: item.side, title: item.line }, summary(t, item, byId, seat))))
        : el("p", { class: "muted" }, t.lastTurnNone(sideName(last.side))),
      last.items.length && ctx.replay && seat ? el("button", { type: "button", class: "replay-turn",
        onclick: () => ctx.replay(last.items[0].version - 1) }, t.replayTurn) : null));
  }
  if (view.phase !== "deployment") extras.push(lossesBox(t, view, seat));

  const drawing = el("div", { class: "manoeuvre" },
    el("div", { class: "field-wrap" }, svg, noticeBox),
    el("div", { class: "side" }, status, controls, ...extras));
  // Laid over the board shown: a click or a move changes a few cells and tokens, and only they are drawn again.
  if (root.childNodes.length === 1 && root.firstChild.matches(".manoeuvre")) update(root.firstChild, drawing);
  else root.replaceChildren(drawing);
  if (refocus) root.querySelector(refocus)?.focus();
}

// A fight option's chances, asked for once a version; the board is drawn again when they come.
function oddsBox(t, ctx, option) {
  const key = JSON.stringify(option);
  if (!oddsOf.has(key)) {
    const asked = oddsOf.set(key, null);
    ctx.odds(option).then((odds) => {
      if (oddsOf !== asked) return;  // a newer version's board
      oddsOf.set(key, odds ?? false);
      render(latest.root, latest.ctx);
    });
  }
  const odds = oddsOf.get(key);
  return el("div", { class: "odds" }, odds === null ? "…" : odds ? oddsTable(t, odds, ctx.lang) : []);
}

// One line of the other side's last turn, short (the journal's full line is its tooltip).
function summary(t, mark, byId, seat) {
  const name = (id, cap = false) => (byId[id] ? named(t, byId[id], seat, { cap }) : "");
  if (mark.kind === "move") return t.moved(name(mark.element, true), mark.from, mark.to, mark.charge);
  if (mark.kind === "turn") return t.turned(name(mark.element, true), mark.cell, t.facingTo[mark.facing]);
  const result = t.outcome[mark.result]?.(name(mark.loser)) ?? "";
  return t.fought(name(mark.attacker, true), mark.mode === "shot", name(mark.defender), result);
}

// The chances of a fight, from the server's exact odds, as a bar and a small table in percent.
function oddsTable(t, o, lang) {
  const total = o.total || Object.values(o.effects).reduce((a, b) => a + b, 0);
  const shown = OUTCOMES.filter((key) => o.effects[key]);
  const bar = el("div", { class: "odds-bar", "aria-hidden": "true" },
    shown.map((key) => el("span", { class: `seg ${key}`, style: `width: ${(100 * o.effects[key]) / total}%` })));
  const table = el("table", { class: "odds-table" }, el("caption", { class: "visually-hidden" }, t.oddsTitle),
    el("tbody", {}, shown.map((key) => el("tr", { class: key },
      el("th", { scope: "row" }, el("span", { class: `swatch ${key}`, "aria-hidden": "true" }), t.outcomes[key]),
      el("td", {}, t.percent(o.effects[key], total, lang))))));
  return [bar, table];
}

// Each side's destroyed elements, kept in sight: "Pertes".
function lossesBox(t, view, seat) {
  const box = el("section", { class: "losses", "aria-label": t.lost }, el("h3", {}, t.lost));
  for (const side of ["north", "south"]) {
    const gone = view.elements.filter((e) => e.side === side && !e.alive);
    box.append(el("div", { class: `lost ${side}`, "data-side": side },
      el("p", {}, t.lostOf(t.sides[side], view.losses[side], view.break_losses)),
      el("div", { class: "lost-tray" }, gone.length ? gone.map((e) => el("span", {
        class: `lost-piece ${e.side} ${e.kind}`, "data-element": e.id, title: named(t, e, seat, { cap: true }),
      }, el("span", { "aria-hidden": "true" }, t.short[e.kind]), el("span", { class: "visually-hidden" }, named(t, e, seat))))
        : el("span", { class: "muted" }, t.noLoss))));
  }
  if (view.elements.some((e) => !e.alive && e.kind === "general")) box.append(el("p", { class: "muted" }, t.generalDouble));
  return box;
}

// Royaumes' view: the campaign map in SVG with its legend; for a kingdom, its figures, the order
// form (drawn on the map or pasted as text) and its turn reports; for Imhotep, the console that
// sees everything; for a spectator, the map and the public reports.
// Legal destinations, the reading of a text order and every ruling come from the server.
// The modules: royaumes-text (words), -map (the map, legend), -orders (a kingdom's message),
// -console (Imhotep), -report (past turns' maps and reports).

import { el } from "/static/dom.js";
import { T, seatName, stuff, when, fromNow } from "/static/rules/royaumes-text.js";
import { drawMap, legend } from "/static/rules/royaumes-map.js";
import { historyBar, reports, shownLayer, showingPast, shownLabel } from "/static/rules/royaumes-report.js";
import * as orders from "/static/rules/royaumes-orders.js";
import { consolePanel } from "/static/rules/royaumes-console.js";

export { seatName };

// For the page shell: this view sets each turn's report out by topic from the journal's lines,
// so the shell's journal panel is the full record, not the place to read a turn.
export const reportsJournal = true;
// Every kingdom writes its orders at once: the table's clock is a time per turn, whose deadline the status tells.
export const turnsAtOnce = true;

// The turn's deadline: Imhotep's; in a campaign Kadesh referees with a time per turn, the table's (the kingdom's
// own, else the first), when the computer writes a late kingdom's orders; none: the turn waits for every kingdom.
function turnDeadline(view, game, seat) {
  if (view.deadline) return view.deadline;
  const dues = game?.table?.deadlines ?? {};
  return dues[seat] ?? Object.values(dues).sort()[0] ?? null;
}

function status(view, lang, game, seat) {
  const t = T[lang];
  const sent = view.kingdoms.filter((k) => k.orders_in).map((k) => k.names[lang]);
  const waiting = view.kingdoms.filter((k) => !k.orders_in).map((k) => k.names[lang]);
  const due = turnDeadline(view, game, seat);
  const deadline = due
    ? el("time", { datetime: due, id: "deadline", title: when(due, lang) }, `${when(due, lang)} (${fromNow(due, lang)})`)
    : el("span", { id: "deadline" }, t.noDeadline);
  return el("div", { class: "campaign-status" },
    el("p", { class: "map-name" }, view.scenario.names[lang] ?? view.scenario.names.fr),
    el("p", {}, el("strong", {}, t.turn(view.turn)), ...(view.over ? [] : [" · ", `${t.deadline}${t.sep}`, deadline])),
    view.over ? null : el("p", { class: "orders-in" }, `${t.sent}${t.sep}${sent.join(", ") || "—"}`,
      waiting.length ? ` · ${t.waitingFor}${t.sep}${waiting.join(", ")}` : ""),
    view.over ? el("p", { class: "winner" }, t.ended) : null);
}

function relationOf(view, you, other, lang) {
  const t = T[lang].rel;
  const pair = (list) => list.some((p) => p.includes(other.id) && p.includes(you));
  const mine = view.kingdoms.find((k) => k.id === you).stances[other.id];
  const theirs = other.stances[you];
  if (pair(view.suspended)) return t.suspended;
  if (pair(view.alliances)) return t.allied;
  if (pair(view.wars)) return mine === "war" && theirs === "war" ? t.warBoth : mine === "war" ? t.warMine : t.warTheirs(other.names[lang]);
  if (mine === "ally") return t.offerMine;
  if (theirs === "ally") return t.offerTheirs(other.names[lang]);
  return t.peace;
}

function figures(view, lang) {
  const t = T[lang];
  const you = view.you;
  const others = view.kingdoms.filter((k) => k.id !== you.kingdom);
  return el("section", { class: "figures" },
    el("h2", {}, t.yours),
    el("dl", {},
      el("dt", {}, t.level), el("dd", { id: "own-level" }, String(you.military_level)),
      el("dt", {}, t.population), el("dd", {}, String(you.population)),
      el("dt", {}, t.guild), el("dd", {}, String(you.guild_level)),
      el("dt", {}, t.defence), el("dd", {}, `+${you.city_defence}`),
      el("dt", {}, t.resources), el("dd", { id: "own-resources" }, stuff(view, you.resources, lang))),
    el("h3", {}, t.relations),
    el("ul", { class: "relations" }, ...others.map((k) => el("li", { "data-kingdom": k.id },
      el("span", { class: "swatch-dot", style: `background:${k.colour}`, "aria-hidden": "true" }), `${k.names[lang]}${t.sep}${relationOf(view, you.kingdom, k, lang)}`))),
    el("h3", {}, t.known),
    el("ul", { class: "known-levels" }, ...others.map((k) => {
      const known = you.intelligence[k.id];
      return el("li", {}, `${k.names[lang]}${t.sep}`, known ? `${known.level} (${t.spiedOn(known.turn)})` : t.unknown);
    })));
}

function mapColumn(ctx, map, redraw, legendOptions) {
  return el("div", { class: "map-wrap" }, status(ctx.view, ctx.lang, ctx.game, ctx.seat), map, historyBar(ctx, redraw),
    legend(ctx.view, ctx.lang, legendOptions));
}

function kingdomPage(root, ctx) {
  const { view, lang } = ctx;
  const t = T[lang];
  const you = view.you;
  const redraw = () => kingdomPage(root, ctx);
  orders.prepare(ctx);
  const mine = Object.fromEntries(you.armies.map((a) => [a.cell, a]));
  const canSend = ctx.legal.some((a) => a.type === "orders");
  const past = showingPast();
  const relation = (owner) => owner === you.kingdom ? "own"
    : view.alliances.some((p) => p.includes(owner) && p.includes(you.kingdom)) ? "allied"
      : view.wars.some((p) => p.includes(owner) && p.includes(you.kingdom)) ? "enemy" : "neutral";
  const live = canSend && !past;
  const map = drawMap(view, shownLayer(view), { seat: you.kingdom, lang, relation, past, label: shownLabel(lang),
    targets: live ? orders.targets(mine) : null, selected: live ? orders.picked() : null, moves: live ? orders.draftMoves() : [],
    onCell: live ? (cell) => { orders.clickCell(mine, cell); redraw(); } : null,
    mobile: (cell) => orders.mobileLeft(mine, cell) });
  const sent = you.orders ? el("section", { class: "orders sent" }, el("h2", {}, t.yourOrders),
    el("p", { class: "sent-note" }, t.sentMine),
    el("pre", { class: "my-orders" }, orders.orderLines(view, { type: "orders", ...orders.jsonOf(you.orders) }, lang).join("\n") || t.none)) : null;
  root.replaceChildren(el("div", { class: "royaumes" },
    mapColumn(ctx, map, redraw, { seat: you.kingdom, ordering: canSend }),
    el("div", { class: "side" },
      canSend ? orders.councilBox(ctx, redraw) : null,
      canSend ? orders.orderPanel(ctx, mine, redraw) : sent,
      reports(ctx), figures(view, lang))));
}

function consolePage(root, ctx) {
  const redraw = () => consolePage(root, ctx);
  const map = drawMap(ctx.view, shownLayer(ctx.view), { seat: null, lang: ctx.lang, past: showingPast(), label: shownLabel(ctx.lang) });
  root.replaceChildren(el("div", { class: "royaumes console" }, mapColumn(ctx, map, redraw, {}),
    consolePanel(root, ctx, redraw), el("div", { class: "console-reports" }, reports(ctx))));
}

function spectatorPage(root, ctx) {
  const redraw = () => spectatorPage(root, ctx);
  const map = drawMap(ctx.view, shownLayer(ctx.view), { seat: null, lang: ctx.lang, past: showingPast(), label: shownLabel(ctx.lang) });
  root.replaceChildren(el("div", { class: "royaumes" }, mapColumn(ctx, map, redraw, {}),
    el("div", { class: "side" }, el("p", { class: "muted" }, T[ctx.lang].spectator), reports(ctx))));
}

export function render(root, ctx) {
  if (ctx.seat === "imhotep") return consolePage(root, ctx);
  if (ctx.view.you) return kingdomPage(root, ctx);
  return spectatorPage(root, ctx);
}

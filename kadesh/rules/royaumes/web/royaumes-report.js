// Royaumes' past turns: the map of a past turn stepped through (before moves, after moves, after
// battles), and each turn's report set out by topic. The report is the readable version of the
// adjudication; the journal panel beside it keeps every line, in order, for the record.

import { el } from "/static/dom.js";
import { T } from "/static/rules/royaumes-text.js";

const STAGES = ["before_moves", "after_moves", "after_battles"];
const TOPICS = ["relations", "economy", "moves", "battles", "cities", "tribute", "imhotep", "other"];

let shown = null;  // {turn, stage} of the past map shown, or null for now

export function shownLayer(view) {
  if (!shown) return { armies: view.armies, cities: view.cities };
  const turn = view.history.find((h) => h.turn === shown.turn);
  return turn ? turn[shown.stage] : { armies: view.armies, cities: view.cities };
}

export const showingPast = () => shown !== null;

// The map's name while a past stage is shown: "Carte de la campagne, tour 1 … (après les batailles)".
export function shownLabel(lang) {
  if (!shown) return null;
  const t = T[lang];
  const stageName = { before_moves: t.before, after_moves: t.afterMoves, after_battles: t.afterBattles };
  return `${t.mapLabel(shown.turn)} (${stageName[shown.stage]})`;
}

// One line, whatever the number of turns: ◀ Tour 1 · après les batailles ▶ Maintenant.
export function historyBar(ctx, redraw) {
  const { view, lang } = ctx;
  const t = T[lang];
  if (!view.history?.length) return null;
  const steps = view.history.flatMap((h) => STAGES.map((stage) => ({ turn: h.turn, stage })));
  const at = shown ? steps.findIndex((s) => s.turn === shown.turn && s.stage === shown.stage) : steps.length;
  const go = (index) => { shown = index >= steps.length ? null : steps[Math.max(0, index)]; redraw(); };
  const stageName = { before_moves: t.before, after_moves: t.afterMoves, after_battles: t.afterBattles };
  const label = shown ? t.stepOf(shown.turn, stageName[shown.stage]) : t.nowTurn(view.turn);
  return el("nav", { class: "history", "aria-label": t.history },
    el("button", { type: "button", id: "history-back", "aria-label": t.previous, title: t.previous, disabled: at === 0,
      onclick: () => go(at - 1) }, "◀"),
    el("span", { id: "shown-map", "aria-live": "polite", "data-turn": shown ? String(shown.turn) : "", "data-stage": shown?.stage ?? "",
      class: shown ? "past" : "" }, label),
    el("button", { type: "button", id: "history-forward", "aria-label": t.next, title: t.next, disabled: !shown,
      onclick: () => go(at + 1) }, "▶"),
    el("button", { type: "button", id: "map-now", disabled: !shown, onclick: () => go(steps.length) }, t.now));
}

// Each adjudicated turn's lines, by topic; the newest turn open.
export function reports(ctx) {
  const t = T[ctx.lang];
  const turns = new Map();
  const missed = new Set();  // the turns judged without this kingdom's orders
  for (const entry of ctx.journal ?? []) {
    // Every judged turn has its report, even one where nothing happened (« Rien ne s'est passé ce tour-ci »).
    if (entry.mark?.topic === "adjudication" && !turns.has(entry.mark.turn)) turns.set(entry.mark.turn, new Map());
    if (entry.mark?.missed) missed.add(entry.mark.turn);
    if (!entry.mark?.report) continue;
    const turn = turns.get(entry.mark.turn) ?? new Map();
    turns.set(entry.mark.turn, turn);
    const topic = TOPICS.includes(entry.mark.topic) ? entry.mark.topic : "other";
    (turn.get(topic) ?? turn.set(topic, []).get(topic)).push(entry.line.trim());
  }
  if (!turns.size) return null;
  const newest = Math.max(...turns.keys());
  return el("section", { class: "reports", "aria-labelledby": "reports-title" }, el("h2", { id: "reports-title" }, t.reports),
    ...[...turns.entries()].sort((a, b) => b[0] - a[0]).map(([turn, topics]) => {
      const details = el("details", { "data-turn": String(turn) }, el("summary", {}, t.reportOf(turn)),
        missed.has(turn) ? el("p", { class: "missed", role: "note" }, t.missed) : null,
        ...TOPICS.filter((topic) => topics.has(topic)).map((topic) => el("div", { class: `topic ${topic}` },
          el("h3", {}, t.topics[topic]), el("ul", {}, ...topics.get(topic).map((line) => el("li", {}, line))))),
        topics.size || missed.has(turn) ? null : el("p", {}, t.nothing));
      details.open = turn === newest;
      return details;
    }));
}

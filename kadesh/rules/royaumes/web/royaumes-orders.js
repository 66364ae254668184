// Royaumes: a kingdom's order message, written on the map or pasted as text. The two tabs hold the same
// orders: the tab shown holds them, and a switch carries them to the other (the form written out as text; the text
// read by the server, and whatever of it the form cannot hold said so). The draft is kept in this browser (per game
// and seat) until it is sent or the turn changes. Legal destinations, the reading of a text and what will not be
// done as written all come from the server.

import { el } from "/static/dom.js";
import { T, seatName, resourceName, stuff } from "/static/rules/royaumes-text.js";

// -- the draft, between renders and across reloads -------------------------------------------------
let draft = null;        // {moves, stay, stances, create, build, spies, conquest, tribute}
let draftKey = null;     // game + seat + turn the draft belongs to
let selectedCell = null; // the own army cell picked on the map
let tab = "form";
let reviewing = null;    // null, or {action, warnings (null while the server reads)}
let pasted = "";
let reading = null;      // the server's reading of the pasted text
let readingCarried = null;  // and the orders as they will be carried out (what the summary says)
let readingLines = [];
let saved = "";          // what became of the Seigneur's last draft passed to his Chef
let dropped = [];        // the text's lines the form could not hold at the last switch: [{line, text, fr, en}]
let switching = "";      // why the last switch to the form failed (the server could not read the text)

const storeKey = (ctx) => `kadesh.royaumes.draft.${ctx.game.id}.${ctx.seat}`;

function freshDraft(view) {
  const you = view.you;
  return { moves: [], stay: new Set(), stances: { ...view.kingdoms.find((k) => k.id === you.kingdom).stances },
    create: "", build: false, spies: new Set(), conquest: you.conquest, tribute: you.tribute_resource ?? "" };
}

function serial(d) {
  return JSON.stringify({ ...d, stay: [...d.stay], spies: [...d.spies] });
}

// Called at each render of the kingdom page: a new turn (or a new page) starts from the stored draft.
export function prepare(ctx) {
  const key = `${ctx.game.id}:${ctx.seat}:${ctx.view.turn}`;
  if (ctx.view.you.orders) localStorage.removeItem(storeKey(ctx));  // sent: the draft has done its work
  if (draftKey === key) return;
  draftKey = key;
  draft = freshDraft(ctx.view); selectedCell = null; reviewing = null; reading = null; pasted = ""; tab = "form";
  dropped = []; switching = "";
  const stored = JSON.parse(localStorage.getItem(storeKey(ctx)) || "null");
  if (stored?.turn === ctx.view.turn && !ctx.view.you.orders) {
    Object.assign(draft, stored.draft, { stay: new Set(stored.draft.stay), spies: new Set(stored.draft.spies) });
    pasted = stored.pasted ?? "";
    tab = stored.tab ?? "form";
    dropped = stored.dropped ?? [];
  } else {
    localStorage.removeItem(storeKey(ctx));
  }
}

function keep(ctx) {
  const empty = serial(draft) === serial(freshDraft(ctx.view)) && !pasted;
  if (empty || ctx.view.you.orders) localStorage.removeItem(storeKey(ctx));
  else localStorage.setItem(storeKey(ctx), JSON.stringify({ turn: ctx.view.turn, draft: JSON.parse(serial(draft)), pasted, tab, dropped }));
  return !empty;
}

export const picked = () => selectedCell;
export const draftMoves = () => draft?.moves ?? [];
const leaving = (cell) => draft.moves.filter((m) => m.from === cell).reduce((sum, m) => sum + m.count, 0);
export const mobileLeft = (mine, cell) => (mine[cell]?.mobile ?? 0) - leaving(cell);

// The cells the picked army may go to (the server's list), while some of its armies may still leave.
export function targets(mine) {
  if (!selectedCell || !mine[selectedCell] || mobileLeft(mine, selectedCell) <= 0) return new Set();
  return new Set(mine[selectedCell].destinations);
}

// A click on the map: pick one of one's armies, or send one more of the picked ones to a target.
export function clickCell(mine, cell) {
  if (reviewing) return;
  if (targets(mine).has(cell)) {
    const existing = draft.moves.find((m) => m.from === selectedCell && m.to === cell);
    if (existing) existing.count += 1; else draft.moves.push({ from: selectedCell, to: cell, count: 1 });
    draft.stay.delete(selectedCell);
    if (mobileLeft(mine, selectedCell) <= 0) selectedCell = null;
  } else {
    selectedCell = mine[cell] ? cell : null;
  }
}

// -- orders in either direction: the draft as an action, an order as lines --------------------------
function orderAction(view, d) {
  const action = { type: "orders", moves: d.moves.map((m) => ({ from: m.from, to: m.to, count: m.count })), stay: [...d.stay] };
  for (const stance of ["war", "peace", "ally"]) {
    const listed = Object.keys(d.stances).filter((k) => d.stances[k] === stance);
    if (listed.length) action[stance] = listed;  // restating every relation, as the text asks
  }
  if (d.create) action.create = d.create;
  if (d.build) action.build = ["guild"];
  if (d.spies.size) action.spies = [...d.spies];
  if (d.conquest && d.conquest !== view.you.conquest) action.conquest = d.conquest;
  if (d.tribute) action.tribute = d.tribute;
  return action;
}

// An order message as sentences, for the review before sending and for Imhotep (issue 44: never its syntax).
const SAID = {
  fr: {
    move: (n, from, to) => (n > 1 ? `${n} armées vont de ${from} à ${to}.` : `Une armée va de ${from} à ${to}.`),
    stay: (cell) => `Les armées en ${cell} restent sur place.`,
    war: (ks) => `Guerre déclarée à ${ks}.`, peace: (ks) => `Paix avec ${ks}.`, ally: (ks) => `Alliance proposée à ${ks}.`,
    create: (cell) => `Une armée est levée en ${cell}.`, build: "La Guilde des Constructeurs s'agrandit.",
    spies: (ks) => `Espions envoyés chez ${ks}.`,
    conquest: { convert: "Une cité prise sera convertie.", destroy: "Une cité prise sera détruite." },
    tribute: (r) => `Si l'or manque, le tribut se paie en ${r}.`, and: " et ",
  },
  en: {
    move: (n, from, to) => (n > 1 ? `${n} armies go from ${from} to ${to}.` : `One army goes from ${from} to ${to}.`),
    stay: (cell) => `The armies at ${cell} stay where they are.`,
    war: (ks) => `War declared on ${ks}.`, peace: (ks) => `Peace with ${ks}.`, ally: (ks) => `Alliance offered to ${ks}.`,
    create: (cell) => `An army is raised at ${cell}.`, build: "The Builders' Guild is enlarged.",
    spies: (ks) => `Spies sent to ${ks}.`,
    conquest: { convert: "A city taken will be converted.", destroy: "A city taken will be destroyed." },
    tribute: (r) => `If gold runs short, tribute is paid in ${r}.`, and: " and ",
  },
};

export function orderLines(view, action, lang) {
  const s = SAID[lang === "en" ? "en" : "fr"];
  const kingdoms = (list) => {
    const names = list.map((k) => seatName(view, k, lang));
    return names.length > 1 ? `${names.slice(0, -1).join(", ")}${s.and}${names.at(-1)}` : names[0];
  };
  const lines = (action.moves ?? []).map((m) => s.move(m.count ?? 1, m.from, m.to));
  for (const cell of action.stay ?? []) lines.push(s.stay(cell));
  for (const key of ["war", "peace", "ally", "spies"]) {
    if (action[key]?.length) lines.push(s[key](kingdoms(action[key])));
  }
  if (action.create) lines.push(s.create(action.create));
  if (action.build) lines.push(s.build);
  if (action.conquest) lines.push(s.conquest[action.conquest]);
  if (action.tribute) lines.push(s.tribute(resourceName(view, action.tribute, lang)));
  return lines;
}

export function jsonOf(order) {  // a normalized order back in the JSON form, to show it
  const out = { moves: order.moves, stay: order.stay };
  for (const [kingdom, stance] of Object.entries(order.stances)) {
    out[stance] ??= [];
    out[stance].push(kingdom);
  }
  if (order.create) out.create = order.create;
  if (order.build.length) out.build = order.build;
  if (order.spies.length) out.spies = order.spies;
  if (order.conquest) out.conquest = order.conquest;
  if (order.tribute) out.tribute = order.tribute;
  return out;
}

// -- the panel --------------------------------------------------------------------------------------
export function orderPanel(ctx, mine, redraw) {
  const { view, lang } = ctx;
  const t = T[lang];
  const kept = keep(ctx);
  const title = el("h2", {}, t.orders, kept ? el("span", { class: "draft-kept", id: "draft-kept" }, t.draftKept) : null);
  if (reviewing) {
    const { action, shown, warnings } = reviewing;
    return el("section", { class: "orders review" }, title, el("p", {}, t.confirmTitle),
      el("pre", { id: "review" }, shown === null ? t.checking : shown.join("\n") || t.none),
      warnings === null ? el("p", { class: "muted" }, t.checking)
        : warnings.length ? el("div", { class: "warnings", id: "review-warnings", role: "status" }, el("h3", {}, t.warnings),
          el("ul", {}, ...warnings.map((w) => {
          const said = w.text ? `« ${w.text} » — ${w[lang]}` : w[lang];
          return el("li", {}, `⚠ ${w.line ? t.lineOk(w.line, said) : said}`);
        }))) : null,
      el("button", { type: "button", id: "send", class: "primary", onclick: async () => {
        reviewing = null;
        await ctx.act(action, { independent: true });
      } }, t.send), " ",
      el("button", { type: "button", onclick: () => { reviewing = null; redraw(); } }, t.back));
  }
  const tabs = el("div", { class: "tabs", role: "tablist" },
    el("button", { type: "button", role: "tab", "aria-selected": String(tab === "form"), id: "tab-form",
      onclick: () => showForm(ctx, redraw) }, t.formTab),
    el("button", { type: "button", role: "tab", "aria-selected": String(tab === "text"), id: "tab-text",
      onclick: () => showText(ctx, redraw) }, t.textTab));
  const body = tab === "form" ? orderForm(ctx, mine, redraw) : textForm(ctx, redraw);
  const failed = switching ? el("p", { class: "error", role: "alert", id: "switch-failed" }, switching) : null;
  if (ctx.role === "lord") {
    return el("section", { class: "orders" }, title, el("p", { class: "note", id: "lord-note" }, t.lordNote), tabs, failed, body,
      el("button", { type: "button", id: "save-draft", class: "primary", onclick: async () => {
        try {  // the draft goes as a text, which his Chef's page reads back: the form written out by the server
          const text = tab === "text" ? pasted : withDropped((await ctx.preview(orderAction(view, draft)))?.text?.[lang]);
          await ctx.talk.saveDraft(text);
          saved = t.draftSaved;
        } catch (error) {
          saved = error.message;
        }
        redraw();
      } }, t.saveDraft), saved ? el("p", { role: "status", id: "draft-saved" }, saved) : null);
  }
  return el("section", { class: "orders" }, title, tabs, failed, body,
    el("button", { type: "button", id: "review-orders", class: "primary", onclick: () => review(ctx, redraw) }, t.review));
}

// The orders of the tab shown, read back by the server before they leave: the text tab's are sent as the text
// (its lines not understood listed among the warnings), the form's as its order.
async function review(ctx, redraw) {
  const { view, lang } = ctx;
  const action = tab === "text" ? { type: "orders", text: pasted } : orderAction(view, draft);
  reviewing = { action, shown: tab === "text" ? null : orderLines(view, action, lang), warnings: null };
  redraw();
  try {
    const answer = await ctx.preview(action);
    if (reviewing?.action !== action) return;
    reviewing.shown = orderLines(view, { type: "orders", ...jsonOf(answer.carried ?? answer.order) }, lang);  // what will happen
    reviewing.warnings = [...(action.text !== undefined ? answer.order.problems : []), ...(answer?.warnings ?? [])];
  } catch (error) {
    if (reviewing?.action !== action) return;
    reviewing.shown ??= [];
    reviewing.warnings = [{ line: null, fr: error.message, en: error.message }];
  }
  redraw();
}

// -- the two tabs hold the same orders: the tab shown holds them, and a switch carries them to the other ------------
const withDropped = (text) => [text ?? "", ...dropped.map((line) => line.text)].filter(Boolean).join("\n");

// The form to the text: the form's order as the server writes it in this language, and the lines the form could not
// hold at the last switch put back, so that nothing written is lost.
async function showText(ctx, redraw) {
  if (tab === "text") return;
  try {
    const answer = await ctx.preview(orderAction(ctx.view, draft));
    pasted = withDropped(answer?.text?.[ctx.lang]);
  } catch (error) {
    switching = error.message;
    redraw();
    return;
  }
  dropped = []; reading = null; switching = ""; tab = "text";
  keep(ctx);
  redraw();
}

// The text to the form: the server reads the text, the form takes what it understood, and the lines it did not
// understand are said, line by line, above the form (they come back if one returns to the text).
async function showForm(ctx, redraw) {
  if (tab === "form") return;
  try {
    carry(ctx.view, (await ctx.preview({ type: "orders", text: pasted })).order);
  } catch (error) {
    switching = error.message;
    redraw();
    return;
  }
  switching = ""; tab = "form";
  keep(ctx);
  redraw();
}

function carry(view, order) {
  fill(view, order);
  dropped = order.problems.filter((p) => p.text).map(({ line, text, fr, en }) => ({ line, text, fr, en }));
  reading = null;
}

function select(id, label, value, options, onchange) {
  const node = el("select", { id, onchange: (event) => onchange(event.target.value) },
    ...options.map(([v, text]) => el("option", { value: v }, text)));
  node.value = value;
  return el("label", { class: "field" }, el("span", {}, label), node);
}

function orderForm(ctx, mine, redraw) {
  const { view, lang } = ctx;
  const t = T[lang];
  const you = view.you;
  const others = view.kingdoms.filter((k) => k.id !== you.kingdom);
  const ownCities = view.cities.filter((c) => c.owner === you.kingdom && !c.destroyed);
  const cost = (what) => stuff(view, view.costs[what], lang);
  const chosen = selectedCell && mine[selectedCell];
  const set = (change) => (value) => { change(value); redraw(); };
  return el("div", { class: "order-form" },
    dropped.length ? el("div", { class: "warnings", id: "dropped", role: "status" }, el("h3", {}, t.droppedTitle),
      el("ul", {}, ...dropped.map((line) => el("li", {}, `✗ ${t.lineOk(line.line, `« ${line.text} » — ${line[lang]}`)}`))),
      el("p", { class: "muted" }, t.droppedBack)) : null,
    el("p", { class: "hint" }, chosen ? t.selected(selectedCell, mobileLeft(mine, selectedCell)) : t.pick),
    chosen ? el("button", { type: "button", id: "stay", onclick: () => {
      if (draft.stay.has(selectedCell)) draft.stay.delete(selectedCell); else draft.stay.add(selectedCell);
      redraw();
    } }, draft.stay.has(selectedCell) ? t.unstay : t.stay) : null, " ",
    el("button", { type: "button", id: "others-stay", onclick: () => {
      // Every army not leaving: a cell whose armies do not all leave stays too (« 2 armées en H6, une part »).
      for (const [cell, armies] of Object.entries(mine)) if (leaving(cell) < armies.count) draft.stay.add(cell);
      redraw();
    } }, t.othersStay),
    el("h3", {}, t.moves),
    el("ul", { id: "draft-moves" }, draft.moves.length ? draft.moves.map((m, i) => {
      const text = `${m.count > 1 ? `${m.count} × ` : ""}${m.from} → ${m.to}`;
      return el("li", {}, `${text} `, el("button", { type: "button", class: "small", "aria-label": t.removeMove(text),
        onclick: () => { draft.moves.splice(i, 1); redraw(); } }, t.remove));
    }) : el("li", {}, t.none)),
    draft.stay.size ? el("p", { id: "draft-stay" }, `${t.stay}${t.sep}${[...draft.stay].join(", ")}`) : null,
    el("h3", {}, t.stances),
    ...others.map((k) => select(`stance-${k.id}`, t.stanceWith(k.names[lang]), draft.stances[k.id],
      [["war", t.war], ["peace", t.peace], ["ally", t.ally]], set((v) => { draft.stances[k.id] = v; }))),
    el("h3", {}, t.raising),
    select("create", t.create, draft.create, [["", t.noCreate], ...ownCities.map((c) => [c.name, `${c.name} (${c.cell}, ${cost("army")})`])],
      set((v) => { draft.create = v; if (v) draft.build = false; })),
    draft.create ? el("p", { class: "note" }, t.createNote) : null,
    // not disabled by a raising: a message may ask both (the Guild is refused only if the army is raised)
    el("label", { class: "check" }, el("input", { type: "checkbox", id: "build", checked: draft.build,
      onchange: (event) => { draft.build = event.target.checked; redraw(); } }), ` ${t.build} (${cost("guild")})`),
    ...others.map((k) => el("label", { class: "check spy" }, el("input", { type: "checkbox", id: `spy-${k.id}`, checked: draft.spies.has(k.id),
      onchange: (event) => { if (event.target.checked) draft.spies.add(k.id); else draft.spies.delete(k.id); redraw(); } }),
    ` ${t.spy(k.names[lang])} (${cost("spy")})`)),
    el("h3", {}, t.victory),
    select("conquest", t.conquest, draft.conquest, [["convert", t.convert], ["destroy", t.destroy]], set((v) => { draft.conquest = v; })),
    select("tribute", t.tribute, draft.tribute, [["", t.mostOf], ...Object.keys(view.resources).slice(1).map((r) => [r, resourceName(view, r, lang)])],
      set((v) => { draft.tribute = v; })));
}

function textForm(ctx, redraw) {
  const { view, lang } = ctx;
  const t = T[lang];
  const area = el("textarea", { id: "order-text", rows: "8", cols: "40", "aria-describedby": "paste-help" });
  area.value = pasted;
  area.addEventListener("input", () => { pasted = area.value; keep(ctx); });
  const mark = (line) => line.understood ? (line.warning ? "⚠" : "✓") : "✗";
  const why = (line) => line.understood ? (line.warning ? ` — ${line.warning[lang]}` : "") : ` — ${line[lang]}`;
  const result = reading ? el("div", { id: "reading" },
    el("ol", { class: "lines" }, ...readingLines.map((line) => el("li", { value: String(line.line),
      class: line.understood ? (line.warning ? "ok warn" : "ok") : "not" }, `${mark(line)} « ${line.text} »${why(line)}`))),
    el("h3", {}, t.understood),
    el("pre", {}, orderLines(view, { type: "orders", ...jsonOf(readingCarried ?? reading) }, lang).join("\n") || t.none),
    reading.problems.length ? el("h3", {}, t.problem) : null,
    el("ul", { class: "problems" }, ...reading.problems.map((p) => el("li", {}, t.lineOk(p.line, `« ${p.text} » — ${p[lang]}`)))),
    el("button", { type: "button", id: "fill", onclick: () => { carry(view, reading); tab = "form"; keep(ctx); redraw(); } }, t.fill)) : null;
  return el("div", { class: "text-form" }, el("label", { for: "order-text" }, t.pasteLabel),
    el("p", { id: "paste-help", class: "muted" }, t.paste), area, el("br"),
    el("button", { type: "button", id: "read", onclick: async () => {
      try {
        const answer = await ctx.preview({ type: "orders", text: pasted });
        reading = answer.order;
        readingCarried = answer.carried;
        readingLines = answer.lines ?? [];
      } catch (error) {
        readingLines = [];
        readingCarried = null;
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
  draft.build = order.build.length > 0;
  draft.spies = new Set(order.spies);
  if (order.conquest) draft.conquest = order.conquest;
  if (order.tribute) draft.tribute = order.tribute;
}

// -- the council: the Seigneur's draft for his Chef, and the alliance lines of the kingdom's messages --------
export function councilBox(ctx, redraw) {
  const talk = ctx.talk;
  if (!talk || ctx.role !== "seat") return null;
  const t = T[ctx.lang];
  const theirs = talk.draft && !talk.draft.mine ? talk.draft : null;
  if (!theirs && !talk.alliances.length) return null;
  const toText = async (lines) => {  // the form's orders carried to the text first: the line joins them
    await showText(ctx, redraw);
    if (tab !== "text") return;
    pasted = pasted.trim() ? `${pasted.trimEnd()}\n${lines}` : lines;
    reading = null;
    keep(ctx);
    redraw();
  };
  return el("section", { class: "council card", id: "council" }, el("h2", {}, t.council),
    theirs ? el("div", { id: "lord-draft" }, el("h3", {}, t.councilDraft(theirs.sender[ctx.lang])),
      el("pre", { class: "my-orders" }, theirs.body),
      el("button", { type: "button", id: "take-up", onclick: () => {  // his draft replaces the orders written here
        pasted = ""; dropped = []; tab = "text"; reading = null;
        toText(theirs.body);
      } }, t.takeUp)) : null,
    talk.alliances.length ? el("div", { id: "alliance-lines" }, el("h3", {}, t.allianceLines),
      el("ul", {}, ...talk.alliances.map((line) => {
        const added = tab === "text" && pasted.split("\n").some((written) => written.trim() === line);  // not twice
        return el("li", {}, el("code", {}, line), " ",
          el("button", { type: "button", class: "small", disabled: added, onclick: () => toText(line) },
            added ? t.lineAdded : t.addLine));
      }))) : null);
}

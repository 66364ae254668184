// Replays (issue 44): a game stepped through on its own board, move by move from the start, as this seat saw it
// (at any time) or, once the game is over, as everyone may see it (the whole game where the rules hide nothing any
// more: Front's fog lifts, issue 59), or as any seat saw it (a choice in the bar). Each version's view comes from the server,
// replayed from the record (GET /api/games/{id}/replay): the page draws it with the ruleset's own view, and
// nothing can be played from it. Keys: ← → one move, Home and End the first and the last; a slider; play/pause.

import { el } from "/static/dom.js";

const WORDS = {
  fr: { open: "Revoir la partie", close: "Revenir à la partie", title: "Revoir la partie",
    first: "Au début", back: "Coup précédent", next: "Coup suivant", last: "Au dernier coup",
    play: "Lecture", pause: "Pause", at: (n, of) => `Coup ${n} sur ${of}`, start: "Position de départ",
    slider: "Moment de la partie", help: "Flèches ← → : un coup ; Début et Fin : le premier et le dernier.",
    share: "Copier le lien de ce replay", copied: "Lien copié : quiconque l'ouvre revoit la partie, telle que tous la voient.",
    shareLabel: "Lien à partager", reader: "Vue", everything: "Toute la partie" },
  en: { open: "Replay the game", close: "Back to the game", title: "Replay of the game",
    first: "To the start", back: "Previous move", next: "Next move", last: "To the last move",
    play: "Play", pause: "Pause", at: (n, of) => `Move ${n} of ${of}`, start: "Starting position",
    slider: "Moment of the game", help: "Arrow keys ← →: one move; Home and End: the first and the last.",
    share: "Copy this replay's link", copied: "Link copied: whoever opens it replays the game as everyone may see it.",
    shareLabel: "Link to share", reader: "View", everything: "The whole game" },
};
const BATCH = 64;   // versions the server replays in one request
const PACE = 900;   // milliseconds a move while playing

export function createReplay({ call, draw, onClose, lang }) {
  // reader: whose view is shown, once the game is over ("public", or a seat); null: the server's default (one's own).
  // journal: the journal as that reader reads it (null: one's own, the page's); journalOf: its reader and language.
  const state = { open: false, at: 0, last: 0, views: new Map(), playing: null, reader: null, journal: null,
    journalOf: null };

  async function fetchAround(version) {
    if (state.views.has(version)) return;
    const first = Math.max(0, version - (version % BATCH));
    const { views, reader } = state;
    const as = reader ? `&as=${encodeURIComponent(reader)}` : "";
    const answer = await call(`/replay?from=${first}&to=${Math.min(state.last, first + BATCH - 1)}${as}`);
    for (const entry of answer.versions) views.set(entry.version, entry);  // a reader changed meanwhile: not shown
  }

  // The journal beside the view chosen: once the game is over the public's may tell the whole game (Front's, issue
  // 59), and a seat's is what it read then; the server says which lines each reader reads.
  async function readJournal() {
    const { reader } = state;
    const of = reader && `${reader} ${lang()}`;
    if (state.journalOf === of) return;
    const lines = reader ? await call(`/journal?lang=${lang()}&as=${encodeURIComponent(reader)}`) : null;
    if (state.reader === reader) Object.assign(state, { journal: lines, journalOf: of });
  }

  async function go(version) {
    state.at = Math.max(0, Math.min(state.last, version));
    await Promise.all([fetchAround(state.at), readJournal()]);
    draw(state.views.get(state.at));
  }

  // From the start, or from a version (the other side's turn, played on by itself).
  async function open(current, from = 0, play = false) {
    state.open = true;
    state.last = current.version;
    state.reader = current.outcome ? "public" : null;  // a game over: the whole of it first
    Object.assign(state, { views: new Map(), journal: null, journalOf: null });
    await go(from);
    if (play) toggle();
  }

  async function read(reader) {
    stop();
    state.reader = reader;
    state.views = new Map();
    await go(state.at);
    document.getElementById("replay-reader")?.focus();  // the bar was drawn again
  }

  function stop() {
    clearInterval(state.playing);
    state.playing = null;
  }

  function close() {
    stop();
    state.open = false;
    onClose();
  }

  function toggle() {
    if (state.playing) return stop();
    state.playing = setInterval(async () => {
      if (state.at >= state.last) return stop();
      await go(state.at + 1);
    }, PACE);
    return draw(state.views.get(state.at));
  }

  document.addEventListener("keydown", (event) => {
    if (!state.open || event.target.closest?.("input, textarea, select")) return;
    const moves = { ArrowLeft: state.at - 1, ArrowRight: state.at + 1, Home: 0, End: state.last };
    if (!(event.key in moves)) return;
    event.preventDefault();
    stop();
    go(moves[event.key]);
  });

  // Once the game is over: whose view to show, the whole game's or a seat's as it saw it (``seats``: [{seat, name}]).
  function readerChoice(t, seats) {
    const options = [{ value: "public", label: t.everything }, ...seats.map((s) => ({ value: s.seat, label: s.name }))];
    return el("label", { class: "replay-reader" }, `${t.reader} `, el("select", { id: "replay-reader",
      onchange: (event) => read(event.target.value) },
    ...options.map((o) => el("option", { value: o.value, selected: o.value === state.reader }, o.label))));
  }

  // The bar above the board while the replay is open; the button that opens it otherwise. ``seats``: once the game
  // is over, the seats whose view may be chosen.
  function bar(lang, shared = null, seats = null) {
    const t = WORDS[lang];
    if (!state.open) return null;
    const slider = el("input", { type: "range", id: "replay-slider", min: "0", max: String(state.last),
      value: String(state.at), "aria-label": t.slider, oninput: (event) => { stop(); go(Number(event.target.value)); } });
    const button = (id, label, text, target) => el("button", { type: "button", id, "aria-label": label, title: label,
      onclick: () => { stop(); go(target); } }, text);
    return el("section", { class: "replay-bar card", id: "replay", "aria-labelledby": "replay-title" },
      el("div", { class: "replay-head" }, el("h2", { id: "replay-title" }, t.title),
        el("span", { id: "replay-at", role: "status" }, state.at ? t.at(state.at, state.last) : t.start),
        el("button", { type: "button", id: "replay-close", onclick: close }, t.close)),
      el("div", { class: "replay-controls" },
        button("replay-first", t.first, "|◀", 0), button("replay-back", t.back, "◀", state.at - 1),
        el("button", { type: "button", id: "replay-play", class: "primary", onclick: toggle },
          state.playing ? t.pause : t.play),
        button("replay-next", t.next, "▶", state.at + 1), button("replay-last", t.last, "▶|", state.last),
        slider, seats && state.reader ? readerChoice(t, seats) : null),
      el("p", { class: "muted small replay-help" }, t.help),
      shared ? shareBox(t, shared) : null);
  }

  // Once the game is over, its address opens its public replay for anyone (never a seat's secret link).
  function shareBox(t, link) {
    const note = el("span", { class: "muted small", role: "status", id: "replay-shared" });
    const field = el("input", { type: "text", readonly: true, value: link, id: "replay-link", "aria-label": t.shareLabel,
      onfocus: (event) => event.target.select() });
    return el("p", { class: "replay-share" }, field, el("button", { type: "button", id: "replay-share", onclick: async () => {
      field.select();
      await navigator.clipboard?.writeText(link).catch(() => null);
      note.textContent = t.copied;
    } }, t.share), " ", note);
  }

  const opener = (lang, current) => el("button", { type: "button", id: "replay-open",
    onclick: () => open(current) }, WORDS[lang].open);

  return { state, bar, opener, open, close, redraw: () => go(state.at) };
}

// The table's talk (issue 43): the channels this seat reads (the whole table, private channels, a kingdom's
// council, the spectators'), their messages live from the WebSocket, an unread count per channel and in the
// tab's title, and what each reader may do to a message (report it, hide it as the moderator, mute a seat).
// Who reads and writes what is the server's alone; a message is text, never HTML: links are shown, and only
// followed on a click, in a new tab that learns nothing of this page.

import { el } from "/static/dom.js";

const WORDS = {
  fr: {
    title: "Messages", send: "Envoyer", placeholder: "Écrire un message…", sending: "Envoi…",
    empty: "Aucun message ici pour l'instant.", closed: "Tu lis ce canal sans pouvoir y écrire.",
    report: "Signaler", reported: "Signalé au modérateur.", hide: "Masquer", hideReported: "Masquer ce message pour tous",
    hiddenAlready: "Ce message est masqué pour tous.",
    count: (n, max) => `${n} / ${max} caractères`,
    atLimit: (max) => `Limite atteinte : un message a ${max} caractères au plus ; ce qui dépasse n'est pas pris.`, mute: (who) => `Ne plus lire ${who}`,
    unmute: (who) => `Lire de nouveau ${who}`, hidden: "Message masqué par le modérateur.",
    hiddenBy: (who) => `${who} a masqué un message.`, reportLine: (author, reporter) => `Message de ${author}, signalé par ${reporter}`,
    alliance: "Offre d'alliance", offer: "C'est une offre d'alliance (elle deviendra une ligne de tes prochains ordres)",
    line: (text) => `Ligne pour les prochains ordres : « ${text} »`, hideSpectators: "Masquer le canal des spectateurs",
    unread: (n) => `${n} non lu${n > 1 ? "s" : ""}`, you: "toi", muted: "Sièges que tu ne lis plus",
    press: { full: "", public: "Cette partie n'autorise que les messages à toute la table.",
      none: "Cette partie n'autorise aucun message entre joueurs, sauf au maître du jeu." },
    tabTitle: (n) => `✉ ${n}`,
  },
  en: {
    title: "Messages", send: "Send", placeholder: "Write a message…", sending: "Sending…",
    empty: "No message here yet.", closed: "You read this channel but cannot write on it.",
    report: "Report", reported: "Reported to the moderator.", hide: "Hide", hideReported: "Hide this message for everyone",
    hiddenAlready: "This message is hidden for everyone.",
    count: (n, max) => `${n} / ${max} characters`,
    atLimit: (max) => `Limit reached: a message has ${max} characters at most; what goes beyond is not taken.`, mute: (who) => `Stop reading ${who}`,
    unmute: (who) => `Read ${who} again`, hidden: "Message hidden by the moderator.",
    hiddenBy: (who) => `${who} hid a message.`, reportLine: (author, reporter) => `Message by ${author}, reported by ${reporter}`,
    alliance: "Alliance offer", offer: "This is an alliance offer (it will become a line of your next orders)",
    line: (text) => `Line for the next orders: "${text}"`, hideSpectators: "Hide the spectators' channel",
    unread: (n) => `${n} unread`, you: "you", muted: "Seats you no longer read",
    press: { full: "", public: "This game allows messages to the whole table only.",
      none: "This game allows no message between players, except to the game master." },
    tabTitle: (n) => `✉ ${n}`,
  },
};

const LINK = /https?:\/\/[^\s<>"']+/g;

// Text with its links made clickable, and nothing else: text nodes and anchors, never parsed HTML.
export function linked(text) {
  const parts = [];
  let at = 0;
  for (const match of text.matchAll(LINK)) {
    const url = match[0].replace(/[.,;:!?)]+$/, "");
    if (match.index > at) parts.push(document.createTextNode(text.slice(at, match.index)));
    parts.push(el("a", { href: url, target: "_blank", rel: "noopener noreferrer nofollow" }, url));
    at = match.index + url.length;
  }
  if (at < text.length) parts.push(document.createTextNode(text.slice(at)));
  return parts;
}

export function createTalk({ gameId, call, onChange, onDraft }) {
  const state = { channels: [], messages: new Map(), draft: null, muted: [], moderator: false, press: "full",
    maxLength: 2000, hiddenTargets: new Set(), last: 0, loaded: false, shown: null, reporting: new Set(), seat: null, role: null, error: "" };
  const readKey = () => `kadesh.read.${gameId}.${state.role}.${state.seat ?? ""}`;
  const readUpTo = () => JSON.parse(localStorage.getItem(readKey()) || "{}");
  const hideSpectators = () => localStorage.getItem("kadesh.hideSpectators") === "1";

  function take(list) {
    for (const message of list) {
      if (message.channel.startsWith("draft:")) {
        if (!state.draft || message.seq > state.draft.seq) state.draft = message;
      } else {
        state.messages.set(message.seq, message);
      }
      if (message.kind === "hidden" && message.data?.target) {  // the server's word that a message was hidden
        state.hiddenTargets.add(message.data.target);
        const target = state.messages.get(message.data.target);
        if (target) Object.assign(target, { hidden: true, body: "" });
      }
      state.last = Math.max(state.last, message.seq);
    }
  }

  async function load(current) {
    state.seat = current.seat;
    state.role = current.role;
    const answer = await call(`/messages?after=0`);
    Object.assign(state, { channels: answer.channels, muted: answer.muted, moderator: answer.moderator,
      press: answer.press, maxLength: answer.max_length ?? state.maxLength, loaded: true });
    if (answer.draft) state.draft = answer.draft;
    take(answer.messages);
    state.shown ??= answer.channels[0]?.id ?? null;
    drawnPart = viewPart();  // the page draws its view once the talk is loaded
  }

  // What the ruleset's view shows of the talk (the kingdom's draft, its alliance lines): when it changes, the view is
  // drawn again, whether the change came by the socket or from this page's own message.
  const viewPart = () => `${state.draft?.seq ?? ""}|${alliances("fr").join("\n")}`;
  let drawnPart = "";
  function changed() {
    onChange();
    const part = viewPart();
    if (part !== drawnPart) {
      drawnPart = part;
      onDraft?.();
    }
  }

  function receive(frame) {
    take(frame.messages);
    changed();
  }

  const visible = () => state.channels.filter((c) => c.id !== "spectators" || !state.seat || !hideSpectators());
  const inChannel = (id) => [...state.messages.values()].filter((m) => m.channel === id).sort((a, b) => a.seq - b.seq);

  function unread(id) {
    const seen = readUpTo()[id] ?? 0;
    return inChannel(id).filter((m) => m.seq > seen && !m.mine && m.kind !== "hidden").length;
  }

  function markRead(id) {
    const list = inChannel(id);
    if (!list.length || document.hidden) return;
    const upTo = readUpTo();
    upTo[id] = Math.max(upTo[id] ?? 0, list[list.length - 1].seq);
    localStorage.setItem(readKey(), JSON.stringify(upTo));
  }

  function totalUnread() {
    return visible().reduce((sum, c) => sum + (c.id === state.shown && !document.hidden ? 0 : unread(c.id)), 0);
  }

  // A kingdom's draft belongs to its turn: on each new version of the game, the server says whether the draft held
  // is still offered (a turn judged has none), and which one.
  async function recheckDraft() {
    if (!state.draft) return;
    const answer = await call(`/messages?after=${state.last}`);
    state.draft = answer.draft ?? null;
    take(answer.messages);
    drawnPart = viewPart();
  }

  async function saveDraft(text) {
    take([await call("/draft", { method: "PUT", body: JSON.stringify({ text }) })]);
  }

  async function act(path, options, after) {
    state.error = "";
    try {
      const answer = await call(path, options);
      after?.(answer);
    } catch (error) {
      state.error = error.message;
    }
    changed();
  }

  function messageItem(message, lang) {
    const t = WORDS[lang];
    const who = message.sender[lang];
    const at = new Date(message.at).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
    const named = message.kind === "report" && message.about ? t.reportLine(message.about[lang], who) : who;
    const head = el("p", { class: "talk-who" }, el("strong", {}, message.mine ? `${named} (${t.you})` : named), " ",
      el("time", { datetime: message.at }, at));
    if (message.kind === "hidden") {
      return el("li", { class: "talk-line moderation", "data-seq": String(message.seq) }, t.hiddenBy(who));
    }
    const body = message.hidden ? el("p", { class: "talk-body muted" }, t.hidden)
      : el("p", { class: "talk-body" }, ...linked(message.body));
    const extra = [];
    if (message.kind === "alliance" && !message.hidden) {
      extra.push(el("p", { class: "talk-alliance" }, el("strong", {}, t.alliance),
        message.data?.words ? ` — ${message.data.words[lang]}` : "", message.line ? ` · ${t.line(message.line[lang])}` : ""));
    }
    if (message.kind === "report") {
      if (state.hiddenTargets.has(message.data?.target)) extra.push(el("p", { class: "muted" }, t.hiddenAlready));
    }
    const actions = [];
    if (!message.mine && !message.hidden && message.kind !== "report") {
      actions.push(state.reporting.has(message.seq) ? el("span", { class: "muted" }, t.reported)
        : el("button", { type: "button", class: "small", onclick: () => act(`/messages/${message.seq}/report`,
          { method: "POST" }, () => state.reporting.add(message.seq)) }, t.report));
      const seat = message.seat;
      if (seat && state.seat && seat !== state.seat && ["seat", "lord", "computer"].includes(message.role)) {
        const muted = state.muted.includes(seat);
        actions.push(el("button", { type: "button", class: "small", onclick: () => act(`/mutes/${encodeURIComponent(seat)}`,
          { method: muted ? "DELETE" : "PUT" }, (list) => { state.muted = list; reload(); }) },
        muted ? t.unmute(who) : t.mute(who)));
      }
    }
    if (state.moderator && !message.hidden && ["text", "alliance"].includes(message.kind)) {
      actions.push(el("button", { type: "button", class: "small", onclick: () => act(`/messages/${message.seq}/hide`,
        { method: "POST" }, (marker) => { take([marker]); message.hidden = true; message.body = ""; }) }, t.hide));
    }
    // A reported message, hidden from the report itself: the moderator may not read its channel (the talk between
    // two kingdoms); the server checks that it was reported to him.
    const target = message.data?.target;
    if (state.moderator && message.kind === "report" && target && !state.hiddenTargets.has(target)) {
      actions.push(el("button", { type: "button", class: "small", onclick: () => act(`/messages/${target}/hide`,
        { method: "POST" }, (marker) => take([marker])) }, t.hideReported));
    }
    return el("li", { class: `talk-line${message.mine ? " mine" : ""}`, "data-seq": String(message.seq) }, head, body,
      ...extra, actions.length ? el("p", { class: "talk-actions" }, ...actions) : null);
  }

  async function reload() {
    state.messages.clear();
    const answer = await call(`/messages?after=0`);
    take(answer.messages);
    state.muted = answer.muted;
    changed();
  }

  function render(box, { lang }) {
    box.hidden = !state.loaded || state.channels.length === 0;
    if (box.hidden) return;
    const t = WORDS[lang];
    const channels = visible();
    if (!channels.some((c) => c.id === state.shown)) state.shown = channels[0]?.id ?? null;
    const shown = channels.find((c) => c.id === state.shown);
    markRead(state.shown);
    const tabs = el("div", { class: "talk-tabs", role: "tablist", "aria-label": t.title }, ...channels.map((c) => {
      const count = c.id === state.shown ? 0 : unread(c.id);
      return el("button", { type: "button", role: "tab", id: `talk-tab-${c.id.replace(/[^a-z0-9_-]/gi, "-")}`,
        "aria-selected": String(c.id === state.shown), "data-channel": c.id,
        onclick: () => { state.shown = c.id; onChange(); } }, c.title[lang],
      count ? el("span", { class: "badge", "aria-label": t.unread(count) }, String(count)) : null);
    }));
    const list = inChannel(state.shown);
    const log = el("ol", { class: "talk-log", id: "talk-log", "aria-live": "polite", tabindex: "0",
      "aria-label": shown?.title[lang] ?? t.title },
    ...(list.length ? list.map((m) => messageItem(m, lang)) : [el("li", { class: "muted talk-empty" }, t.empty)]));
    const composer = shown?.writable ? composeForm(shown, lang) : el("p", { class: "muted" }, t.closed);
    const options = state.seat && state.channels.some((c) => c.id === "spectators")
      ? el("label", { class: "check talk-option" }, el("input", { type: "checkbox", id: "hide-spectators",
        checked: hideSpectators(), onchange: (event) => {
          localStorage.setItem("kadesh.hideSpectators", event.target.checked ? "1" : "0");
          onChange();
        } }), ` ${t.hideSpectators}`) : null;
    const typing = document.activeElement?.id === "talk-text";
    box.replaceChildren(...[el("h2", { id: "talk-title" }, t.title),
      t.press[state.press] ? el("p", { class: "muted" }, t.press[state.press]) : null,
      tabs, log, state.error ? el("p", { class: "error", role: "alert" }, state.error) : null, composer, options]
      .filter(Boolean));
    log.scrollTop = log.scrollHeight;
    if (typing) {  // a message arriving while one writes must not take the cursor away
      const area = box.querySelector("#talk-text");
      area?.focus();
      area?.setSelectionRange(area.value.length, area.value.length);
    }
  }

  let writing = "";  // what is being written, kept between renders
  function composeForm(channel, lang) {
    const t = WORDS[lang];
    const max = state.maxLength;
    const area = el("textarea", { id: "talk-text", rows: "2", maxlength: String(max), placeholder: t.placeholder,
      "aria-label": t.placeholder, "aria-describedby": "talk-count" });
    area.value = writing;
    // How long the message is, shown from nine tenths of the limit; at the limit, said (the browser cuts what goes
    // beyond, a paste included).
    const count = el("p", { id: "talk-count", class: "talk-count muted" });
    const limit = el("p", { id: "talk-limit", class: "talk-limit", role: "status" });
    const measure = () => {
      const n = writing.length;  // as the browser's maxlength counts
      count.hidden = n < max * 0.9;
      count.textContent = count.hidden ? "" : t.count(n.toLocaleString(lang), max.toLocaleString(lang));
      limit.textContent = n >= max ? t.atLimit(max.toLocaleString(lang)) : "";
    };
    measure();
    area.addEventListener("input", () => { writing = area.value; measure(); });
    const offer = channel.alliance ? el("input", { type: "checkbox", id: "talk-alliance" }) : null;
    const form = el("form", { class: "talk-compose", onsubmit: async (event) => {
      event.preventDefault();
      if (!writing.trim()) return;
      const button = form.querySelector("button[type=submit]");
      button.disabled = true;
      button.textContent = t.sending;
      await act("/messages", { method: "POST", body: JSON.stringify({ channel: channel.id, text: writing,
        alliance: Boolean(offer?.checked) }) }, (message) => { take([message]); writing = ""; });
    } }, area, count, limit, offer ? el("label", { class: "check" }, offer, ` ${t.offer}`) : null,
    el("button", { type: "submit", class: "primary", id: "talk-send" }, t.send));
    area.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey) {
        event.preventDefault();
        form.requestSubmit();
      }
    });
    return form;
  }

  // What a ruleset's view needs of the talk: the kingdom's latest draft, and the alliance lines of its messages.
  function alliances(lang) {
    const lines = [...state.messages.values()].filter((m) => m.kind === "alliance" && m.line && !m.hidden)
      .map((m) => m.line[lang]);
    return [...new Set(lines)];
  }

  function forView(lang) {
    return { draft: state.draft, alliances: alliances(lang), saveDraft,
      unreadTitle: (n = totalUnread()) => (n ? WORDS[lang].tabTitle(n) : "") };
  }

  return { state, load, receive, render, forView, recheckDraft };
}

// Telling a seat that it is its turn: in the tab (title and icon), by the browser's notifications while
// the page is in the background, and by e-mail or webhook through the server's subscriptions (the panel
// "Me prévenir"). The server decides what a notice says and when it is sent; the page only asks.

import { el } from "/static/dom.js";

const WORDS = {
  fr: {
    yourTurn: "À toi", title: "Me prévenir quand c'est mon tour",
    secret: "Les avis contiennent ton lien de joueur : il est secret, car quiconque l'a peut jouer à ta place.",
    browser: "Notifications du navigateur", allow: "Les activer", allowed: "activées (quand l'onglet est en arrière-plan)",
    denied: "refusées dans ce navigateur (ses réglages les rétablissent)", unsupported: "ce navigateur n'en a pas",
    permission: { granted: "Notifications du navigateur activées.",
      denied: "Le navigateur les a refusées : ses réglages du site peuvent les rétablir.",
      default: "Le navigateur n'a rien répondu (la demande a été fermée) : clique de nouveau pour la revoir." },
    by: "Par", email: "E-mail", webhook: "Webhook (Discord, Slack…)", address: "Adresse",
    emailPlaceholder: "toi@exemple.org", webhookPlaceholder: "https://discord.com/api/webhooks/…",
    remind: "Rappel avant l'échéance", noReminder: "aucun", hours: (h) => (h === 1 ? "1 heure avant" : `${h} heures avant`),
    subscribe: "M'abonner", test: "Essai", remove: "Retirer", none: "Aucun abonnement pour l'instant.",
    noEmail: "Ce serveur n'envoie pas d'e-mails : un webhook reste possible.",
    sent: (when) => `dernier avis envoyé ${when}`, neverSent: "aucun avis envoyé pour l'instant",
    failed: (when, why) => `échec ${when} : ${why}`, testAsked: "Essai demandé : il part dans un instant.",
    unconfirmed: (address) => `en attente de confirmation : ouvre le lien envoyé à ${address} (rien d'autre ne part avant)`,
    confirmAsked: (address) => `Un message de confirmation part vers ${address} : ouvre son lien pour recevoir les avis.`,
    kinds: { discord: "Discord", slack: "Slack", kadesh: "JSON" },
    reminder: (m) => `rappel ${m % 60 ? `${m} minutes` : m === 60 ? "1 heure" : `${m / 60} heures`} avant l'échéance`,
    sep: " : ",
    why: {
      no_smtp: "le serveur n'a pas de réglages d'e-mail", smtp_failed: "le serveur de courrier a refusé ou n'a pas répondu",
      http_status: (code) => `le webhook a répondu par une erreur (${code})`, no_answer: "le webhook n'a pas répondu",
      private_host: "adresse privée refusée", unknown_host: "hôte introuvable", bad_url: "adresse invalide",
      server_fault: "une erreur du serveur l'a empêché (elle est dans son journal)",
    },
    at: "le", notification: (game) => `${game} : à toi de jouer`,
  },
  en: {
    yourTurn: "Your turn", title: "Tell me when it is my turn",
    secret: "Notices carry your player's link: it is secret, whoever has it plays in your place.",
    browser: "Browser notifications", allow: "Turn them on", allowed: "on (when the tab is in the background)",
    denied: "refused in this browser (its settings can restore them)", unsupported: "this browser has none",
    permission: { granted: "Browser notifications turned on.",
      denied: "The browser refused them: its site settings can restore them.",
      default: "The browser gave no answer (the request was closed): click again to see it again." },
    by: "By", email: "E-mail", webhook: "Webhook (Discord, Slack…)", address: "Address",
    emailPlaceholder: "you@example.org", webhookPlaceholder: "https://discord.com/api/webhooks/…",
    remind: "Reminder before the deadline", noReminder: "none", hours: (h) => (h === 1 ? "1 hour before" : `${h} hours before`),
    subscribe: "Subscribe", test: "Test", remove: "Remove", none: "No subscription yet.",
    noEmail: "This server sends no e-mail: a webhook still works.",
    sent: (when) => `last notice sent ${when}`, neverSent: "no notice sent yet",
    failed: (when, why) => `failed ${when}: ${why}`, testAsked: "Test asked for: it leaves in a moment.",
    unconfirmed: (address) => `waiting for confirmation: open the link sent to ${address} (nothing else goes before)`,
    confirmAsked: (address) => `A confirmation message is on its way to ${address}: open its link to receive the notices.`,
    kinds: { discord: "Discord", slack: "Slack", kadesh: "JSON" },
    reminder: (m) => `reminder ${m % 60 ? `${m} minutes` : m === 60 ? "1 hour" : `${m / 60} hours`} before the deadline`,
    sep: ": ",
    why: {
      no_smtp: "the server has no e-mail settings", smtp_failed: "the mail server refused or did not answer",
      http_status: (code) => `the webhook answered with an error (${code})`, no_answer: "the webhook did not answer",
      private_host: "private address refused", unknown_host: "unknown host", bad_url: "invalid address",
      server_fault: "a fault of the server stopped it (it is in the server's log)",
    },
    at: "on", notification: (game) => `${game}: your turn`,
  },
};

const REMINDER_HOURS = [1, 6, 24];
const POLL_AFTER_TEST = 2000;  // ms between looks at a subscription's result after a test
const POLLS_AFTER_TEST = 10;

let myTurnBefore = null;  // whether the last drawn version was this seat's turn (null: nothing drawn yet)

// The tab says when it is this seat's turn: « (1) À toi — Kadesh » and the icon's red dot.
export function signalTurn({ current, lang, gameTitle }) {
  const myTurn = Boolean(current.seat && !current.outcome && current.to_act.includes(current.seat));
  const t = WORDS[lang];
  document.title = myTurn ? `(1) ${t.yourTurn} — Kadesh` : `${gameTitle} · Kadesh`;
  const icon = document.querySelector("link[rel~='icon']");
  if (icon) icon.href = myTurn ? "/static/favicon-turn.svg" : "/static/favicon.svg";
  if (myTurn && myTurnBefore === false && document.hidden && "Notification" in window
      && Notification.permission === "granted") {
    try {  // some browsers (Chrome on Android) show notifications only through a service worker: then none
      new Notification(t.notification(gameTitle), { tag: `kadesh-${current.id}`, icon: "/static/favicon-turn.svg" });
    } catch { /* the tab's title and icon still say it */ }
  }
  myTurnBefore = myTurn;
}

let state = { subscriptions: [], email: false, loaded: false, message: "", channel: "email" };

// The panel of subscriptions, for a seat (not a spectator, not two seats on one screen).
export async function renderNotices(box, context) {
  const { current, hotseat } = context;
  box.hidden = !current.seat || hotseat || Boolean(current.outcome);  // a finished game has no turn to tell
  if (box.hidden) return;
  if (!state.loaded) await load(context);
  draw(box, context);
}

async function load({ call }) {
  try {
    const answer = await call("/subscriptions");
    state = { ...state, subscriptions: answer.subscriptions, email: answer.email, loaded: true };
    if (!state.email) state.channel = "webhook";
  } catch (error) {
    state = { ...state, loaded: true, message: error.message };
  }
}

function when(text, lang) {
  if (!text) return "";
  const moment = new Date(text);
  const format = new Intl.DateTimeFormat(lang === "fr" ? "fr-FR" : "en-GB",
    { weekday: "long", day: "numeric", month: "long", hour: "2-digit", minute: "2-digit" });
  return `${WORDS[lang].at} ${format.format(moment)}`;
}

function why(recorded, lang) {
  const [code, detail] = (recorded || "").split(/:(.*)/s);
  const reason = WORDS[lang].why[code];
  if (typeof reason === "function") return reason(detail);
  return reason || WORDS[lang].why.no_answer;
}

function status(subscription, lang) {
  const t = WORDS[lang];
  if (!subscription.confirmed && !subscription.last_error) return el("span", { class: "notice-waiting" }, t.unconfirmed(subscription.address));
  if (subscription.last_error) return el("span", { class: "notice-failed" }, t.failed(when(subscription.last_error_at, lang), why(subscription.last_error, lang)));
  return el("span", { class: "muted" }, subscription.last_sent_at ? t.sent(when(subscription.last_sent_at, lang)) : t.neverSent);
}

function subscriptionItem(subscription, context) {
  const t = WORDS[context.lang];
  const kind = subscription.channel === "email" ? t.email : `${t.webhook.split(" ")[0]} ${t.kinds[subscription.style] ?? ""}`;
  const parts = [el("strong", {}, kind), " ", el("span", { class: "notice-address" }, subscription.address)];
  if (subscription.remind_before) parts.push(el("span", { class: "muted" }, ` · ${t.reminder(subscription.remind_before)}`));
  const testButton = subscription.confirmed
    ? [el("button", { type: "button", onclick: () => test(subscription, context) }, t.test), " "] : [];
  return el("li", {}, ...parts, el("br"), status(subscription, context.lang), " ", ...testButton,
    el("button", { type: "button", onclick: () => remove(subscription, context) }, t.remove));
}

function browserLine(context) {
  const t = WORDS[context.lang];
  if (!("Notification" in window)) return el("p", { class: "muted" }, `${t.browser}${t.sep}${t.unsupported}`);
  if (Notification.permission === "granted") return el("p", {}, `${t.browser}${t.sep}${t.allowed}`);
  if (Notification.permission === "denied") return el("p", { class: "muted" }, `${t.browser}${t.sep}${t.denied}`);
  return el("p", {}, `${t.browser}${t.sep}`, el("button", { type: "button", id: "allow-notifications", onclick: async () => {
    // Whatever the browser answers (a prompt dismissed changes nothing it shows), the panel says what came of it.
    const answer = await Notification.requestPermission();
    state.message = t.permission[answer] ?? t.permission.default;
    draw(document.querySelector("#notices"), context);
  } }, t.allow));
}

function form(context) {
  const t = WORDS[context.lang];
  const channel = el("select", { id: "notice-channel", onchange: (event) => {
    state.channel = event.target.value;
    draw(document.querySelector("#notices"), context);
  } }, ...(state.email ? [el("option", { value: "email" }, t.email)] : []), el("option", { value: "webhook" }, t.webhook));
  channel.value = state.channel;
  const address = el("input", { id: "notice-address", type: state.channel === "email" ? "email" : "url", required: true,
    autocomplete: state.channel === "email" ? "email" : "off", size: 32,
    placeholder: state.channel === "email" ? t.emailPlaceholder : t.webhookPlaceholder });
  const fields = [el("label", { for: "notice-channel" }, t.by), " ", channel, " ",
    el("label", { for: "notice-address" }, t.address), " ", address];
  if (context.deadlines) {
    fields.push(" ", el("label", { for: "notice-remind" }, t.remind), " ", el("select", { id: "notice-remind" },
      el("option", { value: "" }, t.noReminder), ...REMINDER_HOURS.map((h) => el("option", { value: String(h * 60) }, t.hours(h)))));
  }
  return el("form", { class: "notice-form", onsubmit: (event) => { event.preventDefault(); subscribe(event.target, context); } },
    ...fields, " ", el("button", { type: "submit", class: "primary" }, t.subscribe));
}

let drawn = "";  // what the panel shows: redrawn only when that changes (a typed address survives a push)

function draw(box, context, force = false) {
  const key = JSON.stringify([context.lang, context.deadlines, state, "Notification" in window ? Notification.permission : ""]);
  if (key === drawn && !force) return;
  drawn = key;
  const t = WORDS[context.lang];
  const wasOpen = box.querySelector("details")?.open ?? false;
  const list = state.subscriptions.length
    ? el("ul", { class: "notice-list" }, ...state.subscriptions.map((s) => subscriptionItem(s, context)))
    : el("p", { class: "muted" }, t.none);
  const details = el("details", {}, el("summary", {}, t.title),
    el("p", { class: "notice-secret" }, t.secret), browserLine(context), list,
    state.email ? null : el("p", { class: "muted" }, t.noEmail), form(context),
    el("p", { id: "notice-message", role: "status" }, state.message));
  details.open = wasOpen || Boolean(state.message);
  box.replaceChildren(details);
}

async function refreshList(context) {
  state.loaded = false;
  await load(context);
  draw(document.querySelector("#notices"), context);
}

async function subscribe(formNode, context) {
  const remind = formNode.querySelector("#notice-remind")?.value;
  const body = { channel: state.channel, address: formNode.querySelector("#notice-address").value.trim(), lang: context.lang };
  if (remind) body.remind_before = Number(remind);
  try {
    const made = await context.call("/subscriptions", { method: "POST", body: JSON.stringify(body) });
    state.message = made && made.confirmed === false ? WORDS[context.lang].confirmAsked(made.address) : "";
  } catch (error) {
    state.message = error.message;
  }
  await refreshList(context);
}

async function test(subscription, context) {
  try {
    await context.call(`/subscriptions/${encodeURIComponent(subscription.id)}/test`, { method: "POST" });
    state.message = WORDS[context.lang].testAsked;
  } catch (error) {
    state.message = error.message;
  }
  await refreshList(context);
  for (let look = 0; look < POLLS_AFTER_TEST; look += 1) {  // the worker sends it: show how it went
    await new Promise((resolve) => setTimeout(resolve, POLL_AFTER_TEST));
    const before = JSON.stringify(state.subscriptions);
    await refreshList(context);
    if (JSON.stringify(state.subscriptions) !== before) return;
  }
}

async function remove(subscription, context) {
  try {
    await context.call(`/subscriptions/${encodeURIComponent(subscription.id)}`, { method: "DELETE" });
    state.message = "";
  } catch (error) {
    state.message = error.message;
  }
  await refreshList(context);
}

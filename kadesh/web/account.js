// « Mon compte »: sign in with a passkey or an e-mailed link, or make an account; once signed in, the
// account's name, language, passkeys, address, devices, data. Accounts are optional: a game's link is enough
// to play. The server does every check (names, passkeys, sessions); this page only asks and shows.

import { el } from "./dom.js";
import { fromCreationJSON, fromRequestJSON, passkeysAvailable, toJSON } from "./passkeys.js";

const TEXT = {
  fr: {
    title: "Mon compte", home: "Accueil", toggle: "English",
    optional: "Pas besoin de compte pour jouer : un lien de partie suffit. Un compte garde tes parties sur tous tes appareils, sans mot de passe.",
    sign_in: "Se connecter", sign_in_passkey: "Me connecter avec ma clé d'accès",
    sign_up: "Créer un compte", name: "Nom de joueur", name_help: "De 3 à 24 lettres ou chiffres ; il sera vu des autres joueurs.",
    sign_up_passkey: "Créer mon compte avec une clé d'accès",
    passkey_help: "Une clé d'accès (passkey) vit dans ton téléphone, ton ordinateur ou ton gestionnaire de mots de passe : ton empreinte, ton visage ou ton code la débloque.",
    no_passkeys: "Ce navigateur ne sait pas utiliser les clés d'accès : reçois plutôt un lien par e-mail.",
    by_email: "Recevoir un lien par e-mail", address: "Adresse e-mail", send_link: "M'envoyer un lien",
    link_sent: (a) => `Si l'adresse ${a} est juste, un lien t'y attend : il sert une fois, dans le quart d'heure.`,
    hello: (n) => `Bonjour, ${n}`, public_page: "Ma page publique",
    profile: "Mon profil", language: "Langue", save: "Enregistrer", saved: "Enregistré.",
    keys: "Mes clés d'accès", made: (d) => `créée le ${d}`, used: (d) => `utilisée le ${d}`, never_used: "jamais utilisée",
    remove: "Retirer", remove_label: (l) => `Retirer la clé d'accès ${l}`, removed: "Clé d'accès retirée.",
    add_key: "Ajouter une clé d'accès", added: "Clé d'accès ajoutée.",
    email: "Mon adresse e-mail", email_is: (a) => `Adresse confirmée : ${a}`, no_email: "Aucune adresse : ajoute-en une pour pouvoir te connecter par e-mail et recevoir tes avis.",
    add_email: "Confirmer cette adresse", email_sent: (a) => `Un lien a été envoyé à ${a} : ouvre-le, ici ou sur un autre appareil, pour ajouter l'adresse à ton compte.`,
    vacation: "Vacances", vacation_help: (n) => `Tes horloges s'arrêtent pendant tes vacances : chaque siège que tu gardes a autant de temps en plus pour jouer. ${n} jours par an.`,
    vacation_left: (d) => (d === 0 ? "Il ne te reste aucun jour de vacances cette année."
      : `Il te reste ${d} jour${d > 1 ? "s" : ""} de vacances cette année.`),
    vacation_left_away: (d) => (d === 0 ? "Ces vacances comptées, il ne te reste aucun jour cette année ; revenir plus tôt te rend les jours non pris."
      : `Ces vacances comptées, il te reste ${d} jour${d > 1 ? "s" : ""} cette année ; revenir plus tôt te rend les jours non pris.`),
    vacation_until: (w) => `En vacances jusqu'au ${w} : tes horloges sont arrêtées jusque-là.`,
    vacation_days: "Nombre de jours", vacation_go: "Partir en vacances", vacation_back: "Revenir de vacances",
    hooks: "Mes webhooks", hooks_help: "Discord, Slack ou tout service qui reçoit du JSON : il est prévenu quand c'est ton tour, dans chacune de tes parties.",
    hook_address: "Adresse du webhook", add_hook: "Ajouter ce webhook", hook_added: "Webhook ajouté.", hook_removed: "Webhook retiré.",
    hook_remove_label: (a) => `Retirer le webhook ${a}`, no_hooks: "Aucun webhook.",
    devices: "Mes appareils", devices_count: (n) => (n > 1 ? `Connecté sur ${n} appareils.` : "Connecté sur cet appareil seulement."),
    sign_out: "Me déconnecter", sign_out_all: "Me déconnecter partout",
    data: "Mes données", export: "Télécharger mes données (JSON)",
    delete: "Supprimer mon compte", delete_confirm: "Oui, supprimer définitivement",
    delete_warn: "Ton nom, ton adresse et tes clés d'accès seront effacés. Tes parties restent, jouables par leurs liens, sans ton nom.",
    deleted: "Ton compte est supprimé.", cancelled: "Demande annulée.",
    my_games: "Mes parties", lang_fr: "Français", lang_en: "English",
  },
  en: {
    title: "My account", home: "Home", toggle: "Français",
    optional: "No account is needed to play: a game's link is enough. An account keeps your games on all your devices, with no password.",
    sign_in: "Sign in", sign_in_passkey: "Sign in with my passkey",
    sign_up: "Make an account", name: "Player's name", name_help: "3 to 24 letters or digits; other players will see it.",
    sign_up_passkey: "Make my account with a passkey",
    passkey_help: "A passkey lives in your phone, your computer or your password manager: your fingerprint, face or PIN unlocks it.",
    no_passkeys: "This browser cannot use passkeys: have a link e-mailed to you instead.",
    by_email: "Get a link by e-mail", address: "E-mail address", send_link: "Send me a link",
    link_sent: (a) => `If ${a} is right, a link is waiting there: it works once, within a quarter of an hour.`,
    hello: (n) => `Hello, ${n}`, public_page: "My public page",
    profile: "My profile", language: "Language", save: "Save", saved: "Saved.",
    keys: "My passkeys", made: (d) => `made on ${d}`, used: (d) => `used on ${d}`, never_used: "never used",
    remove: "Remove", remove_label: (l) => `Remove the passkey ${l}`, removed: "Passkey removed.",
    add_key: "Add a passkey", added: "Passkey added.",
    email: "My e-mail address", email_is: (a) => `Confirmed address: ${a}`, no_email: "No address: add one to sign in by e-mail and receive your notices.",
    add_email: "Confirm this address", email_sent: (a) => `A link was sent to ${a}: open it, here or on another device, to add the address to your account.`,
    vacation: "Vacation", vacation_help: (n) => `Your clocks stop during your vacation: each seat you keep gets as much more time to play. ${n} days a year.`,
    vacation_left: (d) => (d === 0 ? "You have no vacation left this year."
      : `You have ${d} day${d === 1 ? "" : "s"} of vacation left this year.`),
    vacation_left_away: (d) => (d === 0 ? "This vacation counted, you have no day left this year; coming back early gives back the days not taken."
      : `This vacation counted, you have ${d} day${d === 1 ? "" : "s"} left this year; coming back early gives back the days not taken.`),
    vacation_until: (w) => `On vacation until ${w}: your clocks are stopped until then.`,
    vacation_days: "Number of days", vacation_go: "Go on vacation", vacation_back: "Come back from vacation",
    hooks: "My webhooks", hooks_help: "Discord, Slack or any service that takes JSON: it is told when it is your turn, in each of your games.",
    hook_address: "Webhook address", add_hook: "Add this webhook", hook_added: "Webhook added.", hook_removed: "Webhook removed.",
    hook_remove_label: (a) => `Remove the webhook ${a}`, no_hooks: "No webhook.",
    devices: "My devices", devices_count: (n) => (n > 1 ? `Signed in on ${n} devices.` : "Signed in on this device only."),
    sign_out: "Sign out", sign_out_all: "Sign out everywhere",
    data: "My data", export: "Download my data (JSON)",
    delete: "Delete my account", delete_confirm: "Yes, delete it for good",
    delete_warn: "Your name, address and passkeys will be erased. Your games stay, playable by their links, without your name.",
    deleted: "Your account is deleted.", cancelled: "Cancelled.",
    my_games: "My games", lang_fr: "Français", lang_en: "English",
  },
};

let lang = new URLSearchParams(location.search).get("lang") || localStorage.getItem("kadesh.lang") || "fr";
if (!TEXT[lang]) lang = "fr";
let account = null;  // AccountOut, or null when nobody is signed in here
const $ = (id) => document.getElementById(id);
const t = (key, ...args) => (typeof TEXT[lang][key] === "function" ? TEXT[lang][key](...args) : TEXT[lang][key]);
const when = (utc) => new Intl.DateTimeFormat(lang, { dateStyle: "long" }).format(new Date(utc));

async function api(path, options = {}) {
  const response = await fetch(path, { ...options, headers: { "Content-Type": "application/json" } });
  const body = response.status === 204 ? {} : await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(body[lang] || response.statusText), { status: response.status, code: body.code });
  return body;
}

function say(message, problem = false) {
  $("status").textContent = message;
  $("status").classList.toggle("problem", problem);
}

async function attempt(work) {
  try {
    await work();
  } catch (error) {
    if (error.name === "NotAllowedError" || error.name === "AbortError") say(t("cancelled"), true);
    else say(error.message, true);
  }
}

// -- signed out: a passkey, a new account, or a link by e-mail --------------------------------------------
async function signInWithPasskey() {
  const begun = await api("/api/session/passkey/options", { method: "POST" });
  const credential = await navigator.credentials.get({ publicKey: fromRequestJSON(begun.options) });
  account = await api("/api/session/passkey", { method: "POST", body: JSON.stringify({ ceremony: begun.ceremony, credential: toJSON(credential) }) });
  hooks = await api("/api/account/webhooks");
  say("");
  render();
}

async function signUp(name) {
  const begun = await api("/api/account/passkeys/options", { method: "POST", body: JSON.stringify({ name, lang }) });
  const credential = await navigator.credentials.create({ publicKey: fromCreationJSON(begun.options) });
  account = await api("/api/account/passkeys", { method: "POST", body: JSON.stringify({ ceremony: begun.ceremony, credential: toJSON(credential) }) });
  say("");
  render();
}

async function sendLink(address, then) {
  await api("/api/session/email", { method: "POST", body: JSON.stringify({ address, lang }) });
  say(then(address));
}

function field(id, label, attrs, help) {
  return el("p", { class: "field" }, el("label", { for: id }, label), el("input", { id, ...attrs }),
    help ? el("small", { class: "muted", id: `${id}-help` }, help) : null);
}

function signedOut() {
  const can = passkeysAvailable();
  return [
    el("h2", {}, t("title")),
    el("p", { class: "intro" }, t("optional")),
    el("section", { class: "card", "aria-labelledby": "sign-in-title" },
      el("h3", { id: "sign-in-title" }, t("sign_in")),
      can ? el("button", { type: "button", class: "primary", id: "sign-in-passkey", onclick: () => attempt(signInWithPasskey) }, t("sign_in_passkey"))
        : el("p", {}, t("no_passkeys"))),
    el("section", { class: "card", "aria-labelledby": "sign-up-title" },
      el("h3", { id: "sign-up-title" }, t("sign_up")),
      el("form", { id: "sign-up", onsubmit: (event) => { event.preventDefault(); attempt(() => signUp($("new-name").value)); } },
        field("new-name", t("name"), { required: true, minlength: 3, maxlength: 24, autocomplete: "nickname", "aria-describedby": "new-name-help" }, t("name_help")),
        el("p", { class: "muted" }, t("passkey_help")),
        el("button", { type: "submit", class: "primary", id: "sign-up-passkey", disabled: !can }, t("sign_up_passkey")))),
    !mailing ? null : el("section", { class: "card", "aria-labelledby": "email-title" },
      el("h3", { id: "email-title" }, t("by_email")),
      el("form", { id: "email-sign-in", onsubmit: (event) => { event.preventDefault(); attempt(() => sendLink($("address").value, (a) => t("link_sent", a))); } },
        field("address", t("address"), { type: "email", required: true, autocomplete: "email" }),
        el("button", { type: "submit", id: "send-link" }, t("send_link")))),
  ];
}

// -- signed in: the account ---------------------------------------------------------------------------
async function save(changes) {
  account = await api("/api/account", { method: "PATCH", body: JSON.stringify(changes) });
  if (changes.lang) {
    lang = changes.lang;
    localStorage.setItem("kadesh.lang", lang);
  }
  render();
  say(t("saved"));
}

async function addPasskey() {
  const begun = await api("/api/account/passkeys/options", { method: "POST", body: JSON.stringify({}) });
  const credential = await navigator.credentials.create({ publicKey: fromCreationJSON(begun.options) });
  account = await api("/api/account/passkeys", { method: "POST", body: JSON.stringify({ ceremony: begun.ceremony, credential: toJSON(credential) }) });
  render();
  say(t("added"));
}

async function removePasskey(key) {
  await api(`/api/account/passkeys/${encodeURIComponent(key.id)}`, { method: "DELETE" });
  account = await api("/api/account");
  render();
  say(t("removed"));
}

let hooks = [];  // the account's webhooks
let vacation = null;  // {away_until, days_left, days_per_year} (GET /api/account/vacation)

async function addHook(address) {
  await api("/api/account/webhooks", { method: "POST", body: JSON.stringify({ address, lang }) });
  hooks = await api("/api/account/webhooks");
  render();
  say(t("hook_added"));
}

async function removeHook(hook) {
  await api(`/api/account/webhooks/${encodeURIComponent(hook.id)}`, { method: "DELETE" });
  hooks = await api("/api/account/webhooks");
  render();
  say(t("hook_removed"));
}

async function setVacation(options) {
  vacation = await api("/api/account/vacation", options);
  render();
}

let vacationOf = null;  // whose vacation was asked for (an account signed in on this page asks again)

// The box alone is drawn again when the vacation arrives: drawing the whole page then lost what the player was
// typing meanwhile (an address, a name), its field replaced under their fingers.
function vacationBox() {
  if (vacationOf !== account.name) {
    const name = account.name;
    vacationOf = name;
    vacation = null;
    api("/api/account/vacation").then((answer) => {
      if (vacationOf !== name) return;
      vacation = answer;
      $("vacation")?.replaceWith(vacationBox());
    }).catch(() => null);
  }
  if (!vacation) return el("section", { id: "vacation", class: "card", hidden: true });
  const left = Math.floor(vacation.days_left);
  const days = el("select", { id: "vacation-days" }, ...Array.from({ length: Math.max(left, 0) }, (_, i) =>
    el("option", { value: String(i + 1) }, String(i + 1))));
  const away = vacation.away_until
    ? [el("p", { id: "vacation-state" }, t("vacation_until", new Intl.DateTimeFormat(lang, { dateStyle: "long", timeStyle: "short" }).format(new Date(vacation.away_until)))),
      el("button", { type: "button", id: "vacation-back", onclick: () => attempt(() => setVacation({ method: "DELETE" })) }, t("vacation_back"))]
    : [left >= 1 ? el("form", { id: "vacation-form", onsubmit: (event) => { event.preventDefault();
      attempt(() => setVacation({ method: "POST", body: JSON.stringify({ days: Number(days.value) }) })); } },
      el("p", { class: "field" }, el("label", { for: "vacation-days" }, t("vacation_days")), days),
      el("button", { type: "submit", id: "vacation-go" }, t("vacation_go"))) : null];
  return el("section", { id: "vacation", class: "card", "aria-labelledby": "vacation-title" },
    el("h3", { id: "vacation-title" }, t("vacation")),
    el("p", { class: "muted" }, t("vacation_help", vacation.days_per_year)),
    el("p", { id: "vacation-left" }, t(vacation.away_until ? "vacation_left_away" : "vacation_left", left)), ...away.filter(Boolean));
}

function hooksBox() {
  const host = (address) => { try { return new URL(address).host; } catch { return address; } };
  return el("section", { class: "card", "aria-labelledby": "hooks-title" },
    el("h3", { id: "hooks-title" }, t("hooks")),
    el("p", { class: "muted" }, t("hooks_help")),
    hooks.length
      ? el("ul", { class: "passkeys", id: "hooks" }, ...hooks.map((hook) => el("li", { class: "passkey" },
        el("span", { class: "passkey-label" }, host(hook.address)), " ",
        el("button", { type: "button", class: "remove", "aria-label": t("hook_remove_label", host(hook.address)),
          onclick: () => attempt(() => removeHook(hook)) }, t("remove")))))
      : el("p", { class: "muted" }, t("no_hooks")),
    el("form", { id: "add-hook", onsubmit: (event) => { event.preventDefault(); attempt(() => addHook($("hook-address").value)); } },
      field("hook-address", t("hook_address"), { type: "url", required: true, placeholder: "https://discord.com/api/webhooks/…" }),
      el("button", { type: "submit" }, t("add_hook"))));
}

async function signOut(path) {
  await api(path, { method: "DELETE" });
  account = null;
  render();
  say("");
}

async function deleteAccount() {
  await api("/api/account", { method: "DELETE" });
  account = null;
  render();
  say(t("deleted"));
}

function passkeyItem(key) {
  const used = key.used_at ? t("used", when(key.used_at)) : t("never_used");
  return el("li", { class: "passkey" },
    el("span", { class: "passkey-label" }, key.label), " ",
    el("span", { class: "muted" }, `${t("made", when(key.created_at))} · ${used}`), " ",
    el("button", { type: "button", class: "remove", "aria-label": t("remove_label", key.label), onclick: () => attempt(() => removePasskey(key)) }, t("remove")));
}

function deleteBox() {
  const confirm = el("button", { type: "button", class: "danger", id: "delete-confirm", hidden: true, onclick: () => attempt(deleteAccount) }, t("delete_confirm"));
  const warning = el("p", { class: "muted", id: "delete-warning", hidden: true }, t("delete_warn"));
  return el("div", { class: "delete" },
    el("button", { type: "button", id: "delete", onclick: (event) => { event.target.hidden = true; warning.hidden = false; confirm.hidden = false; confirm.focus(); } }, t("delete")),
    warning, confirm);
}

function signedIn() {
  const a = account;
  const languages = el("select", { id: "account-lang" },
    el("option", { value: "fr" }, t("lang_fr")), el("option", { value: "en" }, t("lang_en")));
  languages.value = a.lang;
  return [
    el("h2", {}, t("hello", a.name)),
    el("p", { class: "account-links" }, el("a", { href: "/", id: "my-games-link" }, t("my_games")), " · ",
      el("a", { href: `/players/${encodeURIComponent(a.name)}`, id: "public-page" }, t("public_page"))),
    el("section", { class: "card", "aria-labelledby": "profile-title" },
      el("h3", { id: "profile-title" }, t("profile")),
      el("form", { id: "profile", onsubmit: (event) => { event.preventDefault(); attempt(() => save({ name: $("account-name").value, lang: languages.value })); } },
        field("account-name", t("name"), { required: true, minlength: 3, maxlength: 24, value: a.name, autocomplete: "nickname" }),
        el("p", { class: "field" }, el("label", { for: "account-lang" }, t("language")), languages),
        el("button", { type: "submit" }, t("save")))),
    el("section", { class: "card", "aria-labelledby": "keys-title" },
      el("h3", { id: "keys-title" }, t("keys")),
      el("ul", { class: "passkeys", id: "passkeys" }, ...a.passkeys.map(passkeyItem)),
      passkeysAvailable() ? el("button", { type: "button", id: "add-passkey", onclick: () => attempt(addPasskey) }, t("add_key")) : null),
    !mailing && !a.email ? null : el("section", { class: "card", "aria-labelledby": "email-title" },
      el("h3", { id: "email-title" }, t("email")),
      a.email ? el("p", { id: "email" }, t("email_is", a.email))
        : el("form", { id: "add-email", onsubmit: (event) => { event.preventDefault(); attempt(() => sendLink($("address").value, (x) => t("email_sent", x))); } },
          el("p", { class: "muted" }, t("no_email")),
          field("address", t("address"), { type: "email", required: true, autocomplete: "email" }),
          el("button", { type: "submit" }, t("add_email")))),
    vacationBox(),
    hooksBox(),
    el("section", { class: "card", "aria-labelledby": "devices-title" },
      el("h3", { id: "devices-title" }, t("devices")),
      el("p", { id: "devices" }, t("devices_count", a.sessions)),
      el("p", { class: "ways" },
        el("button", { type: "button", id: "sign-out", onclick: () => attempt(() => signOut("/api/session")) }, t("sign_out")), " ",
        el("button", { type: "button", id: "sign-out-all", onclick: () => attempt(() => signOut("/api/sessions")) }, t("sign_out_all")))),
    el("section", { class: "card", "aria-labelledby": "data-title" },
      el("h3", { id: "data-title" }, t("data")),
      el("p", {}, el("a", { href: "/api/account/export", download: "kadesh-account.json", id: "export" }, t("export"))),
      deleteBox()),
  ];
}

function render() {
  document.documentElement.lang = lang;
  document.title = `${t("title")} · Kadesh`;
  $("home").textContent = t("home");
  $("lang").textContent = t("toggle");
  $("lang").lang = lang === "fr" ? "en" : "fr";
  $("account").replaceChildren(...(account ? signedIn() : signedOut()).filter(Boolean));
}

$("lang").addEventListener("click", () => {
  lang = lang === "fr" ? "en" : "fr";
  localStorage.setItem("kadesh.lang", lang);
  render();
});

const session = await fetch("/api/session").then((r) => r.json()).catch(() => ({}));
account = session.account ?? null;
if (account) hooks = await api("/api/account/webhooks").catch(() => []);
const mailing = session.email ?? false;  // the e-mail ways only where the server sends e-mail
render();
document.body.dataset.ready = "true";

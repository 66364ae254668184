// « Garder cette partie dans mon compte »: a signed-in player who opened a seat's link keeps the seat in their
// account, and plays it from any device without the link. Then they may cut the old link: a copy of it left
// in some browser's history no longer opens the seat. The server checks everything (claims, rotations).

import { el } from "./dom.js";

const TEXT = {
  fr: {
    offer: (n) => `Tu es connecté en tant que ${n}. Garde cette partie dans ton compte pour la retrouver sur tous tes appareils, sans ce lien.`,
    keep: "Garder cette partie dans mon compte",
    kept: "Cette partie est dans ton compte. Son lien marche encore : coupe-le pour qu'une copie restée dans un historique n'ouvre plus ton siège.",
    cut: "Couper l'ancien lien", done: "L'ancien lien ne marche plus : cette partie s'ouvre depuis ton compte.",
    dismiss: "Pas maintenant",
  },
  en: {
    offer: (n) => `You are signed in as ${n}. Keep this game in your account to find it on all your devices, without this link.`,
    keep: "Keep this game in my account",
    kept: "This game is in your account. Its link still works: cut it, so that a copy left in some history no longer opens your seat.",
    cut: "Cut the old link", done: "The old link works no more: this game opens from your account.",
    dismiss: "Not now",
  },
};

async function post(path, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method: "POST", headers });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(body.fr ?? response.statusText), { body });
  return body;
}

// ``game``: {id, token, seat, role, lang}; ``useAccount()``: the page drops the link and plays from the account.
export async function offerToKeep(section, game, useAccount, showError) {
  if (!game.token || !game.seat) return;
  const account = await fetch("/api/session").then((r) => r.json()).then((body) => body.account ?? null).catch(() => null);
  if (!account) return;
  const mine = await fetch("/api/account/games").then((r) => r.json().then((body) => (r.ok ? body : []))).catch(() => []);
  if (mine.some((g) => g.id === game.id && g.seat === game.seat)) {  // kept already: play from the account
    await useAccount();
    return;
  }
  const t = TEXT[game.lang] ?? TEXT.fr;
  const fail = (error) => showError(error.body?.[game.lang] ?? error.message);
  const cut = el("button", { type: "button", id: "cut-link", onclick: async () => {
    try {
      await post(`/api/games/${encodeURIComponent(game.id)}/tokens/${encodeURIComponent(game.seat)}`);
      section.replaceChildren(el("p", { role: "status" }, t.done));
    } catch (error) { fail(error); }
  } }, t.cut);
  const keep = el("button", { type: "button", class: "primary", id: "keep-game", onclick: async () => {
    try {
      await post(`/api/games/${encodeURIComponent(game.id)}/claim`, game.token);
      await useAccount();
      section.replaceChildren(el("p", { role: "status" }, t.kept), el("p", {}, cut));
    } catch (error) { fail(error); }
  } }, t.keep);
  const later = el("button", { type: "button", id: "keep-later", onclick: () => { section.hidden = true; } }, t.dismiss);
  section.replaceChildren(el("p", {}, t.offer(account.name)), el("p", { class: "ways" }, keep, " ", later));
  section.hidden = false;
}

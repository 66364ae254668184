// « Trouver un adversaire » (issue 42): the account waits for an opponent in a game and a time per move; the
// page says how long it has waited, looks again every few seconds (POST /api/pairing: the server pairs), and
// opens the game once it is made. The wait survives a reload: the server keeps the place (GET /api/pairing).

import { el } from "./dom.js";

const WORDS = {
  fr: {
    find: "Trouver un adversaire", cancel: "Annuler",
    waiting: (time) => `En attente d'un adversaire depuis ${time}…`,
    seconds: (n) => `${n} s`, minutes: (m, s) => `${m} min ${String(s).padStart(2, "0")} s`,
    help: "Une partie classée contre le joueur du niveau le plus proche qui attend le même jeu.",
  },
  en: {
    find: "Find an opponent", cancel: "Cancel",
    waiting: (time) => `Waiting for an opponent for ${time}…`,
    seconds: (n) => `${n} s`, minutes: (m, s) => `${m} min ${String(s).padStart(2, "0")} s`,
    help: "A rated game against the player of the nearest rating waiting for the same game.",
  },
};
const LOOK_AGAIN = 5000;  // milliseconds between two looks while waiting

let waitingFor = null;  // {ruleset, days, since}: this account's place, while it waits
let timer = null;
let onChange = () => {};
let currentLang = "fr";

function elapsed(since, lang) {
  const w = WORDS[lang] ?? WORDS.fr;
  const total = Math.max(0, Math.round((Date.now() - new Date(since).getTime()) / 1000));
  return total < 60 ? w.seconds(total) : w.minutes(Math.floor(total / 60), total % 60);
}

async function ask(method, body) {
  const response = await fetch("/api/pairing", {
    method, headers: { "Content-Type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer[currentLang] ?? response.statusText);
  return answer;
}

function follow(answer) {
  if (answer.status === "paired" && answer.game) {
    window.location.href = `/play/${encodeURIComponent(answer.game)}`;
    return;
  }
  waitingFor = answer.status === "waiting" ? { ruleset: answer.ruleset, days: answer.days_per_move, since: answer.since } : null;
  clearInterval(timer);
  if (waitingFor) {
    let ticks = 0;
    timer = setInterval(async () => {
      ticks += 1;
      if (ticks % (LOOK_AGAIN / 1000) === 0) follow(await ask("POST", { ruleset: waitingFor.ruleset, days_per_move: waitingFor.days }).catch(() => ({ status: "waiting", ...waitingFor })));
      onChange();
    }, 1000);
  }
  onChange();
}

// Resume a wait begun before this page was opened; ``changed()`` redraws the cards.
export async function resumePairing(changed) {
  onChange = changed;
  follow(await ask("GET").catch(() => ({ status: "idle" })));
}

// The card's line: the button, or the wait with its time and a way out.
export function pairingBox(ruleset, days, lang) {
  currentLang = lang;
  const w = WORDS[lang] ?? WORDS.fr;
  const error = el("span", { class: "card-error", role: "alert" });
  if (waitingFor?.ruleset === ruleset.name) {
    return el("p", { class: "pairing", id: `pairing-${ruleset.name}`, "data-waiting": "true" },
      el("span", { role: "status" }, w.waiting(elapsed(waitingFor.since, lang))), " ",
      el("button", { type: "button", onclick: async () => {
        await ask("DELETE").catch(() => null);
        follow(await ask("GET").catch(() => ({ status: "idle" })));
      } }, w.cancel));
  }
  return el("p", { class: "pairing", id: `pairing-${ruleset.name}` },
    el("button", { type: "button", id: `pair-${ruleset.name}`, disabled: Boolean(waitingFor), onclick: async () => {
      try {
        follow(await ask("POST", { ruleset: ruleset.name, days_per_move: days() }));
      } catch (problem) {
        error.textContent = problem.message;
      }
    } }, w.find), " ", el("span", { class: "muted" }, w.help), error);
}

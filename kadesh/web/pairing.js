// « Trouver un adversaire » (issue 42): the account waits for an opponent in a game and a time per move; the
// page says at which speed and how long it has waited, looks again every few seconds (POST /api/pairing: the
// server pairs), and opens the game once it is made. The wait survives a reload: the server keeps the place
// (GET /api/pairing). Where others wait (GET /api/pairing/waiting) is shown beside each speed, and while waiting,
// the speeds where others wait are offered: a player chooses one, nothing is changed for them.

import { el } from "./dom.js";

const SPEEDS = [1, 2, 3, 7, 14];  // days per move, as POST /api/pairing takes them
const WORDS = {
  fr: {
    title: "Contre un joueur de ton niveau", find: "Trouver un adversaire", cancel: "Annuler", speed: "Temps par coup",
    perMove: (days) => `${days === 1 ? "1 jour" : `${days} jours`} par coup`,
    someone: (n) => (n === 1 ? "1 joueur attend" : `${n} joueurs attendent`),
    waiting: (speed, time) => `En attente d'un adversaire à ${speed} depuis ${time}…`,
    elsewhere: (who, speed) => `${who} à ${speed}.`,
    goThere: (speed) => `Jouer à ${speed}`,
    seconds: (n) => `${n} s`, minutes: (m, s) => `${m} min ${String(s).padStart(2, "0")} s`,
    help: "Une partie classée contre le joueur du niveau le plus proche qui attend le même jeu, au même temps par coup.",
  },
  en: {
    title: "Against a player of your level", find: "Find an opponent", cancel: "Cancel", speed: "Time per move",
    perMove: (days) => `${days === 1 ? "1 day" : `${days} days`} per move`,
    someone: (n) => (n === 1 ? "1 player waits" : `${n} players wait`),
    waiting: (speed, time) => `Waiting for an opponent at ${speed} for ${time}…`,
    elsewhere: (who, speed) => `${who} at ${speed}.`,
    goThere: (speed) => `Play at ${speed}`,
    seconds: (n) => `${n} s`, minutes: (m, s) => `${m} min ${String(s).padStart(2, "0")} s`,
    help: "A rated game against the player of the nearest rating waiting for the same game, at the same time per move.",
  },
};
const LOOK_AGAIN = 5000;  // milliseconds between two looks while waiting

let waitingFor = null;  // {ruleset, days, since}: this account's place, while it waits
let others = [];  // [{ruleset, days_per_move, players}]: where other accounts wait
const chosen = {};  // the speed chosen on each game's card
let timer = null;
let onChange = () => {};
let currentLang = "fr";

function elapsed(since, lang) {
  const w = WORDS[lang] ?? WORDS.fr;
  const total = Math.max(0, Math.round((Date.now() - new Date(since).getTime()) / 1000));
  return total < 60 ? w.seconds(total) : w.minutes(Math.floor(total / 60), total % 60);
}

async function ask(method, body, path = "/api/pairing") {
  const response = await fetch(path, {
    method, headers: { "Content-Type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer[currentLang] ?? response.statusText);
  return answer;
}

async function lookWhoWaits() {
  others = await ask("GET", null, "/api/pairing/waiting").catch(() => others);
}

const waitersAt = (ruleset, days) => others.find((o) => o.ruleset === ruleset && o.days_per_move === days)?.players ?? 0;

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
      if (ticks % (LOOK_AGAIN / 1000) === 0) {
        await lookWhoWaits();
        follow(await ask("POST", { ruleset: waitingFor.ruleset, days_per_move: waitingFor.days }).catch(() => ({ status: "waiting", ...waitingFor })));
      }
      onChange();
    }, 1000);
  }
  onChange();
}

async function seek(ruleset, days) {
  follow(await ask("POST", { ruleset, days_per_move: days }));
}

// Resume a wait begun before this page was opened, and learn where others wait; ``changed()`` redraws the cards.
export async function resumePairing(changed) {
  onChange = changed;
  await lookWhoWaits();
  follow(await ask("GET").catch(() => ({ status: "idle" })));
}

// The card's line: the speed and the button, or the wait with its speed, its time, the speeds where others wait
// and a way out.
export function pairingBox(ruleset, lang) {
  currentLang = lang;
  const w = WORDS[lang] ?? WORDS.fr;
  const error = el("span", { class: "card-error", role: "alert" });
  const name = ruleset.name;
  if (waitingFor?.ruleset === name) {
    const elsewhere = SPEEDS.filter((days) => days !== waitingFor.days && waitersAt(name, days) > 0).map((days) =>
      el("span", { class: "pairing-elsewhere" }, w.elsewhere(w.someone(waitersAt(name, days)), w.perMove(days)), " ",
        el("button", { type: "button", "data-days": String(days), onclick: async () => {
          try {
            await ask("DELETE");
            await seek(name, days);
          } catch (problem) {  // paired meanwhile: the game waits
            error.textContent = problem.message;
            follow(await ask("GET").catch(() => ({ status: "idle" })));
          }
        } }, w.goThere(w.perMove(days)))));
    return el("div", { class: "pairing", id: `pairing-${name}`, "data-waiting": "true" }, el("h4", {}, w.title),
      el("p", {}, el("span", { role: "status" }, w.waiting(w.perMove(waitingFor.days), elapsed(waitingFor.since, lang))), " ",
        el("button", { type: "button", onclick: async () => {
          await ask("DELETE").catch(() => null);
          follow(await ask("GET").catch(() => ({ status: "idle" })));
        } }, w.cancel)),
      ...elsewhere.map((line) => el("p", {}, line)), error);
  }
  const mostWaited = SPEEDS.reduce((best, days) => (waitersAt(name, days) > waitersAt(name, best) ? days : best), SPEEDS[0]);
  const speedId = `pair-days-${name}`;
  const speed = el("select", { id: speedId, onchange: (event) => { chosen[name] = Number(event.target.value); } },
    ...SPEEDS.map((days) => el("option", { value: String(days) },
      waitersAt(name, days) ? `${w.perMove(days)} · ${w.someone(waitersAt(name, days))}` : w.perMove(days))));
  speed.value = String(chosen[name] ?? mostWaited);
  return el("div", { class: "pairing", id: `pairing-${name}` }, el("h4", {}, w.title),
    el("p", {}, el("label", { for: speedId }, w.speed), " ", speed, " ",
      el("button", { type: "button", id: `pair-${name}`, disabled: Boolean(waitingFor), onclick: async () => {
        try {
          await seek(name, Number(speed.value));
        } catch (problem) {
          error.textContent = problem.message;
        }
      } }, w.find)),
    el("p", { class: "muted" }, w.help), error);
}

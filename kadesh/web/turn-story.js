// A stretch of play told step by step, at the top of the board (issue 59: a Bataille turn's fights came in one
// burst, the first of them scrolled away in the journal; Front's « Pendant le tour » tells the other side's turn the
// same way, from the journal's marks). The lines are the journal's and the cuts are the server's marks
// (``Ruleset.marks``): nothing is worked out here. A ruleset's page asks ``storySince`` for the stretch and draws it
// with ``storyBox``.

import { el } from "/static/dom.js";

const WORDS = {
  fr: { previous: "Précédent", next: "Suivant", close: "Compris", at: (n, of) => `${n} sur ${of}` },
  en: { previous: "Previous", next: "Next", close: "Got it", at: (n, of) => `${n} of ${of}` },
};

// The journal's entries from the last one marked ``start`` (up to one marked ``end``), cut before each entry
// marked ``step``; null when no entry is marked ``start``. ``from`` is the index of that entry in the journal.
export function storySince(journal, { start, step, end }) {
  let from = -1;
  journal.forEach((entry, index) => { if (entry.mark?.kind === start) from = index; });
  if (from < 0) return null;
  const steps = [[journal[from]]];
  for (const entry of journal.slice(from + 1)) {
    if (entry.mark?.kind === end) break;
    if (entry.mark?.kind === step && steps.at(-1).length) steps.push([]);
    steps.at(-1).push(entry);
  }
  return { from, version: journal[from].version, steps };
}

// One step of the story at a time: its title, its lines, the way to the step before and after, and « Compris ».
export function storyBox({ title, steps, at, lang, stepTitle, onStep, onClose }) {
  const t = WORDS[lang === "en" ? "en" : "fr"];
  const step = steps[at];
  return el("section", { class: "turn-story card", role: "status", "aria-label": title, "data-step": String(at) },
    el("h2", {}, title),
    el("h3", { class: "turn-story-step" }, `${stepTitle(step)} · ${t.at(at + 1, steps.length)}`),
    el("ul", { class: "turn-story-lines" }, ...step.map((entry) => el("li", {}, entry.line))),
    el("p", { class: "turn-story-actions" },
      el("button", { type: "button", class: "turn-story-previous", disabled: at === 0 ? true : null,
        onclick: () => onStep(at - 1) }, t.previous), " ",
      el("button", { type: "button", class: "turn-story-next primary", disabled: at >= steps.length - 1 ? true : null,
        onclick: () => onStep(at + 1) }, t.next), " ",
      el("button", { type: "button", class: "turn-story-close", onclick: onClose }, t.close)));
}

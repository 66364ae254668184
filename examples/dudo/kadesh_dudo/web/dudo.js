// Dudo's view for the game page: your cup, the other's hidden one, the bid, and what you may do now.
// Everything comes from the view and the legal actions the server sends: no rule is worked out here.

import { el } from "/static/dom.js";

const FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const T = {
  fr: {
    seat: { north: "Nord", south: "Sud" }, you: "Ton gobelet", other: (s) => `Gobelet du ${s}`,
    hidden: (n) => `${n} dé${n > 1 ? "s" : ""} caché${n > 1 ? "s" : ""}`, round: (n) => `Manche ${n}`,
    noBid: "Pas encore d'annonce.", bid: (s, q, f) => `${s} annonce : au moins ${q} × ${f}`,
    shake: "Secouer les gobelets", quantity: "Combien de dés", face: "Quelle face", say: "Annoncer",
    dudo: "Dudo !", wait: (s) => `Au ${s} de jouer.`, yourTurn: "À toi.", over: "Partie finie.",
    die: (v) => `dé : ${v}`, pick: "Choisis une face.",
  },
  en: {
    seat: { north: "North", south: "South" }, you: "Your cup", other: (s) => `${s}'s cup`,
    hidden: (n) => `${n} hidden ${n > 1 ? "dice" : "die"}`, round: (n) => `Round ${n}`,
    noBid: "No bid yet.", bid: (s, q, f) => `${s} bids: at least ${q} × ${f}`,
    shake: "Shake the cups", quantity: "How many dice", face: "Which face", say: "Bid",
    dudo: "Dudo!", wait: (s) => `${s} to play.`, yourTurn: "Your turn.", over: "Game over.",
    die: (v) => `die: ${v}`, pick: "Pick a face.",
  },
};

export function seatName(_view, seat, lang) {  // the game page calls seatName(view, seat, lang)
  return T[lang].seat[seat] ?? seat;
}

let chosenFace = null;  // the face picked for the next bid, kept across redraws

function die(value, lang) {
  return el("span", { class: "die", role: "img", "aria-label": T[lang].die(value) }, FACES[value]);
}

function bidControls(legal, act, lang) {
  const t = T[lang];
  const bids = legal.filter((a) => a.type === "bid");
  if (!bids.length) return null;
  const faces = [...new Set(bids.map((a) => a.face))].sort();
  if (!faces.includes(chosenFace)) chosenFace = null;
  const quantities = [...new Set(bids.filter((a) => chosenFace === null || a.face === chosenFace)
    .map((a) => a.quantity))].sort((a, b) => a - b);
  const quantity = el("select", { id: "dudo-quantity", "aria-label": t.quantity },
    ...quantities.map((q) => el("option", { value: String(q) }, String(q))));
  const faceButtons = el("span", { class: "faces", role: "group", "aria-label": t.face },
    ...faces.map((f) => el("button", { type: "button", "data-face": String(f), "aria-pressed": String(f === chosenFace),
      "aria-label": `${t.face} ${f}`, onclick: () => { chosenFace = f; redraw(); } }, FACES[f])));
  const say = el("button", { type: "button", id: "dudo-bid", class: "primary", disabled: chosenFace === null,
    onclick: () => act({ type: "bid", quantity: Number(quantity.value), face: chosenFace }) }, t.say);
  return el("div", { class: "controls" }, quantity, faceButtons, say, chosenFace === null ? el("span", { class: "status" }, t.pick) : null);
}

let redraw = () => {};

export function render(root, ctx) {
  const { view, seat, legal, lang, act } = ctx;
  redraw = () => render(root, ctx);
  const t = T[lang];
  const other = seat === "south" ? "north" : "south";
  const mine = seat ? el("section", { "aria-label": t.you }, el("h2", {}, t.you),
    el("div", { class: "cup" }, ...(view.my_dice.length ? view.my_dice.map((v) => die(v, lang))
      : [el("span", { class: "status" }, t.hidden(view.counts[seat]))]))) : null;
  const hiddenCup = (who) => el("section", {}, el("h2", {}, t.other(seatName(view, who, lang))),
    el("div", { class: "cup" }, el("span", { class: "die hidden", "aria-hidden": "true" }, "▣".repeat(view.counts[who])),
      el("span", { class: "status" }, t.hidden(view.counts[who]))));
  const theirs = seat ? [hiddenCup(other)] : [hiddenCup("north"), hiddenCup("south")];  // a spectator sees no cup
  const bid = view.bid ? t.bid(seatName(view, view.bidder, lang), view.bid[0], FACES[view.bid[1]]) : t.noBid;
  const whose = view.phase === "over" ? t.over : view.to_act === seat ? t.yourTurn : t.wait(seatName(view, view.to_act, lang));
  const actions = [];
  if (legal.some((a) => a.type === "roll")) {
    actions.push(el("button", { type: "button", id: "dudo-roll", class: "primary", onclick: () => act({ type: "roll" }) }, t.shake));
  }
  const controls = bidControls(legal, act, lang);
  if (controls) actions.push(controls);
  if (legal.some((a) => a.type === "dudo")) {
    actions.push(el("button", { type: "button", id: "dudo-call", onclick: () => act({ type: "dudo" }) }, t.dudo));
  }
  root.replaceChildren(el("div", { class: "dudo" },
    el("p", { class: "status" }, `${t.round(view.round)} · ${whose}`),
    mine, ...theirs, el("p", { class: "bid", "aria-live": "polite" }, bid), ...actions));
}

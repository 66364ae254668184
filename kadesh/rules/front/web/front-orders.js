// Front's orders bar: what the chosen unit may do, each order a button with its cost in action points (from the
// glossary), and what a second click gives: a move's way and cost, a shot's odds with one button a weapon, an
// order's cell. The words are the page's; the figures are the server's (previews, odds, legal actions).
//
//   ordersBar(page) → elements, where page = { lang, glossary, view, seat, legal, busy, myTurn, outcome, unit,
//     pending, choosing, ask(kind, action), play(action), confirm(), cancel(), aim(cell, layer), choose(group) }

import { el } from "/static/dom.js";
import { WORDS, namer, pct } from "/static/rules/front-panel.js";

export const FIRE = new Set(["shoot", "bomb", "strike"]);
// Orders given on a cell chosen on the map: the button opens the choice, the map shows the cells.
const ON_A_CELL = { unload: "to", launch: "to", build: "cell", demine: "cell", lay_mine: "cell", clear: "cell" };

export const ORDER_WORDS = {
  fr: {
    orders: "Ordres", ap: (n) => `${n} PA`, fuel: (n) => `${n} carburant`, apLeft: (n) => `il restera ${n} PA`,
    pick: ["Choisis une de tes unités sur la carte.", "Au clavier : flèches puis Entrée ; Tab sur la carte : fin du tour."],
    waiting: (s) => `Au tour du ${s} : la carte montre ce que voient tes unités.`, over: "La bataille est finie.",
    selected: (name, ap) => `${name} · ${ap} PA`,
    hint: "Cases claires : où aller. Cibles cerclées de rouge : où tirer. Pointe pour voir le coût ou les chances, clique deux fois pour ordonner.",
    spent: "Cette unité n'a plus d'ordre à recevoir ce tour.", deselect: ["Désélectionner", "Échap"],
    moveTo: (cell) => `Aller en ${cell}`, confirm: ["Confirmer", "Entrée"], cancel: ["Annuler", "Échap"],
    again: "Clique une seconde fois sur la case, ou Entrée, pour confirmer.",
    refused: "Ce chemin n'est plus possible.", asking: "Calcul…",
    target: (name) => `Cible : ${name}`, targetCell: (cell) => `Cible : l'ouvrage en ${cell}`, targets: "Cibles",
    fire: { shoot: (w) => (w ? `Tirer (${w})` : "Tirer"), bomb: () => "Larguer la bombe", strike: () => "Foncer dessus (le drone est perdu)" },
    air: "en vol", structure: (cell) => `Ouvrage en ${cell}`,
    damage: (a, b) => (a === b ? `${a} dégât${a > 1 ? "s" : ""}` : `${a} à ${b} dégâts`),
    destroy: (p) => `${p} de le détruire`, cover: (n, general) => (general ? `couvert ${n} (dont 1 : son général proche)` : `couvert ${n}`), hp: (n) => `il a ${n} PV`,
    toStructure: "à l'ouvrage (ses points de vie ne te sont pas connus)",
    blast: "Éclats", friendBlast: "Éclats sur tes unités", blastOn: (name, text) => `${name} : ${text}`,
    choose: (label) => `${label} : choisis la case sur la carte.`, orderAt: (label, cell) => `${label} en ${cell}`,
    order: {
      board: (a, n) => `Monter dans ${n.theUnit(a.truck)}`, resupply: (a, n) => `Ravitailler ${n.theUnit(a.target)}`,
      unload: (a, n) => `Décharger ${n.theUnit(a.passenger)}`, launch: (a, n) => `Faire décoller ${n.theUnit(a.drone)}`,
      build: (a, n) => `Construire : ${n.structure(a.kind)}`, clear: () => "Déblayer une carcasse", demine: () => "Déminer",
      lay_mine: () => "Poser une mine", alert: () => "Se mettre en alerte", patrol: (_a, _n, u) => `Patrouiller autour de ${u.cell}`,
      end_patrol: () => "Cesser la patrouille", recover: () => "Se poser près de son droniste",
      land: (_a, _n, u) => `Se poser en ${u.cell}`, jam: () => "Brouiller les drones ennemis alentour",
    },
    endTurn: ["Fin du tour", "Tab"], endTitle: "Finir le tour ?",
    endText: (n) => (n === 1 ? "Une unité peut encore agir :" : `${n} unités peuvent encore agir :`),
    more: (n) => `et ${n} autre${n > 1 ? "s" : ""}`, endYes: "Finir le tour", endNo: "Continuer à ordonner",
    resign: "Abandonner", resignTitle: "Abandonner la bataille ?", resignText: (s) => `Le ${s} l'emportera.`,
    resignYes: "Oui, abandonner", resignNo: "Non, continuer",
    busy: "Ordre en cours…",
  },
  en: {
    orders: "Orders", ap: (n) => `${n} AP`, fuel: (n) => `${n} fuel`, apLeft: (n) => `${n} AP will be left`,
    pick: ["Choose one of your units on the map.", "With the keyboard: arrow keys then Enter; Tab on the map: end the turn."],
    waiting: (s) => `${s} to play: the map shows what your units see.`, over: "The battle is over.",
    selected: (name, ap) => `${name} · ${ap} AP`,
    hint: "Light cells: where to go. Targets ringed in red: what to fire at. Point to see the cost or the odds, click twice to give the order.",
    spent: "This unit has no order left this turn.", deselect: ["Deselect", "Escape"],
    moveTo: (cell) => `Move to ${cell}`, confirm: ["Confirm", "Enter"], cancel: ["Cancel", "Escape"],
    again: "Click the cell a second time, or Enter, to confirm.",
    refused: "That way is no longer open.", asking: "Working it out…",
    target: (name) => `Target: ${name}`, targetCell: (cell) => `Target: the structure at ${cell}`, targets: "Targets",
    fire: { shoot: (w) => (w ? `Fire (${w})` : "Fire"), bomb: () => "Drop the bomb", strike: () => "Dive onto it (the drone is spent)" },
    air: "in flight", structure: (cell) => `Structure at ${cell}`,
    damage: (a, b) => (a === b ? `${a} damage` : `${a} to ${b} damage`),
    destroy: (p) => `${p} chance of destroying it`, cover: (n, general) => (general ? `cover ${n} (1 of it: its general nearby)` : `cover ${n}`), hp: (n) => `it has ${n} HP`,
    toStructure: "to the structure (its hit points are not yours to know)",
    blast: "Blast", friendBlast: "Blast on your own units", blastOn: (name, text) => `${name}: ${text}`,
    choose: (label) => `${label}: choose the cell on the map.`, orderAt: (label, cell) => `${label} at ${cell}`,
    order: {
      board: (a, n) => `Board ${n.theUnit(a.truck)}`, resupply: (a, n) => `Resupply ${n.theUnit(a.target)}`,
      unload: (a, n) => `Unload ${n.theUnit(a.passenger)}`, launch: (a, n) => `Send up ${n.theUnit(a.drone)}`,
      build: (a, n) => `Build: ${n.structure(a.kind)}`, clear: () => "Clear a carcass", demine: () => "Demine",
      lay_mine: () => "Lay a mine", alert: () => "Go on alert", patrol: (_a, _n, u) => `Patrol around ${u.cell}`,
      end_patrol: () => "End the patrol", recover: () => "Land by its operator",
      land: (_a, _n, u) => `Land at ${u.cell}`, jam: () => "Jam the enemy drones around",
    },
    endTurn: ["End turn", "Tab"], endTitle: "End the turn?",
    endText: (n) => (n === 1 ? "One unit may still act:" : `${n} units may still act:`),
    more: (n) => `and ${n} more`, endYes: "End the turn", endNo: "Keep giving orders",
    resign: "Resign", resignTitle: "Resign the battle?", resignText: (s) => `${s} will win.`,
    resignYes: "Yes, resign", resignNo: "No, play on",
    busy: "Order on its way…",
  },
};

export const layerOf = (action) => (action.at === "air" ? "air" : action.at === "structure" ? "structure" : "ground");
export const actionKey = (action) => JSON.stringify(Object.entries(action).sort());
// A button's words and the key that does the same, the key left out where there is no keyboard (a phone).
export const keyed = ([label, keyName]) => [label, el("span", { class: "front-key" }, ` (${keyName})`)];

// « 2 PA · 2 carburant »: a move's cost, its fuel for a unit that burns some.
export function costText(lang, preview, unit) {
  if (!preview) return "";
  const t = ORDER_WORDS[lang];
  return [t.ap(preview.ap), unit?.fuel != null ? t.fuel(preview.fuel) : null].filter(Boolean).join(" · ");
}

// « 4 à 6 dégâts · 30 % de le détruire · couvert 1 (· il a 6 PV) »; the cover says when the target's general gives
// some (the cell's card tells the ground's and the works' only).
export function oddsText(lang, odds, short = false) {
  const t = ORDER_WORDS[lang];
  const [low, high] = odds.damage;
  if (odds.kind === "structure") return `${t.damage(low, high)} ${short ? "" : t.toStructure}`.trim();
  const parts = [t.damage(low, high), t.destroy(pct(lang, odds.destroy)), t.cover(odds.cover, odds.reassured)];
  if (!short) parts.push(t.hp(odds.hp));
  return parts.join(" · ");
}

// -- the bar ---------------------------------------------------------------------------------------------------
export function ordersBar(page) {
  const t = ORDER_WORDS[page.lang];
  const n = namer(page.lang, page.glossary);
  const units = page.view.units ?? [];
  const unitById = (id) => units.find((u) => u.id === id);
  const actionsOf = (id) => page.legal.filter((a) => a.unit === id);
  const costOf = (action) => (FIRE.has(action.type) ? page.glossary.units?.[unitById(action.unit)?.type]?.shot_cost
    : page.glossary.orders?.[action.type]);
  const enemyAt = (cell, layer) => units.find((u) => u.side !== page.seat && u.cell === cell && Boolean(u.flying) === (layer === "air"));

  function orderButton(label, action, extra = {}) {
    const cost = costOf(action);
    return el("button", { type: "button", class: "front-order", "data-order": action.type,
      "data-key": extra.key ?? actionKey(action), disabled: page.busy, onclick: extra.onclick ?? (() => page.play(action)),
      ...(extra.attrs ?? {}) },
    el("span", {}, ...[label].flat()), cost != null ? el("span", { class: "front-cost" }, t.ap(cost)) : null);
  }

  function content() {
    const { outcome, busy, pending, choosing, unit } = page;
    if (outcome) return [el("p", {}, t.over)];
    if (busy) return [el("p", { class: "front-busy" }, t.busy)];
    if (!page.myTurn) return [el("p", { class: "muted" }, page.seat ? t.waiting(n.side(page.view.active)) : "")];
    if (!unit) return [el("p", { class: "muted" }, t.pick[0], el("span", { class: "front-key" }, ` ${t.pick[1]}`))];
    const head = el("p", { class: "front-selected" }, el("strong", {}, t.selected(n.unit(unit), unit.ap ?? 0)));
    const back = el("button", { type: "button", class: "front-cancel", "data-key": "cancel", onclick: page.cancel },
      ...keyed(pending || choosing ? t.cancel : t.deselect));
    if (pending?.kind === "move") {
      const answer = page.ask("preview", pending.action);
      const text = answer.value ? `${costText(page.lang, answer.value, unit)} · ${t.apLeft(answer.value.ap_left)}`
        : answer.error ? t.refused : t.asking;
      return [head, el("p", { class: "front-pending" }, el("strong", {}, t.moveTo(pending.cell)), ` · ${text}`),
        el("p", { class: "muted front-again" }, t.again),
        el("div", { class: "front-buttons" }, el("button", { type: "button", class: "primary", id: "front-confirm",
          "data-key": "confirm", disabled: !answer.value, onclick: page.confirm }, ...keyed(t.confirm)), back)];
    }
    if (pending?.kind === "aim") return [head, ...aimContent(pending), el("div", { class: "front-buttons" }, back)];
    if (pending?.kind === "order") {
      return [head, el("p", { class: "front-pending" }, el("strong", {}, t.orderAt(pending.label, pending.cell))),
        el("p", { class: "muted front-again" }, t.again),
        el("div", { class: "front-buttons" }, orderButton(keyed(t.confirm), pending.action,
          { key: "confirm", attrs: { class: "front-order primary", id: "front-confirm" } }), back)];
    }
    if (choosing) return [head, el("p", { class: "front-pending" }, t.choose(choosing.label)), el("div", { class: "front-buttons" }, back)];
    const actions = actionsOf(unit.id);
    if (!actions.length) return [head, el("p", { class: "muted" }, t.spent), el("div", { class: "front-buttons" }, back)];
    const targetButtons = targetsOf(unit.id).map(({ cell, layer, label }) => el("button", { type: "button",
      class: "front-target", "data-key": `target:${cell}:${layer}`, "data-target": cell, disabled: busy,
      onclick: () => page.aim(cell, layer) }, label));
    return [head, el("p", { class: "muted front-hint" }, t.hint),
      targetButtons.length ? el("div", { class: "front-buttons front-targets", role: "group", "aria-label": t.targets },
        ...targetButtons) : null,
      el("div", { class: "front-buttons front-orders" }, ...otherOrders(unit), back)];
  }

  function targetsOf(id) {
    const seen = new Map();
    for (const a of actionsOf(id).filter((f) => FIRE.has(f.type))) {
      const layer = layerOf(a);
      const where = `${a.target}:${layer}`;
      if (seen.has(where)) continue;
      const enemy = enemyAt(a.target, layer);
      const label = layer === "structure" ? t.structure(a.target) : enemy ? n.unit(enemy) : a.target;
      seen.set(where, { cell: a.target, layer, label });
    }
    return [...seen.values()];
  }

  function aimContent(aim) {
    const first = aim.options[0];
    const enemy = enemyAt(aim.cell, layerOf(first));
    const title = layerOf(first) === "structure" || !enemy ? t.targetCell(aim.cell) : t.target(n.unit(enemy));
    const spec = page.glossary.units?.[unitById(first.unit)?.type];
    const rows = aim.options.map((a, index) => {
      const weapon = a.weapon ?? spec?.weapons?.[0]?.id;
      const weaponName = weapon && weapon !== "main" ? n.weapon(weapon) : "";
      const target = enemyAt(a.target, layerOf(a));
      const whom = layerOf(a) === "structure" ? t.structure(a.target) : target ? n.unit(target) : a.target;
      const label = `${t.fire[a.type](weaponName)}${aim.options.length > 1 && layerOf(a) !== layerOf(first) ? ` · ${whom}` : ""}`;
      const answer = page.ask("odds", a);
      const odds = answer.value;
      const blast = (odds?.blast ?? []).filter((b) => b.damage[1] > 0);
      const friends = blast.filter((b) => b.friend);
      const foes = blast.filter((b) => !b.friend);
      const blastName = (b) => {
        const hit = units.find((u) => u.cell === b.cell && !u.flying && !u.aboard);
        return hit ? n.unit(hit) : b.cell;
      };
      const blastLine = (list, title, cls) => (list.length ? el("p", { class: cls }, `${title}${WORDS[page.lang].colon}`,
        list.map((b) => t.blastOn(blastName(b), oddsText(page.lang, b, true))).join(page.lang === "fr" ? " ; " : "; ")) : null);
      return el("div", { class: `front-aim${index === 0 ? " chosen" : ""}` },
        orderButton(label, a, { attrs: index === 0 ? { id: "front-confirm", class: "front-order primary" } : {} }),
        el("p", { class: "front-odds" }, odds ? oddsText(page.lang, odds) : answer.error ?? t.asking),
        blastLine(friends, t.friendBlast, "front-blast warn"), blastLine(foes, t.blast, "front-blast"));
    });
    return [el("p", { class: "front-pending" }, el("strong", {}, title)), ...rows, el("p", { class: "muted front-again" }, t.again)];
  }

  function otherOrders(unit) {
    const others = actionsOf(unit.id).filter((a) => a.type !== "move" && !FIRE.has(a.type));
    const who = { theUnit: (id) => (unitById(id) ? n.theUnit(unitById(id)) : ""), structure: n.structure };
    const label = (a) => t.order[a.type]?.(a, who, unit) ?? "";
    const groups = new Map();  // orders on a cell: one button per kind of order, then the cell on the map
    const buttons = [];
    for (const a of others) {
      const field = ON_A_CELL[a.type];
      if (!field) {
        buttons.push(orderButton(label(a), a));
        continue;
      }
      const group = `${a.type}:${a.passenger ?? a.drone ?? a.kind ?? ""}`;
      if (!groups.has(group)) groups.set(group, { label: label(a), actions: new Map(), first: a });
      groups.get(group).actions.set(a[field], a);
    }
    for (const [group, { label: text, actions, first }] of groups) {
      if (actions.size === 1) {
        const [[cell, a]] = actions;
        buttons.push(orderButton(t.orderAt(text, cell), a));
      } else {
        buttons.push(orderButton(text, first, { key: `group:${group}`,
          onclick: () => page.choose({ label: text, actions }) }));
      }
    }
    return buttons;
  }

  return content().filter(Boolean);
}

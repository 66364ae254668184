// Royaumes: Imhotep's console. He sees every kingdom's secret figures and the orders received,
// and may adjudicate now, set the deadline, suspend or restore alliances, edit a kingdom's values,
// overrule a result with a reason, and end the campaign. Every act asks for confirmation first.

import { el } from "/static/dom.js";
import { T, seatName, resourceName, stuff, when, localIso } from "/static/rules/royaumes-text.js";
import { orderLines, jsonOf } from "/static/rules/royaumes-orders.js";

let asking = null;  // the act waiting for confirmation: {label, action}

const field = (label, control) => el("label", { class: "field" }, el("span", {}, label), control);

export function consolePanel(root, ctx, redraw) {
  const { view, lang } = ctx;
  const t = T[lang];
  // The question comes where the eyes are (it sits at the console's top, often off-screen from the button
  // pressed), and what was typed in the console's fields is still there under it (issue 44, point 4).
  const ask = (label, action) => {
    const typed = [...root.querySelectorAll(".console-side input, .console-side select")].map((node) => [node.id, node.value]);
    asking = { label, action };
    redraw();
    for (const [id, typedValue] of typed) {
      const node = id && root.querySelector(`#${CSS.escape(id)}`);
      if (node) node.value = typedValue;
    }
    const confirm = root.querySelector("#confirm");
    confirm?.scrollIntoView({ block: "center" });
    confirm?.focus({ preventScroll: true });
  };
  const value = (id) => root.querySelector(`#${id}`)?.value ?? "";
  const reason = () => value("reason");
  const name = (k) => seatName(view, k, lang);
  const confirmBox = asking ? el("div", { class: "confirm", role: "alertdialog", "aria-labelledby": "confirm-text" },
    el("p", { id: "confirm-text" }, t.sure(asking.label)),
    el("button", { type: "button", id: "confirm", class: "primary", onclick: async () => { const { action } = asking; asking = null; await ctx.act(action); } }, t.confirm), " ",
    el("button", { type: "button", id: "cancel", onclick: () => { asking = null; redraw(); } }, t.cancel)) : null;

  const rows = view.kingdoms.map((k) => {
    const secret = view.secrets[k.id];
    const orders = secret.orders ? orderLines(view, { type: "orders", ...jsonOf(secret.orders) }, lang).join(" · ") || "—" : t.notYet;
    return el("tr", { "data-kingdom": k.id }, el("th", { scope: "row" }, k.names[lang]), el("td", {}, String(secret.military_level)),
      el("td", {}, String(secret.population)), el("td", {}, String(secret.guild_level)), el("td", {}, stuff(view, secret.resources, lang)),
      el("td", { class: "orders-cell" }, orders));
  });
  const kingdomSelect = (id) => el("select", { id }, ...view.kingdoms.map((k) => el("option", { value: k.id }, k.names[lang])));
  const fields = [["military_level", t.level], ["population", t.population], ["guild_level", t.guild],
    ...Object.keys(view.resources).map((r) => [`resources.${r}`, resourceName(view, r, lang)])];
  const alliances = ctx.legal.filter((a) => a.type === "suspend_alliance" || a.type === "restore_alliance");
  const allianceLabel = (a) => `${a.type === "suspend_alliance" ? t.suspend : t.restore}${t.sep}${a.kingdoms.map(name).join(" – ")}`;

  return el("div", { class: "side console-side" },
    el("h2", {}, t.console), confirmBox,
    el("section", { class: "card" }, el("h3", {}, t.secretsTitle),
      el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": t.secretsTitle }, el("table", { class: "secrets" },
        el("thead", {}, el("tr", {}, ...[t.kingdoms, t.level, t.population, t.guild, t.resources, t.ordersOf].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, ...rows)))),
    el("section", { class: "card" }, el("h3", {}, t.turnTitle),
      el("button", { type: "button", id: "adjudicate", class: "primary", onclick: () => ask(t.adjudicate, { type: "adjudicate" }) }, t.adjudicate),
      el("div", { class: "deadline" },
        field(t.deadlineAt, el("input", { type: "datetime-local", id: "deadline-at" })),
        el("button", { type: "button", id: "set-deadline", onclick: () => {
          const at = value("deadline-at");
          if (at) ask(`${t.setDeadline}${t.sep}${when(localIso(at), lang)}`, { type: "set_deadline", deadline: localIso(at) });
        } }, t.setDeadline), " ",
        el("button", { type: "button", id: "clear-deadline", onclick: () => ask(t.clearDeadline, { type: "set_deadline", deadline: null }) }, t.clearDeadline))),
    el("section", { class: "card" }, el("h3", {}, t.alliancesTitle),
      alliances.length ? el("div", {}, ...alliances.map((a) => el("button", { type: "button", class: "alliance",
        onclick: () => ask(allianceLabel(a), { ...a, reason: reason() }) }, allianceLabel(a))))
        : el("p", { class: "muted" }, t.noAlliance)),
    el("section", { class: "card" }, el("h3", {}, t.edit),
      el("div", { class: "edit" },
        field(t.editKingdom, kingdomSelect("edit-kingdom")),
        field(t.editField, el("select", { id: "edit-field" }, ...fields.map(([v, l]) => el("option", { value: v }, l)))),
        field(t.editValue, el("input", { type: "number", min: "0", id: "edit-value" })),
        el("button", { type: "button", id: "edit-apply", onclick: () => {
          const chosen = value("edit-field");
          if (value("edit-value") === "") return;
          const amount = Number(value("edit-value"));
          const values = chosen.startsWith("resources.") ? { resources: { [chosen.slice(10)]: amount } } : { [chosen]: amount };
          const label = fields.find(([v]) => v === chosen)?.[1] ?? "";
          ask(t.editWhat(label, name(value("edit-kingdom")), amount), { type: "edit", kingdom: value("edit-kingdom"), values, reason: reason() });
        } }, t.apply))),
    el("section", { class: "card" }, el("h3", {}, t.override),
      field(t.reason, el("input", { id: "reason", size: "30" })),
      el("p", { class: "muted" }, t.overrideHelp),
      el("div", { class: "override" },
        field(t.editKingdom, kingdomSelect("override-kingdom")),
        field(t.cell, el("input", { id: "override-cell", size: "5", placeholder: "C4" })),
        field(t.count, el("input", { type: "number", min: "0", id: "override-count", value: "0" })),
        el("button", { type: "button", id: "override-apply", onclick: () => {
          const cell = value("override-cell").trim().toUpperCase();
          const count = Number(value("override-count"));
          ask(t.overrideWhat(name(value("override-kingdom")), cell, count), { type: "override", reason: reason(),
            armies: [{ kingdom: value("override-kingdom"), cell, count }] });
        } }, t.apply))),
    el("section", { class: "card" }, el("h3", {}, t.endTitle),
      el("button", { type: "button", id: "end-campaign", onclick: () => ask(t.end, { type: "end_campaign", winner: null, reason: reason() }) }, t.end)));
}

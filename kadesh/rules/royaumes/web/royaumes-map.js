// Royaumes' campaign map in SVG, and its legend: land and water with their names, the Nile and
// its Delta, cities named on the map, armies as counters, a tooltip on every cell, city and army.

import { el, columnName, parseMapCell } from "/static/dom.js";
import { T, colourOf, seatName } from "/static/rules/royaumes-text.js";

const CELL = 30;
const MARGIN = 22;

const centre = (name) => { const [x, y] = parseMapCell(name); return [MARGIN + x * CELL + CELL / 2, MARGIN + y * CELL + CELL / 2]; };

// Each water cell's name (the sea or lake its label sits in), found by spreading from the label.
function waterNames(view, lang) {
  const { width, height, rows, features = [] } = view.map;
  const names = {};
  for (const feature of features) {
    if (feature.kind === "river" || !feature.label) continue;
    const queue = [parseMapCell(feature.label)];
    while (queue.length) {
      const [x, y] = queue.pop();
      const key = `${columnName(x)}${y + 1}`;
      if (x < 0 || y < 0 || x >= width || y >= height || rows[y][x] !== "~" || names[key]) continue;
      names[key] = feature.names[lang];
      queue.push([x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]);
    }
  }
  return names;
}

// A smooth line through the cells' centres (a quadratic curve through each midpoint).
function riverPath(cells) {
  const points = cells.map(centre);
  let d = `M${points[0][0]},${points[0][1]}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [mx, my] = [(points[i][0] + points[i + 1][0]) / 2, (points[i][1] + points[i + 1][1]) / 2];
    d += ` Q${points[i][0]},${points[i][1]} ${mx},${my}`;
  }
  const last = points[points.length - 1];
  return `${d} L${last[0]},${last[1]}`;
}

// Where a city's name goes: right of it, unless another city or the map's edge is in the way.
function labelSide(view, city, width) {
  const [x, y] = parseMapCell(city.cell);
  const taken = new Set(view.cities.filter((c) => c !== city).map((c) => c.cell));
  const free = (dx) => [1, 2].every((step) => !taken.has(`${columnName(x + dx * step)}${y + 1}`));
  if (x + 2 < width && free(1)) return "right";
  if (x - 2 >= 0 && free(-1)) return "left";
  return "below";
}

export function drawMap(view, layer, options) {
  const t = T[options.lang];
  const { width, height, rows, features = [] } = view.map;
  const svg = el("svg:svg", { viewBox: `0 0 ${MARGIN * 2 + width * CELL} ${MARGIN * 2 + height * CELL}`,
    class: `campaign-map${options.past ? " past" : ""}`, role: "img", "aria-label": options.label ?? t.mapLabel(view.turn) });
  svg.append(el("svg:title", {}, options.label ?? t.mapLabel(view.turn)));
  const valley = new Set(features.filter((f) => f.kind === "river").flatMap((f) => f.path));
  const waters = waterNames(view, options.lang);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const name = `${columnName(x)}${y + 1}`;
      const wet = rows[y][x] === "~";
      const classes = ["cell", wet ? "water" : "land"];
      if (options.targets?.has(name)) classes.push("target");
      if (options.selected === name) classes.push("picked");
      const what = wet ? (waters[name] ? `${waters[name]}, ${t.water}` : t.water) : valley.has(name) ? t.valley : t.land;
      svg.append(el("svg:rect", { x: MARGIN + x * CELL, y: MARGIN + y * CELL, width: CELL, height: CELL,
        class: classes.join(" "), "data-cell": name, onclick: () => options.onCell?.(name) },
      el("svg:title", {}, t.cellTip(name, what))));
    }
  }
  for (let x = 0; x < width; x++) svg.append(el("svg:text", { x: MARGIN + x * CELL + CELL / 2, y: MARGIN - 7, class: "coord", "text-anchor": "middle" }, columnName(x)));
  for (let y = 0; y < height; y++) svg.append(el("svg:text", { x: MARGIN - 4, y: MARGIN + y * CELL + CELL / 2 + 4, class: "coord", "text-anchor": "end" }, String(y + 1)));
  for (const feature of features) {
    if (feature.kind === "river") {
      svg.append(el("svg:path", { d: riverPath(feature.path), class: `river${feature.names.fr ? " main" : ""}` }));
    }
  }
  for (const feature of features) {
    if (!feature.label || !feature.names[options.lang]) continue;
    const [cx, cy] = centre(feature.label);
    const river = feature.kind === "river";
    svg.append(el("svg:text", { x: river ? cx + 8 : cx, y: cy + 5, class: `water-label ${feature.kind}`,
      "text-anchor": river ? "start" : "middle" }, feature.names[options.lang]));
  }
  const cityFacts = Object.fromEntries(view.cities.map((c) => [c.name, c]));
  const labels = [];
  for (const city of layer.cities) {
    const facts = cityFacts[city.name];
    const [cx, cy] = centre(facts.cell);
    const owner = city.destroyed ? t.ruined : city.owner ? seatName(view, city.owner, options.lang) : t.noOwner;
    const tip = t.cityTip(city.name, facts.cell, owner, facts.initial_of ? t.initialOf : "");
    const classes = ["city", city.destroyed ? "ruined" : "", facts.initial_of ? "initial" : "",
      city.destroyed ? "" : options.relation?.(city.owner) ?? ""].filter(Boolean).join(" ");
    svg.append(el("svg:g", { class: classes, "data-city": city.name, onclick: () => options.onCell?.(facts.cell) },
      el("svg:title", {}, tip),
      el("svg:rect", { x: cx - 10, y: cy - 10, width: 20, height: 20, rx: 3, fill: city.owner && !city.destroyed ? colourOf(view, city.owner) : "#b3ab9a" }),
      facts.initial_of ? el("svg:rect", { x: cx - 6, y: cy - 6, width: 12, height: 12, rx: 2, class: "initial-mark" }) : null));
    const side = labelSide(view, facts, width);
    const at = { right: [cx + 14, cy - 3, "start"], left: [cx - 14, cy - 3, "end"], below: [cx, cy + 24, "middle"] }[side];
    labels.push(el("svg:text", { x: at[0], y: at[1], class: `city-label${city.destroyed ? " ruined" : ""}`, "text-anchor": at[2],
      "data-label": city.name }, el("svg:title", {}, tip), city.name));
  }
  svg.append(...labels);
  const byCell = {};
  for (const army of layer.armies) {
    byCell[army.cell] ??= [];
    byCell[army.cell].push(army);
  }
  for (const [cell, here] of Object.entries(byCell)) {
    const [cx, cy] = centre(cell);
    here.forEach((army, index) => {
      const dx = (index - (here.length - 1) / 2) * 12;
      const own = army.kingdom === options.seat;
      const tip = t.armyTip(seatName(view, army.kingdom, options.lang), army.count, cell, army.new ?? 0, own ? options.mobile?.(cell) : undefined);
      svg.append(el("svg:g", { class: `army${own ? " own" : ""}`, "data-army": `${army.kingdom}@${cell}`, onclick: () => options.onCell?.(cell) },
        el("svg:title", {}, tip),
        el("svg:circle", { cx: cx + dx, cy: cy + 5, r: 8.5, fill: colourOf(view, army.kingdom) }),
        el("svg:text", { x: cx + dx, y: cy + 9, class: "army-count", "text-anchor": "middle" }, String(army.count))));
    });
  }
  for (const move of options.moves ?? []) {
    const [x1, y1] = centre(move.from);
    const [x2, y2] = centre(move.to);
    svg.append(el("svg:line", { x1, y1, x2: x1 + (x2 - x1) * 0.8, y2: y1 + (y2 - y1) * 0.8, class: "order-arrow" }));
    svg.append(el("svg:text", { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 4, class: "order-count", "text-anchor": "middle" }, String(move.count)));
  }
  return svg;
}

// The legend: who is which colour, and what each mark means.
export function legend(view, lang, { seat = null, ordering = false } = {}) {
  const t = T[lang];
  const swatch = (...children) => el("svg:svg", { viewBox: "0 0 22 22", width: "18", height: "18", "aria-hidden": "true", focusable: "false" }, ...children);
  const square = (fill, extra = {}) => el("svg:rect", { x: 2, y: 2, width: 18, height: 18, rx: 3, fill, ...extra });
  const item = (mark, text, cls = "") => el("li", { class: cls }, mark, el("span", {}, text));
  const kingdoms = view.kingdoms.map((k) => item(swatch(square(k.colour, { class: "swatch" })), k.names[lang], "kingdom"));
  const marks = [
    item(swatch(square("#b3ab9a", { class: "swatch" })), t.cityMark),
    item(swatch(square("#b3ab9a", { class: "swatch" }), el("svg:rect", { x: 6, y: 6, width: 10, height: 10, rx: 2, class: "initial-mark" })), t.capitalMark),
    item(swatch(square("#b3ab9a", { class: "swatch ruin" })), t.ruinMark),
    seat ? item(swatch(square("#b3ab9a", { class: "swatch enemy" })), t.enemyMark) : null,
    seat ? item(swatch(square("#b3ab9a", { class: "swatch allied" })), t.allyMark) : null,
    item(swatch(el("svg:circle", { cx: 11, cy: 11, r: 9, fill: "#6b5a3a", class: "swatch" }),
      el("svg:text", { x: 11, y: 15, "text-anchor": "middle", class: "swatch-count" }, "2")), t.armyMark),
    item(swatch(el("svg:path", { d: "M1,18 Q8,4 12,11 T21,4", class: "river main" })), t.nileMark),
    item(swatch(square("#8fb8d8", { class: "swatch" })), t.waterMark),
    ordering ? item(swatch(square("#bfe3a8", { class: "swatch" })), t.targetMark) : null,
  ];
  return el("figure", { class: "legend" }, el("figcaption", {}, t.legend),
    el("ul", { class: "legend-kingdoms" }, ...kingdoms), el("ul", { class: "legend-marks" }, ...marks));
}

// A player's rating history as a small SVG line (issue 42): one point per rated game, the newcomer's start first.
// Axes in words: the lowest and highest rating on the left, the number of games below. No library.

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 120;
const PAD = { left: 40, right: 8, top: 10, bottom: 22 };

function svg(tag, attributes = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

// ``points``: [{rating, provisional}], oldest first; ``label``: the chart's name for screen readers.
export function ratingChart(points, { label, gamesWord }) {
  const ratings = points.map((p) => p.rating);
  const low = Math.min(...ratings);
  const high = Math.max(...ratings);
  const span = Math.max(high - low, 20);
  const x = (i) => PAD.left + (points.length > 1 ? (i * (WIDTH - PAD.left - PAD.right)) / (points.length - 1) : 0);
  const y = (r) => PAD.top + ((high - r) * (HEIGHT - PAD.top - PAD.bottom)) / span;
  const chart = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "rating-chart", role: "img", "aria-label": label });
  chart.append(svg("title", {}, label));
  chart.append(svg("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: HEIGHT - PAD.bottom, class: "axis" }));
  chart.append(svg("line", { x1: PAD.left, y1: HEIGHT - PAD.bottom, x2: WIDTH - PAD.right, y2: HEIGHT - PAD.bottom, class: "axis" }));
  chart.append(svg("text", { x: PAD.left - 4, y: y(high) + 4, "text-anchor": "end", class: "tick" }, String(high)));
  if (high !== low) chart.append(svg("text", { x: PAD.left - 4, y: y(low) + 4, "text-anchor": "end", class: "tick" }, String(low)));
  chart.append(svg("text", { x: WIDTH - PAD.right, y: HEIGHT - 6, "text-anchor": "end", class: "tick" }, gamesWord(points.length - 1)));
  chart.append(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "line" }));
  chart.append(...points.map((p, i) => svg("circle", { cx: x(i), cy: y(p.rating), r: 3, class: p.provisional ? "dot provisional" : "dot" })));
  return chart;
}

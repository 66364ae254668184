// Small DOM helpers shared by the ruleset views: build HTML and SVG elements, name map cells.

const SVG = "http://www.w3.org/2000/svg";

// el("div", {class: "x", onclick: f}, child, …); a tag "svg:rect" makes an SVG element.
// Attributes that are null, undefined or false are left out; true sets an empty attribute.
export function el(tag, attrs = {}, ...children) {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) {
      if (value) node.addEventListener(key.slice(2), value);
    } else if (key === "style") {
      if (value) node.style.cssText = value;  // through the CSSOM: the page's CSP refuses style attributes
    } else if (value !== null && value !== undefined && value !== false) {
      node.setAttribute(key, value === true ? "" : value);
    }
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// Paper-map columns: A … Z, AA, AB … (as kadesh/core/grid.py writes them).
export function columnName(x) {
  let name = "";
  for (let n = x + 1; n; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

// "C4" → [2, 3]
export function parseMapCell(name) {
  const match = /^([A-Z]+)(\d+)$/.exec(name);
  let x = 0;
  for (const letter of match[1]) x = x * 26 + letter.charCodeAt(0) - 64;
  return [x - 1, Number(match[2]) - 1];
}

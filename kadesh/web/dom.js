// Small DOM helpers shared by the ruleset views: build HTML and SVG elements, name map cells.

const SVG = "http://www.w3.org/2000/svg";

// el("div", {class: "x", onclick: f}, child, …); a tag "svg:rect" makes an SVG element.
// Attributes that are null, undefined or false are left out; true sets an empty attribute.
export function el(tag, attrs = {}, ...children) {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) {
      if (value) listen(node, key.slice(2), value);
    } else if (key === "style") {
      if (value) node.style.cssText = value;  // through the CSSOM: the page's CSP refuses style attributes
    } else if (value !== null && value !== undefined && value !== false) {
      node.setAttribute(key, value === true ? "" : value);
    }
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// A node's handler of an event, kept in its ``handlers``: laid over an older drawing (``update``), the older node
// answers with the newer drawing's handlers.
function listen(node, type, handler) {
  node.handlers ??= {};
  if (!(type in node.handlers)) node.addEventListener(type, (event) => node.handlers[type]?.(event));
  node.handlers[type] = handler;
}

// Make ``shown`` (a node in the document) look and answer as ``drawn`` (a new drawing of it, made by ``el``), changing
// only what differs: the browser then styles, lays out and paints again only that, not the whole drawing. A node of
// another kind is replaced by the drawn one. Returns the node now in the document.
export function update(shown, drawn) {
  if (shown.nodeName !== drawn.nodeName || shown.namespaceURI !== drawn.namespaceURI) {
    shown.replaceWith(drawn);
    return drawn;
  }
  if (shown.nodeType === Node.TEXT_NODE) {
    if (shown.data !== drawn.data) shown.data = drawn.data;
    return shown;
  }
  updateAttributes(shown, drawn);
  for (const type of Object.keys(shown.handlers ?? {})) if (!drawn.handlers?.[type]) shown.handlers[type] = null;
  for (const [type, handler] of Object.entries(drawn.handlers ?? {})) listen(shown, type, handler);
  let had = shown.firstChild;
  for (let child = drawn.firstChild, next; child; child = next) {
    next = child.nextSibling;
    if (had) had = update(had, child).nextSibling;
    else shown.append(child);
  }
  while (had) {
    const extra = had;
    had = had.nextSibling;
    extra.remove();
  }
  return shown;
}

function updateAttributes(shown, drawn) {
  for (const name of shown.getAttributeNames()) if (!drawn.hasAttribute(name)) shown.removeAttribute(name);
  for (const name of drawn.getAttributeNames()) {
    const value = drawn.getAttribute(name);
    if (shown.getAttribute(name) === value) continue;
    if (name === "style") shown.style.cssText = drawn.style.cssText;  // through the CSSOM, as el: the CSP
    else shown.setAttribute(name, value);
  }
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

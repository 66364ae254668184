// A designed map's grid, as its document holds it (`map.rows`: one string a row, one character a cell): what both
// games' designers (front-design.js, royaumes-design.js) read and paint of it.

import { columnName, parseMapCell } from "./dom.js";

const CELL_NAME = /^[A-Z]+[1-9]\d*$/;

// object[key], made `empty` first if missing: the document's optional tables and lists, filled as they are painted.
export function within(object, key, empty) {
  object[key] ??= empty;
  return object[key];
}

export function rowsOf(doc) {
  const rows = doc.map?.rows;
  return Array.isArray(rows) && rows.every((r) => typeof r === "string") ? rows : [];
}

export function sizeOf(doc) {
  const rows = rowsOf(doc);
  return { columns: Math.max(0, ...rows.map((r) => r.length)), rows: rows.length };
}

export function onMap(doc, name) {
  if (typeof name !== "string" || !CELL_NAME.test(name)) return false;
  const [x, y] = parseMapCell(name), size = sizeOf(doc);
  return x < size.columns && y < size.rows;
}

export function setMark(doc, name, mark) {
  const [x, y] = parseMapCell(name);
  const row = doc.map.rows[y];
  doc.map.rows[y] = row.slice(0, x) + mark + row.slice(x + 1);
}

// The cells of the same character as `name`'s, joined to it side by side (what « Remplir » paints).
export function area(doc, name) {
  const rows = rowsOf(doc), [x0, y0] = parseMapCell(name), mark = rows[y0][x0];
  const seen = new Set(), todo = [[x0, y0]];
  while (todo.length) {
    const [x, y] = todo.pop();
    const key = `${columnName(x)}${y + 1}`;
    if (y < 0 || y >= rows.length || x < 0 || x >= rows[y].length || rows[y][x] !== mark || seen.has(key)) continue;
    seen.add(key);
    todo.push([x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]);
  }
  return [...seen];
}

// The rows cut or grown to `columns` × `rows`, the new cells `fill`.
export function resizeRows(doc, columns, rows, fill) {
  const old = rowsOf(doc);
  doc.map = { ...doc.map, rows: Array.from({ length: rows }, (_, y) => (old[y] ?? "").slice(0, columns).padEnd(columns, fill)) };
}

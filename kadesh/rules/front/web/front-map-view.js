// Front's map camera: zoom (wheel, pinch, buttons) and pan (drag, one finger on a phone) of the map's SVG,
// the rulers that follow it, and the minimap. Whole battle in view on a desktop; on a phone cells of at least
// 32 px, the map zoomed in and panning. The SVG is drawn at its zoom's size in a scrolling frame, so the browser
// brings any cell into view (a test's click, a focus) and the camera follows. A press that does not drag is
// left to the map as a pick.

import { parseMapCell } from "/static/dom.js";
import { CELL, MINIMAP } from "/static/rules/front-map-art.js";

const PHONE_WIDTH = 560;     // below this the map is a phone's
const PHONE_CELL = 36;       // a phone's cell at first sight, in pixels
const MIN_PHONE_CELL = 32;
const MAX_CELL = 110;

// parts: { element, frame, viewport, svg, colsInner, rowsInner, mini, onWhole, holdsPress }; holdsPress(): whether a
// one-pointer press belongs to the page (a designer's brush) rather than moving the map; look(): the view drawn and the
// cell to centre on first ({ view, centre: [x, y] }); focused(): the cell to zoom towards, or null. onWhole(bool)
// is told whether the whole map is in view (« Vue d'ensemble » pressed).
export function createCamera(parts, look, focused) {
  const { element, frame, viewport, svg, colsInner, rowsInner, mini, onWhole = () => {}, holdsPress = () => false } = parts;
  let rows = 0, cols = 0;
  // tx, ty: where the map's top left corner stands in the frame, in pixels (≤ 0 once the map overflows it).
  let scale = 1, tx = 0, ty = 0, vpW = 0, vpH = 0, minScale = 0.1, phone = false, laidOut = false, rulerScale = 0, sized = 0;
  let wholeScale = 0.1;  // the scale that shows the whole map
  let moved = false;  // the player zoomed or panned: a resize keeps their view, else the map fits again
  // « Vue d'ensemble »: the whole map in view, a phone's too, below its finger-sized cells (issue 44: the button
  // showed pressed while the map was cut at column J); any zoom leaves it. The minimap shows whenever part of the
  // map is out of view.
  let overview = false, whole = null;

  // A new map: its size and rulers; the next layout fits it anew.
  function setMap(names) {
    rows = names.length;
    cols = names[0].length;
    laidOut = false;
    moved = false;
    rulerScale = 0;
    sized = 0;
    svg.setAttribute("viewBox", `0 0 ${cols * CELL} ${rows * CELL}`);
    colsInner.replaceChildren(...names[0].map((n) => Object.assign(document.createElement("span"), { textContent: n.replace(/\d+$/, "") })));
    rowsInner.replaceChildren(...names.map((_, y) => Object.assign(document.createElement("span"), { textContent: String(y + 1) })));
  }
  function layout(reset) {
    frame.style.maxWidth = "";
    const width = viewport.clientWidth;
    if (!width || !rows) return;
    // A phone: a narrow map, or a touch screen held sideways.
    phone = width < PHONE_WIDTH || (matchMedia("(pointer: coarse)").matches && innerHeight < PHONE_WIDTH);
    const height = phone ? Math.min(rows * PHONE_CELL, Math.max(240, Math.round(innerHeight * 0.6)))
      : Math.min(Math.round((width * rows) / cols) + 2, Math.max(320, innerHeight - 140));  // + the border
    viewport.style.height = `${height}px`;
    vpW = width;
    vpH = viewport.clientHeight || height;
    let fit = Math.min(vpW / (cols * CELL), vpH / (rows * CELL));
    if (!phone && fit * cols * CELL < vpW - 2) {  // held by the height: the frame narrows to the map, no empty bands
      const rulers = viewport.getBoundingClientRect().left - frame.getBoundingClientRect().left;
      frame.style.maxWidth = `${Math.ceil(fit * cols * CELL + 2 + rulers)}px`;
      vpW = viewport.clientWidth;
      fit = Math.min(vpW / (cols * CELL), vpH / (rows * CELL));
    }
    minScale = phone ? Math.max(fit, MIN_PHONE_CELL / CELL) : fit;
    wholeScale = fit;
    if (overview) {
      scale = fit;
    } else if (reset) {
      scale = phone ? Math.max(minScale, PHONE_CELL / CELL) : minScale;
      const [cx, cy] = look().centre ?? [cols / 2, rows / 2];
      tx = vpW / 2 - (cx + 0.5) * CELL * scale;
      ty = vpH / 2 - (cy + 0.5) * CELL * scale;
    } else {
      scale = Math.max(minScale, scale);
    }
    laidOut = true;
    apply();
    drawMinimap(true);
  }
  function apply() {
    const mw = cols * CELL * scale, mh = rows * CELL * scale;
    tx = mw <= vpW ? (vpW - mw) / 2 : Math.min(0, Math.max(vpW - mw, tx));
    ty = mh <= vpH ? (vpH - mh) / 2 : Math.min(0, Math.max(vpH - mh, ty));
    if (sized !== scale) {
      sized = scale;
      svg.style.width = `${mw}px`;
      svg.style.height = `${mh}px`;
    }
    svg.style.marginLeft = `${Math.max(0, tx)}px`;  // a map smaller than its frame stands in the middle
    svg.style.marginTop = `${Math.max(0, ty)}px`;
    viewport.scrollLeft = -Math.min(0, tx);
    viewport.scrollTop = -Math.min(0, ty);
    follow();
  }
  // The rulers and the minimap follow the map, whoever moved it (the camera, or the browser scrolling a cell into view).
  function follow() {
    const mw = cols * CELL * scale, mh = rows * CELL * scale;
    const px = CELL * scale;
    if (px !== rulerScale) {
      rulerScale = px;
      const sparse = px < 18;
      [...colsInner.children].forEach((span, i) => { span.style.left = `${(i + 0.5) * px}px`; span.hidden = sparse && i % 2 === 1; });
      [...rowsInner.children].forEach((span, i) => { span.style.top = `${(i + 0.5) * px}px`; span.hidden = sparse && i % 2 === 1; });
    }
    colsInner.style.transform = `translateX(${tx}px)`;
    rowsInner.style.transform = `translateY(${ty}px)`;
    const inView = mw <= vpW + 1 && mh <= vpH + 1;
    if (whole !== inView) { whole = inView; onWhole(inView); }
    const hidden = inView;
    if (mini.hidden !== hidden) { mini.hidden = hidden; if (!hidden) drawMinimap(true); }
    drawMinimap(false);
  }
  function zoomAt(factor, px, py) {
    // zooming out of the whole map's view stays there; zooming in goes to finger-sized cells at least
    const floor = factor < 1 ? Math.min(minScale, scale) : minScale;
    const next = Math.min(MAX_CELL / CELL, Math.max(floor, scale * factor));
    if (next === scale) return false;
    moved = true;
    overview = false;
    tx = px - ((px - tx) / scale) * next;
    ty = py - ((py - ty) / scale) * next;
    scale = next;
    apply();
    return true;
  }
  const zoomBy = (factor) => {
    const [x, y] = focused() ?? [-1, -1];  // towards the cursor when it is in view, else the middle
    const cx = tx + (x + 0.5) * CELL * scale, cy = ty + (y + 0.5) * CELL * scale;
    const inView = cx > 0 && cy > 0 && cx < vpW && cy < vpH;
    zoomAt(factor, inView ? cx : vpW / 2, inView ? cy : vpH / 2);
  };
  function keepInView([x, y]) {
    if (!vpW) return;
    const s = CELL * scale, margin = s * 1.2;
    const left = tx + x * s, top = ty + y * s;
    if (left < margin) tx += margin - left;
    else if (left + s > vpW - margin) tx -= left + s - (vpW - margin);
    if (top < margin) ty += margin - top;
    else if (top + s > vpH - margin) ty -= top + s - (vpH - margin);
    apply();
  }
  function centerOn(name) {
    if (!rows || !vpW || !name) return;
    const [x, y] = parseMapCell(name);
    tx = vpW / 2 - (x + 0.5) * CELL * scale;
    ty = vpH / 2 - (y + 0.5) * CELL * scale;
    apply();
  }

  // Pointer: one finger or the mouse drags the map, two fingers pinch; a press without a drag stays a pick.
  const pointers = new Map();
  let drag = null, pinch = null, dragged = false;
  const local = (event) => { const r = viewport.getBoundingClientRect(); return [event.clientX - r.left, event.clientY - r.top]; };
  svg.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    pointers.set(event.pointerId, local(event));
    dragged = false;
    if (pointers.size === 1) drag = holdsPress() ? null : { start: local(event), tx, ty };
    else if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { dist: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, scale, mid: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], tx, ty };
      drag = null;
      dragged = true;
    }
  });
  svg.addEventListener("pointermove", (event) => {
    if (!pointers.has(event.pointerId)) return;
    const p = local(event);
    pointers.set(event.pointerId, p);
    if (pinch && pointers.size >= 2) {
      const [a, b] = [...pointers.values()];
      const next = Math.min(MAX_CELL / CELL, Math.max(minScale, (pinch.scale * Math.hypot(a[0] - b[0], a[1] - b[1])) / pinch.dist));
      const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      tx = mid[0] - ((pinch.mid[0] - pinch.tx) / pinch.scale) * next;
      ty = mid[1] - ((pinch.mid[1] - pinch.ty) / pinch.scale) * next;
      scale = next;
      moved = true;
      overview = false;
      apply();
    } else if (drag) {
      const dx = p[0] - drag.start[0], dy = p[1] - drag.start[1];
      if (!dragged && Math.hypot(dx, dy) > 6) {
        dragged = true;
        svg.setPointerCapture(event.pointerId);
        svg.classList.add("fm-dragging");
      }
      if (dragged) {
        moved = true;
        tx = drag.tx + dx;
        ty = drag.ty + dy;
        apply();
      }
    }
  });
  const release = (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
    if (!pointers.size) { drag = null; svg.classList.remove("fm-dragging"); }
  };
  svg.addEventListener("pointerup", release);
  svg.addEventListener("pointercancel", release);
  viewport.addEventListener("wheel", (event) => {
    if (!rows) return;
    const [px, py] = local(event);
    const factor = Math.exp(-event.deltaY * (event.deltaMode ? 0.05 : 0.0015));
    if (zoomAt(factor, px, py)) event.preventDefault();  // at the zoom's end the page scrolls on
  }, { passive: false });

  // ---- the minimap -------------------------------------------------------------------------------
  let miniBase = null, miniCell = 1;
  // « Vue d'ensemble »: the whole map in view; pressed again, back to a closer view (a phone's first one, or
  // twice as close) around the cursor.
  function toggleWhole() {
    if (!rows || !vpW) return;
    if (!whole) {
      overview = true;
      moved = true;
      scale = wholeScale;
      apply();
      return;
    }
    const wanted = phone ? Math.max(minScale, PHONE_CELL / CELL) : Math.min(MAX_CELL / CELL, scale * 2);
    zoomBy(wanted / scale);
  }
  function drawMinimap(full) {
    if (!rows || !vpW || mini.hidden) return;
    const ratio = window.devicePixelRatio || 1;
    if (full || !miniBase) {
      const { view } = look();
      miniCell = Math.max(2, Math.floor((phone ? 90 : 150) / cols));
      const w = cols * miniCell, h = rows * miniCell;
      mini.width = w * ratio;
      mini.height = h * ratio;
      mini.style.width = `${w}px`;
      mini.style.height = `${h}px`;
      miniBase ??= document.createElement("canvas");
      miniBase.width = mini.width;
      miniBase.height = mini.height;
      const c = miniBase.getContext("2d");
      c.setTransform(ratio, 0, 0, ratio, 0, 0);
      const colours = getComputedStyle(element);
      const side = { blue: colours.getPropertyValue("--north").trim() || "#2f5d8a", red: colours.getPropertyValue("--south").trim() || "#9a3b2e" };
      for (let y = 0; y < rows; y++) {
        for (let x = 0; x < cols; x++) {
          c.fillStyle = MINIMAP[view.map[y][x]] ?? "#ccc";
          c.fillRect(x * miniCell, y * miniCell, miniCell, miniCell);
          if (view.sight?.[y]?.[x] === "0") { c.fillStyle = "rgba(30, 24, 14, 0.42)"; c.fillRect(x * miniCell, y * miniCell, miniCell, miniCell); }
        }
      }
      for (const u of view.units ?? []) {
        if (!u.cell || u.aboard) continue;
        const [x, y] = parseMapCell(u.cell);
        c.fillStyle = side[u.side] ?? "#555";
        c.fillRect(x * miniCell - 0.5, y * miniCell - 0.5, miniCell + 1, miniCell + 1);
      }
    }
    const c = mini.getContext("2d");
    c.setTransform(1, 0, 0, 1, 0, 0);
    c.drawImage(miniBase, 0, 0);
    c.setTransform(ratio, 0, 0, ratio, 0, 0);
    const k = miniCell / (CELL * scale);
    c.strokeStyle = "#fff";
    c.lineWidth = 2;
    c.strokeRect(Math.max(1, -tx * k), Math.max(1, -ty * k), Math.min(cols * miniCell - 2, vpW * k), Math.min(rows * miniCell - 2, vpH * k));
    c.strokeStyle = "#111";
    c.lineWidth = 1;
    c.strokeRect(Math.max(1, -tx * k), Math.max(1, -ty * k), Math.min(cols * miniCell - 2, vpW * k), Math.min(rows * miniCell - 2, vpH * k));
  }
  const jump = (event) => {
    const r = mini.getBoundingClientRect();
    const x = (event.clientX - r.left) / miniCell, y = (event.clientY - r.top) / miniCell;
    moved = true;
    tx = vpW / 2 - x * CELL * scale;
    ty = vpH / 2 - y * CELL * scale;
    apply();
  };
  mini.addEventListener("pointerdown", (event) => { event.stopPropagation(); mini.setPointerCapture(event.pointerId); jump(event); });
  mini.addEventListener("pointermove", (event) => { if (mini.hasPointerCapture(event.pointerId)) jump(event); });

  // The map follows its container's width (and its own frame's, once the stylesheet has come).
  let hostWidth = 0;
  const resized = new ResizeObserver(() => {
    if (!rows || (element.clientWidth === hostWidth && viewport.clientWidth === vpW)) return;
    hostWidth = element.clientWidth;
    layout(!laidOut || !moved);
  });
  resized.observe(element);
  resized.observe(viewport);

  viewport.addEventListener("scroll", () => {
    if (!laidOut) return;
    if (cols * CELL * scale > vpW) tx = -viewport.scrollLeft;
    if (rows * CELL * scale > vpH) ty = -viewport.scrollTop;
    follow();
  }, { passive: true });
  // Focus may scroll the whole grid into view (a Tab from the toolbar): the view stays where the player left it.
  function holdView() {
    const kept = [tx, ty];
    requestAnimationFrame(() => { [tx, ty] = kept; apply(); });
  }

  // A click that ends a drag is no pick: the map asks once.
  const dragEnded = () => { const was = dragged; dragged = false; return was; };
  const ready = () => laidOut;
  return { setMap, layout, zoomBy, keepInView, centerOn, toggleWhole, dragEnded, ready, drawMinimap, holdView };
}

// Labelling page: boxes on a canvas; every change is saved at once (PUT, atomic on the server).
// Box edits can be undone and redone per photo; an undo is a change like any other, saved at once.
"use strict";

const canvas = document.getElementById("canvas");
const ctx = canvas.getContext("2d");
const image = new Image();
let photos = [];
let current = null;
let label = null;
let selected = -1;
let drag = null;
let ready = false; // the current photo's label and image are both in: edits may start
let opening = 0; // the latest open(): an older one that answers late is ignored
let saved = null; // the label as the server last confirmed it: a failed save goes back to it
const codes = new Set(["other"]);
const copy = (x) => JSON.parse(JSON.stringify(x));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const $ = (s) => document.querySelector(s);
const notes = $("#notes");
const status = (text, bad) => { $("#status").textContent = text; $("#status").style.color = bad ? "#ff6b6b" : ""; };

// How near (screen pixels) a press must be to a box's edge to take the edge, and the handles' size.
const EDGE = { mouse: 7, touch: 16 };
const HANDLE = 10;
const MIN_SIZE = 4; // image pixels: a box never gets thinner by resizing
const CURSORS = { n: "ns-resize", s: "ns-resize", e: "ew-resize", w: "ew-resize", nw: "nwse-resize",
  se: "nwse-resize", ne: "nesw-resize", sw: "nesw-resize", inside: "move" };

async function api(path, options = {}) {
  const response = await fetch(path, options);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `request failed (${response.status})`);
  return body;
}

async function loadList() {
  const data = await api("/api/photos");
  photos = data.photos;
  const list = $("#photo-list");
  list.innerHTML = "";
  photos.forEach((p) => {
    const li = document.createElement("li");
    // a label file that cannot be read is no unlabelled photo: marked, its error on hover
    const broken = p.status === "broken";
    li.textContent = broken ? `${p.image} (broken label)` : `${p.image} (${p.tiles})`;
    if (broken) li.title = p.error;
    li.dataset.image = p.image;
    li.classList.toggle("broken", broken);
    li.classList.toggle("done", p.status === "done");
    li.classList.toggle("current", p.image === current);
    li.addEventListener("click", () => open(p.image));
    list.appendChild(li);
  });
  const grid = $("#classes");
  data.tiles.forEach((t) => codes.add(t.code));
  if (!grid.children.length) {
    data.tiles.forEach((t) => {
      const b = document.createElement("button");
      b.dataset.code = t.code;
      b.innerHTML = "<span></span><small></small>";
      b.querySelector("span").textContent = t.name;
      b.querySelector("small").textContent = t.code;
      b.addEventListener("click", () => setCode(t.code));
      grid.appendChild(b);
    });
  }
}

async function open(name) {
  flushNotes();
  const token = ++opening;
  const wasReady = ready;
  ready = false;
  drag = null;
  status("loading…");
  let next;
  try {
    next = await api(`/api/photos/${encodeURIComponent(name)}/label`);
  } catch (error) {
    if (token === opening) { ready = wasReady; status(error.message, true); }
    return;
  }
  if (token !== opening) return;
  image.onload = () => {
    if (token !== opening) return;
    current = name;
    versions.set(name, next.version);  // sent back with each save: one from an older read is refused
    delete next.version;
    label = next;
    saved = copy(next);
    selected = -1;
    notes.value = label.notes || "";
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    ready = true;
    draw();
    status(name);
    document.querySelectorAll("#photo-list li").forEach((li) => li.classList.toggle("current", li.dataset.image === name));
  };
  image.onerror = () => { if (token === opening) { ready = wasReady; status(`cannot show ${name}`, true); } };
  image.src = `/api/photos/${encodeURIComponent(name)}/image`;
}

// Saves go out one at a time, in order, each with the photo it belongs to: a slow answer can
// neither overwrite a newer edit nor land in another photo's file.
const queue = new Map(); // photo -> label JSON not sent yet (only the newest counts)
const versions = new Map(); // photo -> the label file's version this page last read or wrote
let inflight = null;

function save() {
  if (!label || !current) return Promise.resolve(false);
  queue.delete(current);
  queue.set(current, JSON.stringify(label));
  status("saving…");
  if (!inflight) inflight = flush();
  return inflight;
}

async function flush() {
  let ok = true;
  try {
    while (queue.size) {
      const [name, body] = queue.entries().next().value;
      queue.delete(name);
      try {
        const sent = JSON.stringify({ ...JSON.parse(body), version: versions.get(name) });
        const clean = await api(`/api/photos/${encodeURIComponent(name)}/label`, {
          method: "PUT", headers: { "Content-Type": "application/json" }, body: sent,
        });
        versions.set(name, clean.version);
        delete clean.version;
        if (name === current) {
          saved = copy(clean);
          // take the server's tidy copy (rounded boxes) only if nothing changed meanwhile
          if (!queue.has(name) && JSON.stringify(label) === body) { label = clean; draw(); }
        }
        if (!queue.size) status(`saved ${name}`);
      } catch (error) {
        ok = false;
        // show what is really on disk, so one bad edit does not block every later save
        // (notes being typed stay in their field and go with the next save)
        if (name === current && saved && !queue.has(name)) {
          label = Object.assign(copy(saved), { notes: label.notes });
          if (selected >= label.tiles.length) selected = -1;
          draw();
        }
        status(`not saved: ${error.message}`, true);
      }
    }
  } finally {
    inflight = null;
  }
  return ok;
}

// -- undo/redo: snapshots of the current photo's boxes (and which was selected) ---------------
const histories = new Map(); // photo -> { undo: [], redo: [], key, at }
const HISTORY_LIMIT = 300;

function history() {
  if (!histories.has(current)) histories.set(current, { undo: [], redo: [], key: null, at: 0 });
  return histories.get(current);
}

function snapshot() { return { tiles: copy(label.tiles), selected }; }

// After an edit: keep the state from before it for undo, then draw and save. Edits with the same
// key in quick succession (arrow-key nudges of one box) are one step.
function commit(before, key = null) {
  if (same(before.tiles, label.tiles)) { draw(); return false; }
  const h = history();
  const now = Date.now();
  if (!(key && key === h.key && now - h.at < 1500)) {
    h.undo.push(before);
    if (h.undo.length > HISTORY_LIMIT) h.undo.shift();
  }
  h.redo = [];
  h.key = key;
  h.at = now;
  draw();
  save();
  return true;
}

function travel(from, to, word) {
  if (!ready || drag) return;
  const h = history();
  while (h[from].length && same(h[from][h[from].length - 1].tiles, label.tiles)) h[from].pop();
  const entry = h[from].pop();
  if (!entry) { status(`nothing to ${word}`); draw(); return; }
  h[to].push(snapshot());
  h.key = null;
  label.tiles = copy(entry.tiles);
  selected = entry.selected < label.tiles.length ? entry.selected : -1;
  draw();
  save();
}

const undo = () => travel("undo", "redo", "undo");
const redo = () => travel("redo", "undo", "redo");

// -- drawing -----------------------------------------------------------------------------------
function screenScale() {
  const width = canvas.getBoundingClientRect().width;
  return width ? canvas.width / width : 1; // image pixels per screen pixel
}

function handlePoints([x1, y1, x2, y2]) {
  const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
  return [[x1, y1], [mx, y1], [x2, y1], [x2, my], [x2, y2], [mx, y2], [x1, y2], [x1, my]];
}

function draw() {
  if (!label) return;
  ctx.drawImage(image, 0, 0);
  const scale = Math.max(2, canvas.width / 600);
  ctx.lineWidth = scale;
  ctx.font = `${12 * scale}px sans-serif`;
  label.tiles.forEach((t, i) => {
    const [x1, y1, x2, y2] = t.box;
    ctx.strokeStyle = i === selected ? "#f2b134" : t.face_down ? "#aaaaaa" : "#3ddc84";
    ctx.lineWidth = i === selected ? scale * 2 : scale;
    ctx.strokeRect(x1, y1, x2 - x1, y2 - y1);
    const text = (t.face_down ? "back" : t.code || "?") + (t.rotated ? "~" : "");
    ctx.fillStyle = "rgba(0,0,0,.6)";
    ctx.fillRect(x1, y1 - 14 * scale, ctx.measureText(text).width + 4, 14 * scale);
    ctx.fillStyle = "#fff";
    ctx.fillText(text, x1 + 2, y1 - 3 * scale);
  });
  const t = label.tiles[selected];
  if (t) {
    // handles on every corner and edge of the selected box: each one resizes from there
    const size = HANDLE * screenScale();
    ctx.lineWidth = Math.max(1, size / 6);
    ctx.strokeStyle = "#222";
    ctx.fillStyle = "#fff";
    handlePoints(t.box).forEach(([x, y]) => {
      ctx.fillRect(x - size / 2, y - size / 2, size, size);
      ctx.strokeRect(x - size / 2, y - size / 2, size, size);
    });
  }
  $("#selected").textContent = t ? `box ${selected}: ${t.face_down ? "face down" : t.code || "?"}${t.rotated ? ", sideways" : ""}` : "Click a box to select it; drag on empty space to add one.";
  const h = current && histories.get(current);
  $("#undo").disabled = !(h && h.undo.length);
  $("#redo").disabled = !(h && h.redo.length);
}

// -- pointer: press an edge or handle to resize, inside a box to move it, elsewhere to draw one ---
function point(event) {
  const rect = canvas.getBoundingClientRect();
  return [(event.clientX - rect.left) * canvas.width / rect.width, (event.clientY - rect.top) * canvas.height / rect.height];
}

function tolerance(event) {
  return (event.pointerType === "touch" ? EDGE.touch : EDGE.mouse) * screenScale();
}

const inside = ([x1, y1, x2, y2], [x, y]) => x >= x1 && x <= x2 && y >= y1 && y <= y2;

// Which part of a box a point is on: "n", "ne", ..., "w" (an edge or corner, from up to `tol`
// outside to a little inside), "inside", or null. A small box keeps a middle that moves it.
function part([x1, y1, x2, y2], [x, y], tol) {
  if (x < x1 - tol || x > x2 + tol || y < y1 - tol || y > y2 + tol) return null;
  const inX = Math.min(tol, (x2 - x1) / 4), inY = Math.min(tol, (y2 - y1) / 4);
  const v = y <= y1 + inY ? "n" : y >= y2 - inY ? "s" : "";
  const h = x <= x1 + inX ? "w" : x >= x2 - inX ? "e" : "";
  return v + h || "inside";
}

// [box index, part] for a press: the selected box's handles and edges first, then an edge of a
// box the press is in, then the inside of a box, then an edge pressed from just outside.
function pick(p, tol) {
  if (!label) return null;
  const order = [];
  if (selected >= 0 && selected < label.tiles.length) order.push(selected);
  for (let i = label.tiles.length - 1; i >= 0; i--) if (i !== selected) order.push(i);
  const hits = order.map((i) => [i, part(label.tiles[i].box, p, tol)]).filter(([, m]) => m);
  const edge = ([, m]) => m !== "inside";
  return hits.find((h) => h[0] === selected && edge(h))
    || hits.find((h) => edge(h) && inside(label.tiles[h[0]].box, p))
    || hits.find((h) => !edge(h))
    || hits.find(edge)
    || null;
}

const clampX = (x) => Math.max(0, Math.min(canvas.width, x));
const clampY = (y) => Math.max(0, Math.min(canvas.height, y));

canvas.addEventListener("pointerdown", (e) => {
  if (!ready || e.button !== 0) return;
  const p = point(e);
  const hit = pick(p, tolerance(e));
  const before = snapshot();
  if (hit) {
    selected = hit[0];
    drag = { mode: hit[1] === "inside" ? "move" : hit[1], start: p, box: [...label.tiles[selected].box], before };
  } else {
    drag = { mode: "new", start: p, before };
  }
  canvas.style.cursor = CURSORS[hit ? hit[1] : ""] || "crosshair";
  canvas.setPointerCapture(e.pointerId);
  draw();
});

canvas.addEventListener("pointermove", (e) => {
  if (!drag) {
    if (ready) { const hit = pick(point(e), tolerance(e)); canvas.style.cursor = CURSORS[hit ? hit[1] : ""] || "crosshair"; }
    return;
  }
  const p = point(e);
  const dx = p[0] - drag.start[0], dy = p[1] - drag.start[1];
  if (drag.mode === "move") {
    const [x1, y1, x2, y2] = drag.box;
    label.tiles[selected].box = [x1 + dx, y1 + dy, x2 + dx, y2 + dy];
  } else if (drag.mode === "new") {
    drag.end = [clampX(p[0]), clampY(p[1])];
  } else {
    let [x1, y1, x2, y2] = drag.box;
    const m = drag.mode;
    if (m.includes("w")) x1 = Math.min(clampX(x1 + dx), x2 - MIN_SIZE);
    if (m.includes("e")) x2 = Math.max(clampX(x2 + dx), x1 + MIN_SIZE);
    if (m.includes("n")) y1 = Math.min(clampY(y1 + dy), y2 - MIN_SIZE);
    if (m.includes("s")) y2 = Math.max(clampY(y2 + dy), y1 + MIN_SIZE);
    label.tiles[selected].box = [x1, y1, x2, y2];
  }
  draw();
  if (drag.mode === "new" && drag.end) {
    ctx.strokeStyle = "#f2b134";
    ctx.strokeRect(drag.start[0], drag.start[1], drag.end[0] - drag.start[0], drag.end[1] - drag.start[1]);
  }
});

canvas.addEventListener("pointerup", () => {
  if (!drag) return;
  const d = drag;
  drag = null;
  if (d.mode === "new" && d.end) {
    const [ax, ay] = d.start, [bx, by] = d.end;
    if (Math.abs(bx - ax) > 8 && Math.abs(by - ay) > 8) {
      label.tiles.push({ code: null, box: [Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)], face_down: false, rotated: false });
      selected = label.tiles.length - 1;
      $("#code-input").focus();
    }
  }
  commit(d.before);
});

function cancelDrag() {
  if (!drag) return false;
  label.tiles = copy(drag.before.tiles);
  drag = null;
  draw();
  return true;
}

canvas.addEventListener("pointercancel", cancelDrag);

// -- edits -------------------------------------------------------------------------------------
function setCode(code) {
  if (!ready || selected < 0) return;
  if (!codes.has(code)) { status(`unknown tile code '${code}'`, true); return; }
  const before = snapshot();
  Object.assign(label.tiles[selected], { code, face_down: false });
  commit(before);
}

function toggle(key) {
  if (!ready || selected < 0) return;
  const before = snapshot();
  label.tiles[selected][key] = !label.tiles[selected][key];
  if (key === "face_down" && label.tiles[selected].face_down) label.tiles[selected].code = null;
  commit(before);
}

function remove() {
  if (!ready || selected < 0) return;
  const before = snapshot();
  label.tiles.splice(selected, 1);
  selected = -1;
  commit(before);
}

function nudge(dx, dy) {
  if (!ready || selected < 0) return;
  const before = snapshot();
  const b = label.tiles[selected].box;
  label.tiles[selected].box = [b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy];
  commit(before, `nudge ${selected}`);
}

function cycle(delta) {
  if (!ready) return;
  const n = label.tiles.length;
  if (!n) selected = -1;
  else if (selected < 0) selected = delta > 0 ? 0 : n - 1;
  else selected = (selected + delta + n) % n;
  draw();
}

// Notes are saved a moment after typing stops, when the field is left, and before another photo.
let notesTimer = null;

function flushNotes() {
  if (!notesTimer) return;
  clearTimeout(notesTimer);
  notesTimer = null;
  save();
}

notes.addEventListener("input", () => {
  if (!ready) return;
  label.notes = notes.value;
  clearTimeout(notesTimer);
  notesTimer = setTimeout(flushNotes, 800);
  status("notes changed…");
});
notes.addEventListener("change", flushNotes);
window.addEventListener("beforeunload", (e) => {
  if (notesTimer || inflight) { flushNotes(); e.preventDefault(); e.returnValue = ""; }
});

async function markDone() {
  if (!ready) return;
  flushNotes();
  label.status = "done";
  await save();
  await loadList();
  // a broken label is fixed by hand, in its file: Done moves on past it
  const next = photos.find((p) => p.status !== "done" && p.status !== "broken");
  if (next) open(next.image);
}

function step(delta) {
  const i = photos.findIndex((p) => p.image === current);
  const next = photos[(i + delta + photos.length) % photos.length];
  if (next) open(next.image);
}

$("#toggle-down").addEventListener("click", () => toggle("face_down"));
$("#toggle-rot").addEventListener("click", () => toggle("rotated"));
$("#delete").addEventListener("click", remove);
$("#undo").addEventListener("click", undo);
$("#redo").addEventListener("click", redo);
$("#done").addEventListener("click", markDone);
$("#code-input").addEventListener("keydown", (e) => {
  if (e.key === "Enter") {
    e.preventDefault();
    const code = e.target.value.trim();
    if (code) { setCode(code); e.target.value = ""; }
  } else if (e.key === "Escape") e.target.blur();
});

const typing = (el) => el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName);

document.addEventListener("keydown", (e) => {
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if ((e.ctrlKey || e.metaKey) && !e.altKey && (key === "z" || key === "y")) {
    // a text field keeps its own undo; the empty code field (focused after drawing a box) does not
    if (typing(e.target) && !(e.target.id === "code-input" && !e.target.value)) return;
    e.preventDefault();
    if (key === "y" || e.shiftKey) redo(); else undo();
    return;
  }
  if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
  // a key the page handles must not also press the focused button (Enter after clicking
  // "Face down" would toggle it back and lose the tile's code)
  if (["Enter", "f", "r", "n", "p", "Delete", "Backspace", "Escape"].includes(key)) e.preventDefault();
  const moves = { ArrowLeft: [-2, 0], ArrowRight: [2, 0], ArrowUp: [0, -2], ArrowDown: [0, 2] };
  if (key in moves && selected >= 0) { e.preventDefault(); nudge(...moves[key]); }
  else if (key === "f") toggle("face_down");
  else if (key === "r") toggle("rotated");
  else if (key === "Delete" || key === "Backspace") remove();
  else if (key === "Enter") markDone();
  else if (key === "n") step(1);
  else if (key === "p") step(-1);
  else if (key === "Escape") { if (!cancelDrag()) { selected = -1; draw(); } }
  else if (key === "Tab") { e.preventDefault(); cycle(e.shiftKey ? -1 : 1); }
});

loadList().then(() => photos.length && open(photos[0].image)).catch((e) => status(e.message, true));

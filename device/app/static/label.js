// Labelling page: boxes on a canvas; every change is saved at once (PUT, atomic on the server).
"use strict";

const canvas = document.getElementById("canvas");
const ctx = canvas.getContext("2d");
const image = new Image();
let photos = [];
let current = null;
let label = null;
let selected = -1;
let drag = null;
let saved = null; // the label as the server last confirmed it: a failed save goes back to it
const codes = new Set(["other"]);
const copy = (x) => JSON.parse(JSON.stringify(x));

const $ = (s) => document.querySelector(s);
const status = (text, bad) => { $("#status").textContent = text; $("#status").style.color = bad ? "#ff6b6b" : ""; };

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
    li.textContent = `${p.image} (${p.tiles})`;
    li.dataset.image = p.image;
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
  current = name;
  selected = -1;
  status("loading…");
  label = await api(`/api/photos/${encodeURIComponent(name)}/label`);
  saved = copy(label);
  image.onload = () => { canvas.width = image.naturalWidth; canvas.height = image.naturalHeight; draw(); status(name); };
  image.src = `/api/photos/${encodeURIComponent(name)}/image`;
  document.querySelectorAll("#photo-list li").forEach((li) => li.classList.toggle("current", li.dataset.image === name));
}

async function save() {
  try {
    label = await api(`/api/photos/${encodeURIComponent(current)}/label`, {
      method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify(label),
    });
    saved = copy(label);
    status(`saved ${current}`);
  } catch (error) {
    // show what is really on disk, so one bad edit does not block every later save
    if (saved) { label = copy(saved); if (selected >= label.tiles.length) selected = -1; draw(); }
    status(`not saved: ${error.message}`, true);
  }
}

function draw() {
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
  $("#selected").textContent = t ? `box ${selected}: ${t.face_down ? "face down" : t.code || "?"}${t.rotated ? ", sideways" : ""}` : "Click a box to select it; drag on empty space to add one.";
}

function point(event) {
  const rect = canvas.getBoundingClientRect();
  return [(event.clientX - rect.left) * canvas.width / rect.width, (event.clientY - rect.top) * canvas.height / rect.height];
}

function hit([x, y]) {
  for (let i = label.tiles.length - 1; i >= 0; i--) {
    const [x1, y1, x2, y2] = label.tiles[i].box;
    if (x >= x1 && x <= x2 && y >= y1 && y <= y2) return i;
  }
  return -1;
}

canvas.addEventListener("pointerdown", (e) => {
  const p = point(e);
  const i = hit(p);
  if (i >= 0) {
    selected = i;
    const [x1, y1, x2, y2] = label.tiles[i].box;
    const corner = Math.hypot(p[0] - x2, p[1] - y2) < Math.max(12, (x2 - x1) / 5);
    drag = { mode: corner ? "resize" : "move", start: p, box: [x1, y1, x2, y2] };
  } else {
    drag = { mode: "new", start: p };
  }
  canvas.setPointerCapture(e.pointerId);
  draw();
});

canvas.addEventListener("pointermove", (e) => {
  if (!drag) return;
  const p = point(e);
  const dx = p[0] - drag.start[0], dy = p[1] - drag.start[1];
  if (drag.mode === "move") {
    const [x1, y1, x2, y2] = drag.box;
    label.tiles[selected].box = [x1 + dx, y1 + dy, x2 + dx, y2 + dy];
  } else if (drag.mode === "resize") {
    const [x1, y1, x2, y2] = drag.box;
    label.tiles[selected].box = [x1, y1, Math.max(x1 + 4, x2 + dx), Math.max(y1 + 4, y2 + dy)];
  } else {
    drag.end = p;
  }
  draw();
  if (drag.mode === "new" && drag.end) {
    ctx.strokeStyle = "#f2b134";
    ctx.strokeRect(drag.start[0], drag.start[1], dx, dy);
  }
});

canvas.addEventListener("pointerup", () => {
  if (!drag) return;
  if (drag.mode === "new" && drag.end) {
    const [ax, ay] = drag.start, [bx, by] = drag.end;
    if (Math.abs(bx - ax) > 8 && Math.abs(by - ay) > 8) {
      label.tiles.push({ code: null, box: [Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)], face_down: false, rotated: false });
      selected = label.tiles.length - 1;
      $("#code-input").focus();
    }
  }
  const changed = drag.mode !== "new" || selected === label.tiles.length - 1;
  drag = null;
  draw();
  if (changed) save();
});

function setCode(code) {
  if (selected < 0) return;
  if (!codes.has(code)) { status(`unknown tile code '${code}'`, true); return; }
  Object.assign(label.tiles[selected], { code, face_down: false });
  draw();
  save();
}

function toggle(key) {
  if (selected < 0) return;
  label.tiles[selected][key] = !label.tiles[selected][key];
  if (key === "face_down" && label.tiles[selected].face_down) label.tiles[selected].code = null;
  draw();
  save();
}

function remove() {
  if (selected < 0) return;
  label.tiles.splice(selected, 1);
  selected = -1;
  draw();
  save();
}

async function markDone() {
  label.status = "done";
  await save();
  await loadList();
  const next = photos.find((p) => p.status !== "done");
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
$("#done").addEventListener("click", markDone);
$("#code-input").addEventListener("keydown", (e) => {
  if (e.key === "Enter") {
    e.preventDefault();
    const code = e.target.value.trim();
    if (code) { setCode(code); e.target.value = ""; }
  }
});

document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT") return;
  // a key the page handles must not also press the focused button (Enter after clicking
  // "Face down" would toggle it back and lose the tile's code)
  if (["Enter", "f", "r", "n", "p", "Delete", "Backspace"].includes(e.key)) e.preventDefault();
  const moves = { ArrowLeft: [-2, 0], ArrowRight: [2, 0], ArrowUp: [0, -2], ArrowDown: [0, 2] };
  if (e.key in moves && selected >= 0) {
    const [dx, dy] = moves[e.key];
    const b = label.tiles[selected].box;
    label.tiles[selected].box = [b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy];
    draw(); save(); e.preventDefault();
  } else if (e.key === "f") toggle("face_down");
  else if (e.key === "r") toggle("rotated");
  else if (e.key === "Delete" || e.key === "Backspace") remove();
  else if (e.key === "Enter") markDone();
  else if (e.key === "n") step(1);
  else if (e.key === "p") step(-1);
  else if (e.key === "Tab") { e.preventDefault(); selected = (selected + 1) % Math.max(1, label.tiles.length); draw(); }
});

loadList().then(() => photos.length && open(photos[0].image)).catch((e) => status(e.message, true));

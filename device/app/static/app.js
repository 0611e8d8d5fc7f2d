// The table app page: camera, result with tap-to-correct, table context, scoreboard.
"use strict";

const EVENTS = {
  taiwan: ["last_tile", "after_kong", "after_flower", "robbing_kong", "heavenly_win", "earthly_win",
    "human_win", "heavenly_ready", "earthly_ready", "eight_flowers", "seven_flowers_rob"],
  riichi: ["riichi", "double_riichi", "ippatsu", "last_tile", "last_discard", "after_kong",
    "robbing_kong", "heavenly_win", "earthly_win"],
  mingjiang: ["last_tile", "last_discard", "after_kong", "robbing_kong", "heavenly_win",
    "earthly_win", "human_win", "furiten"],
  xiangqi: ["declared_ready", "after_kong", "kong_after_kong", "last_tile", "last_discard",
    "robbing_kong", "heavenly_win", "earthly_win", "human_win", "heavenly_ready"],
};
const SUIT_COLOURS = { m: "#ff5a5a", p: "#4aa3ff", s: "#3ddc84", z: "#f2b134", f: "#d98cff",
  b: "#dddddd", r: "#ff8c42" };

let tiles = [];
let currentHand = null;
let pickedTile = null;

const $ = (sel) => document.querySelector(sel);

async function api(path, options = {}) {
  const response = await fetch(path, options);
  const type = response.headers.get("Content-Type") || "";
  const body = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw new Error((body && body.error) || `request failed (${response.status})`);
  return body;
}

function show(screen) {
  document.querySelectorAll(".screen").forEach((s) => s.classList.toggle("active", s.id === screen));
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.screen === screen));
  if (screen === "board") loadBoard();
}

function setStatus(text, bad = false) {
  $("#status").innerHTML = "";
  const span = document.createElement("span");
  span.textContent = text;
  if (bad) span.className = "bad";
  $("#status").appendChild(span);
}

async function loadStatus() {
  try {
    const status = await api("/api/status");
    tiles = status.tiles;
    const problems = [status.camera_error, status.model_error].filter(Boolean);
    if (status.disk_free_mb < 200) problems.push(`disk almost full (${status.disk_free_mb} MB)`);
    if (problems.length) setStatus(problems.join(" · "), true);
    else setStatus(status.pin ? `PIN for phones: ${status.pin}` : `camera ${status.camera}`);
    buildPicker();
  } catch (error) {
    setStatus(error.message, true);
  }
}

function refreshPreview() {
  if (!$("#camera").classList.contains("active")) return;
  const img = $("#preview");
  const next = new Image();
  next.onload = () => { img.src = next.src; };
  next.onerror = () => setStatus("camera: no picture", true);
  next.src = `/api/preview.jpg?t=${Date.now()}`;
}

async function scoreNow() {
  $("#score-button").disabled = true;
  setStatus("reading the tiles…");
  try {
    renderHand(await api("/api/score", { method: "POST" }));
    setStatus("scored");
    show("result");
  } catch (error) {
    setStatus(error.message, true);
  } finally {
    $("#score-button").disabled = false;
  }
}

async function uploadPhoto(file) {
  const form = new FormData();
  form.append("photo", file);
  setStatus("reading the tiles…");
  try {
    renderHand(await api("/api/upload", { method: "POST", body: form }));
    setStatus("scored");
    show("result");
  } catch (error) {
    setStatus(error.message, true);
  }
}

function colourOf(code) {
  return code ? SUIT_COLOURS[code.slice(-1)] || "#ffffff" : "#bbbbbb";
}

function renderHand(hand) {
  currentHand = hand;
  const img = $("#result-photo");
  img.src = hand.photo ? `${hand.photo}?t=${Date.now()}` : "";
  const svg = $("#overlay");
  svg.setAttribute("viewBox", `0 0 ${hand.width || 1} ${hand.height || 1}`);
  svg.innerHTML = "";
  hand.tiles.forEach((tile, index) => {
    const [x1, y1, x2, y2] = tile.box;
    const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    rect.setAttribute("x", x1); rect.setAttribute("y", y1);
    rect.setAttribute("width", x2 - x1); rect.setAttribute("height", y2 - y1);
    rect.setAttribute("stroke", colourOf(tile.code));
    rect.dataset.index = index;
    rect.classList.add("tile-box");
    if (tile.low_confidence) rect.classList.add("low");
    rect.addEventListener("click", () => openPicker(index));
    const label = document.createElementNS("http://www.w3.org/2000/svg", "text");
    label.setAttribute("x", x1); label.setAttribute("y", Math.max(y1 - 6, 30));
    label.setAttribute("fill", colourOf(tile.code));
    label.textContent = tile.face_down ? "▮" : (tile.code || "?");
    svg.appendChild(rect); svg.appendChild(label);
  });
  const reading = hand.reading || {};
  const melds = (reading.melds || []).map((m) => (typeof m === "string" ? m : `${m.type}:${m.tiles}`));
  $("#reading").textContent =
    `${reading.hand || ""}  +${reading.win_tile || "?"}  ${melds.join(" ")}  ${reading.flowers || ""}`;
  $("#edit-hand").value = reading.hand || "";
  $("#edit-melds").value = melds.join(" ");
  $("#edit-flowers").value = reading.flowers || "";
  const problems = $("#problems");
  problems.innerHTML = "";
  (hand.problems || []).forEach((p) => {
    const li = document.createElement("li"); li.textContent = p; problems.appendChild(li);
  });
  const body = $("#items tbody");
  body.innerHTML = "";
  const result = hand.result || {};
  if (result.error) {
    $("#total").innerHTML = "";
    const div = document.createElement("div");
    div.className = "error"; div.textContent = result.error;
    $("#total").appendChild(div);
  } else {
    (result.items || []).forEach((item) => {
      const tr = document.createElement("tr");
      for (const [cls, text] of [["name", item.name], ["value", `${item.value}`], ["why", item.why]]) {
        const td = document.createElement("td"); td.className = cls; td.textContent = text; tr.appendChild(td);
      }
      body.appendChild(tr);
    });
    $("#total").textContent = result.winning ? `${result.total} ${result.unit}` : "not a winning hand";
    $("#total").dataset.total = result.total;
  }
  const payments = $("#payments");
  payments.innerHTML = "";
  (result.payments || []).forEach((p) => {
    const li = document.createElement("li"); li.textContent = `${p.payer} → ${p.payee}: ${p.amount}`;
    payments.appendChild(li);
  });
}

function buildPicker() {
  const grid = $("#tile-grid");
  grid.innerHTML = "";
  tiles.forEach((tile) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.code = tile.code;
    button.style.borderColor = colourOf(tile.code);
    button.innerHTML = `<span></span><small></small>`;
    button.querySelector("span").textContent = tile.name;
    button.querySelector("small").textContent = tile.code;
    button.addEventListener("click", () => fixTile({ code: tile.code }));
    grid.appendChild(button);
  });
}

function openPicker(index) {
  pickedTile = index;
  $("#picker").showModal();
}

async function fix(body) {
  try {
    renderHand(await api(`/api/hands/${currentHand.id}/fix`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    }));
    setStatus("corrected");
  } catch (error) {
    setStatus(error.message, true);
  }
}

async function fixTile(change) {
  $("#picker").close();
  await fix({ tile: pickedTile, ...change });
}

async function loadContext() {
  const context = await api("/api/context");
  const form = $("#context-form");
  form.variant.value = context.variant || "taiwan";
  form.seat_wind.value = context.seat_wind || "E";
  form.round_wind.value = context.round_wind || "E";
  form.dealer_streak.value = context.dealer_streak || 0;
  form.self_draw.checked = !!context.self_draw;
  form.discarder.value = context.discarder || "";
  renderEvents(form.variant.value, context.events || []);
}

function renderEvents(variant, chosen) {
  const box = $("#events");
  box.querySelectorAll("label").forEach((l) => l.remove());
  (EVENTS[variant] || []).forEach((event) => {
    const label = document.createElement("label");
    label.className = "check";
    label.innerHTML = `<input type="checkbox" name="event" value="${event}"> <span></span>`;
    label.querySelector("span").textContent = event.replaceAll("_", " ");
    label.querySelector("input").checked = chosen.includes(event);
    box.appendChild(label);
  });
}

async function saveContext(event) {
  event.preventDefault();
  const form = $("#context-form");
  const body = {
    variant: form.variant.value,
    seat_wind: form.seat_wind.value,
    round_wind: form.round_wind.value,
    dealer_streak: Number(form.dealer_streak.value || 0),
    self_draw: form.self_draw.checked,
    discarder: form.self_draw.checked ? null : (form.discarder.value || null),
    events: [...form.querySelectorAll("input[name=event]:checked")].map((i) => i.value),
  };
  try {
    await api("/api/context", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    setStatus("table settings saved");
    if (currentHand) await fix({ context: body });
  } catch (error) {
    setStatus(error.message, true);
  }
}

async function loadBoard() {
  const data = await api("/api/session");
  const totals = $("#totals tbody");
  totals.innerHTML = "";
  Object.entries(data.totals || {}).forEach(([name, total]) => {
    const tr = document.createElement("tr");
    tr.innerHTML = "<td></td><td></td>";
    tr.children[0].textContent = name; tr.children[1].textContent = total;
    totals.appendChild(tr);
  });
  const hands = $("#hands tbody");
  hands.innerHTML = "";
  (data.hands || []).forEach((hand) => {
    const tr = document.createElement("tr");
    tr.innerHTML = "<td></td><td></td><td></td><td></td>";
    tr.children[0].textContent = hand.id;
    tr.children[1].textContent = hand.hand || "";
    tr.children[2].textContent = hand.winner || "";
    tr.children[3].textContent = hand.error ? hand.error : `${hand.total} ${hand.unit}`;
    tr.addEventListener("click", async () => { renderHand(await api(`/api/hands/${hand.id}`)); show("result"); });
    hands.appendChild(tr);
  });
}

function init() {
  document.querySelectorAll(".tab").forEach((tab) => tab.addEventListener("click", () => show(tab.dataset.screen)));
  $("#score-button").addEventListener("click", scoreNow);
  $("#upload").addEventListener("change", (e) => e.target.files[0] && uploadPhoto(e.target.files[0]));
  $("#pick-face-down").addEventListener("click", (e) => { e.preventDefault(); fixTile({ face_down: true }); });
  $("#pick-win").addEventListener("click", (e) => {
    e.preventDefault();
    const tile = currentHand.tiles[pickedTile];
    $("#picker").close();
    if (tile && tile.code) fix({ win_tile: tile.code });
  });
  $("#save-reading").addEventListener("click", () => fix({
    hand: $("#edit-hand").value, melds: $("#edit-melds").value.split(/\s+/).filter(Boolean),
    flowers: $("#edit-flowers").value,
  }));
  $("#context-form").addEventListener("submit", saveContext);
  $("#context-form").variant.addEventListener("change", (e) => renderEvents(e.target.value, []));
  $("#undo").addEventListener("click", async () => { await api("/api/undo", { method: "POST" }); loadBoard(); });
  $("#new-session").addEventListener("click", async () => {
    const names = prompt("Players, East South West North (comma separated)", "East,South,West,North");
    if (!names) return;
    await api("/api/session", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ players: names.split(",").map((s) => s.trim()) }) });
    loadBoard();
  });
  loadStatus();
  loadContext();
  setInterval(refreshPreview, 800);
  refreshPreview();
}

document.addEventListener("DOMContentLoaded", init);

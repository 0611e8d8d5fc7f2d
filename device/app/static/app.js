// The table app page: camera, result with tap-to-correct, table context, scoreboard.
"use strict";

const SEATS = ["E", "S", "W", "N"];
const WIND_NAMES = { E: "東", S: "南", W: "西", N: "北" };
const MELD_NAMES = { chi: "吃", pon: "碰", kong: "明槓", added_kong: "加槓", concealed_kong: "暗槓" };
const SUIT_COLOURS = { m: "#ff5a5a", p: "#4aa3ff", s: "#3ddc84", z: "#f2b134", f: "#d98cff",
  b: "#dddddd", r: "#ff8c42" };

let tiles = [];          // every tile the scorer knows: {code, name}
let notATile = "other";  // the code of a box a person said holds no tile (the server says)
let variants = {};       // rule set -> {title, unit, events: [{code, name}], pieces, flowers, pao, sticks}
let context = {};        // the remembered table context (the next hand's)
let currentHand = null;  // the hand on the Result screen
let latestHandId = null; // the hand scored last from this page: Table changes apply to it
let repeatOf = null;      // the hand on show is this one, found again by a Score tap: no new hand
let formShown = null;    // the Table form as last filled from the table's settings (readForm)
let pickedTile = null;
let selected = [];       // concealed tiles chosen to join into a meld (positions in the hand)
let cameraProblem = null;
let lastStatusAt = 0;
let still = { enabled: false, seq: null }; // scoring by itself: the server's /api/still
let stillAsking = false;
let drawSeats = {};      // chair -> player name, from the Scoreboard (the draw dialog names them)

const $ = (sel) => document.querySelector(sel);

async function api(path, options = {}) {
  const response = await fetch(path, options);
  const type = response.headers.get("Content-Type") || "";
  const body = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    if (body && body.pin_required) askPin();
    const error = new Error((body && body.error) || `request failed (${response.status})`);
    error.body = body;  // what else the app said (no_tiles: a photo in which none was found)
    throw error;
  }
  return body;
}

const post = (path, body) => api(path, {
  method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
});

function show(screen) {
  remember({ screen });
  document.querySelectorAll(".screen").forEach((s) => s.classList.toggle("active", s.id === screen));
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.screen === screen));
  if (screen === "board") loadBoard().catch((error) => setStatus(error.message, true));
  if (screen === "camera") refreshPreview();
}

// Whether the Result screen is on show, and its hand, kept in this tab for a reload (a
// phone pulled to refresh, the kiosk restarted): the page came back on the Camera screen and
// the hand being scored was gone from sight. Not the hand this page scored (latestHandId):
// after a reload, Table changes go to the next hand only.
const VIEW_KEY = "tilescore.view";

function remember(change) {
  try {
    const view = JSON.parse(sessionStorage.getItem(VIEW_KEY) || "{}");
    sessionStorage.setItem(VIEW_KEY, JSON.stringify({ ...view, ...change }));
  } catch (error) {
    // Storage refused (a private window): a reload shows the Camera screen, as before.
  }
}

async function restoreView() {
  let view = {};
  try {
    view = JSON.parse(sessionStorage.getItem(VIEW_KEY) || "{}") || {};
  } catch (error) {
    return;
  }
  if (Number.isInteger(view.hand)) {
    try {
      repeatOf = Number.isInteger(view.repeatOf) ? view.repeatOf : null;
      renderHand(await api(`/api/hands/${view.hand}`));
    } catch (error) {
      remember({ hand: null, repeatOf: null });  // gone (another data folder): not said
      if (view.screen === "result") return;
    }
  }
  // Only the Result screen: the others show what the table holds now, from the Camera screen.
  if (view.screen === "result" && currentHand) show("result");
}

function setStatus(text, bad = false) {
  $("#status").innerHTML = "";
  const span = document.createElement("span");
  span.textContent = text;
  if (bad) span.className = "bad";
  $("#status").appendChild(span);
}

// Problems that last (camera, models, disk) stay on screen, in words, until they are gone.
let statusProblems = [];
function renderAlerts() {
  const list = $("#alerts");
  list.innerHTML = "";
  [cameraProblem, ...statusProblems].filter(Boolean).forEach((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    list.appendChild(li);
  });
}

async function loadStatus() {
  lastStatusAt = Date.now();
  try {
    const status = await api("/api/status");
    const first = !tiles.length;
    tiles = status.tiles;
    notATile = status.not_a_tile || notATile;
    variants = status.variants;
    cameraProblem = status.camera_error;
    statusProblems = [status.model_error, status.context_error];
    if (status.disk_free_mb < 200) {
      statusProblems.push(`disk almost full (${status.disk_free_mb} MB free): new hands may not be saved`);
    }
    renderAlerts();
    const network = $("#network");
    network.hidden = !status.pin;
    if (status.pin) network.textContent = `Phones: ${status.network_url || ""}  ·  PIN ${status.pin}`;
    if (first) {
      fillContextForm();
      await loadContext();
      await loadStill();
      await restoreView();
    }
  } catch (error) {
    setStatus(error.message, true);
  }
}

let previewSince = 0;  // when the frame in flight was asked for; 0: none in flight

function refreshPreview() {
  if (!$("#camera").classList.contains("active")) return;
  // One frame in flight at a time: a camera that stops answering would otherwise pile up
  // requests until the browser's connections to the app were all taken, the page with them.
  if (previewSince && Date.now() - previewSince < 15000) return;
  previewSince = Date.now();
  const img = $("#preview");
  const next = new Image();
  next.onload = () => {
    previewSince = 0;
    img.src = next.src;
    img.hidden = false;
    $("#preview-missing").hidden = true;
    if (cameraProblem) { cameraProblem = null; renderAlerts(); }
    // The server watches these frames for a still hand while the toggle is on; ask how it went.
    if (still.enabled) loadStill();
  };
  next.onerror = () => {
    previewSince = 0;
    img.hidden = true;
    $("#preview-missing").hidden = false;
    // The reason is kept by the server; ask for it now and then, not on every frame.
    if (Date.now() - lastStatusAt > 3000) loadStatus();
  };
  next.src = `/api/preview.jpg?t=${Date.now()}`;
}

// Scoring by itself when the hand is still: what the watcher is doing, its last note, and a
// hand it recorded (opened on the Result screen, as a Score tap would).
const STILL_PHASES = {
  watching: "Scores by itself when the hand is still",
  moving: "Scores by itself when the hand is still · moving",
  settling: "Scores by itself when the hand is still · holding still…",
  reading: "reading the still hand…",
};

async function loadStill() {
  if (stillAsking) return;
  stillAsking = true;
  try {
    applyStill(await api("/api/still"));
  } catch (error) {
    setStatus(error.message, true);
  } finally {
    stillAsking = false;
  }
}

function applyStill(status) {
  const known = still.seq;
  still = status;
  $("#context-form").still_scoring.checked = status.enabled;
  const note = $("#still-note");
  note.hidden = !status.enabled;
  note.textContent = status.note || STILL_PHASES[status.phase] || "";
  // A hand recorded since this page last asked (not before it was opened) is shown at once.
  if (known !== null && status.seq !== known && status.hand
      && !(currentHand && currentHand.id === status.hand)) openStillHand(status.hand);
}

// A hand just recorded (Score tap, upload, typed or a still hand): it becomes the one on show.
function showScored(hand, message) {
  $("#type-hand").hidden = true;
  latestHandId = hand.id;
  repeatOf = hand.repeat_of ?? null;
  renderHand(hand);
  setStatus(message);
  show("result");
}

async function openStillHand(id) {
  try {
    const hand = await api(`/api/hands/${id}`);
    showScored(hand, "scored by itself: the hand was still");
  } catch (error) {
    setStatus(error.message, true);
  } finally {
    loadContext();
  }
}

async function switchStill(event) {
  const enabled = event.target.checked;
  try {
    applyStill(await post("/api/still", { enabled }));
    setStatus(enabled ? "scores by itself when the hand is still" : "scores when Score hand is tapped");
  } catch (error) {
    event.target.checked = !enabled;
    setStatus(error.message, true);
  }
}

// What the status line says of a photo's hand: scored, or one recorded already shown again.
function scoredNote(hand) {
  return hand.repeat_of
    ? `the same tiles as hand ${hand.repeat_of}: shown, not scored again (undo it to score anew)`
    : "scored";
}

async function scoreNow() {
  $("#score-button").disabled = true;
  setStatus("reading the tiles…");
  try {
    const hand = await api("/api/score", { method: "POST" });
    showScored(hand, scoredNote(hand));
  } catch (error) {
    setStatus(error.message, true);
    offerTyping(error);
  } finally {
    $("#score-button").disabled = false;
    loadContext();
  }
}

async function uploadPhoto(file) {
  const form = new FormData();
  form.append("photo", file);
  setStatus("reading the tiles…");
  try {
    const hand = await api("/api/upload", { method: "POST", body: form });
    showScored(hand, scoredNote(hand));
  } catch (error) {
    setStatus(error.message, true);
    offerTyping(error);
  } finally {
    $("#upload").value = "";
    loadContext();
  }
}

// A photo in which no tile was found records nothing: the hand can be typed in instead, in the
// fields Edit groups has, and is recorded without a photo.
function offerTyping(error) {
  if (!(error.body && error.body.no_tiles)) return;
  $("#type-hand").hidden = false;
  $("#type-hand").open = true;
}

// The groups typed in one set of Edit groups' fields (#PREFIX-hand, -melds, -flowers), as the
// server takes them.
function typedGroups(prefix) {
  return {
    hand: $(`#${prefix}-hand`).value,
    melds: $(`#${prefix}-melds`).value.split(/\s+/).filter(Boolean),
    flowers: $(`#${prefix}-flowers`).value,
  };
}

async function scoreTyped() {
  const body = typedGroups("typed");
  const win = $("#typed-win").value.trim();
  if (win) body.win_tile = win;
  $("#score-typed").disabled = true;
  try {
    const hand = await post("/api/typed", body);
    showScored(hand, hand.repeat_of ? `the same hand as hand ${hand.repeat_of}: not scored again`
      : "scored as typed");
    ["#typed-hand", "#typed-melds", "#typed-flowers", "#typed-win"].forEach((id) => { $(id).value = ""; });
  } catch (error) {
    setStatus(error.message, true);
  } finally {
    $("#score-typed").disabled = false;
    loadContext();
  }
}

function colourOf(code) {
  return code ? SUIT_COLOURS[code.slice(-1)] || "#ffffff" : "#bbbbbb";
}

function tileName(code) {
  const tile = tiles.find((t) => t.code === code);
  return tile ? tile.name : code;
}

// Compact notation ("234m55z", pieces as their characters) to tile codes.
function parseTiles(text) {
  const out = [];
  let digits = [];
  for (const ch of text || "") {
    if (/[\s,+]/.test(ch)) continue;
    if (/[0-9]/.test(ch)) digits.push(ch);
    else if (/[mpszfbr]/.test(ch)) { digits.forEach((d) => out.push(d + ch)); digits = []; }
    else {
      const tile = tiles.find((t) => t.name === ch);
      out.push(tile ? tile.code : ch);
    }
  }
  return out;
}

function meldOf(meld) {
  if (typeof meld !== "string") return meld;
  const [type, tilesText] = meld.split(":");
  return { type, tiles: tilesText || "" };
}

function seatLabel(seat, seats) {
  const name = seats && seats[seat];
  return name && name !== seat ? `${WIND_NAMES[seat]} ${name}` : WIND_NAMES[seat] || seat;
}

function winIndex(hand) {
  const reading = hand.reading || {};
  if (Number.isInteger(reading.win_index)) return reading.win_index;
  const group = (reading.groups || []).find((g) => g.role === "win");
  return group ? group.tiles[0] : -1;
}

// The part of the photo with tiles in it, and a margin: the boxes are as large as the screen
// allows, so a finger finds them.
function cropOf(hand) {
  const width = hand.width || 1, height = hand.height || 1;
  if (!hand.tiles.length) return [0, 0, width, height];
  const boxes = hand.tiles.map((t) => t.box);
  const sizes = boxes.map(([x1, y1, x2, y2]) => Math.max(x2 - x1, y2 - y1)).sort((a, b) => a - b);
  const margin = sizes[Math.floor(sizes.length / 2)] * 0.8;
  const x1 = Math.max(0, Math.min(...boxes.map((b) => b[0])) - margin);
  const y1 = Math.max(0, Math.min(...boxes.map((b) => b[1])) - margin);
  const x2 = Math.min(width, Math.max(...boxes.map((b) => b[2])) + margin);
  const y2 = Math.min(height, Math.max(...boxes.map((b) => b[3])) + margin);
  return [x1, y1, x2 - x1, y2 - y1];
}

// A tap between tiles or just outside one still means the nearest tile.
function tileAt(event) {
  if (event.target.dataset && event.target.dataset.index !== undefined) return Number(event.target.dataset.index);
  const svg = $("#overlay");
  const point = svg.createSVGPoint();
  point.x = event.clientX; point.y = event.clientY;
  const matrix = svg.getScreenCTM();
  if (!matrix || !currentHand) return -1;
  const { x, y } = point.matrixTransform(matrix.inverse());
  let best = -1, bestDistance = Infinity;
  currentHand.tiles.forEach((tile, index) => {
    const [x1, y1, x2, y2] = tile.box;
    const dx = Math.max(x1 - x, 0, x - x2), dy = Math.max(y1 - y, 0, y - y2);
    const distance = Math.hypot(dx, dy) / Math.max(x2 - x1, y2 - y1);
    if (distance < bestDistance) { best = index; bestDistance = distance; }
  });
  return bestDistance <= 0.6 ? best : -1;
}

function renderHand(hand) {
  currentHand = hand;
  selected = [];
  // A tap that found the tiles of a hand recorded already showed it as if freshly scored, and
  // its corrections went to that older hand unawares: said above it while it is on show.
  if (repeatOf !== hand.id) repeatOf = null;
  remember({ hand: hand.id, repeatOf });
  $("#repeat-of").hidden = repeatOf === null;
  $("#repeat-of").textContent = repeatOf === null ? "" : `Already recorded as hand ${repeatOf}: `
    + `not a new hand. Corrections here change hand ${repeatOf}; undo it on the Scoreboard to `
    + "score the photo anew.";
  const drawn = (hand.reading || {}).draw;  // a drawn hand the table recorded: no tiles, no winner
  $("#how-won").hidden = !!drawn;
  $("#edit-reading").hidden = !!drawn;
  $(".photo-box").hidden = !!drawn || !hand.photo;  // a drawn or typed hand has no photo
  $(".result-layout").classList.toggle("drawn", !!drawn);
  const svg = $("#overlay");
  svg.setAttribute("viewBox", cropOf(hand).join(" "));
  svg.innerHTML = "";
  if (hand.photo) {
    const photo = document.createElementNS("http://www.w3.org/2000/svg", "image");
    photo.setAttribute("href", `${hand.photo}?t=${Date.now()}`);
    photo.setAttribute("width", hand.width || 1); photo.setAttribute("height", hand.height || 1);
    photo.id = "result-photo";
    svg.appendChild(photo);
  }
  const win = winIndex(hand);
  hand.tiles.forEach((tile, index) => {
    const none = tile.code === notATile;  // said to hold no tile: kept, greyed, tappable again
    const colour = colourOf(none ? null : tile.code);
    const [rect, label] = boxed(svg, tile.box, tile.face_down ? "▮" : none ? "✕" : (tile.code || "?"));
    rect.setAttribute("stroke", colour);
    rect.dataset.index = index;
    rect.classList.add("tile-box");
    if (none) rect.classList.add("no-tile");
    if (tile.low_confidence || tile.placed) rect.classList.add("low");  // placed: read where none was found
    if (index === win) rect.classList.add("win");
    label.setAttribute("fill", colour);
  });
  const reading = hand.reading || {};
  if (reading.unseen) drawUnseen(svg, reading.unseen);
  const melds = (reading.melds || []).map(meldOf).map((m) => `${m.type}:${m.tiles}`);
  $("#reading").textContent = drawn ? drawnLine(hand)
    : `${reading.hand || ""}  +${reading.win_tile || "?"}  ${melds.join(" ")}  ${reading.flowers || ""}`;
  $("#edit-hand").value = reading.hand || "";
  $("#edit-melds").value = melds.join(" ");
  $("#edit-flowers").value = reading.flowers || "";
  $("#edit-win").value = reading.win_tile || "";
  const result = hand.result || {};
  const ctx = hand.context || {};
  const problems = [...(hand.problems || [])];
  if (result.winning && !(result.payments || []).length && !ctx.self_draw && !ctx.discarder) {
    problems.push("Who discarded the winning tile? Tap it under “Won by”: no one pays until then.");
  }
  if (hand.undone) problems.push("This hand was undone: it is not in the totals.");
  const list = $("#problems");
  list.innerHTML = "";
  problems.forEach((p) => {
    const li = document.createElement("li"); li.textContent = p; list.appendChild(li);
  });
  renderOffers(hand);
  renderHowWon(hand);
  const body = $("#items tbody");
  body.innerHTML = "";
  const total = $("#total");
  total.innerHTML = "";
  if (result.error) {
    const div = document.createElement("div");
    div.className = "error"; div.textContent = result.error;
    total.appendChild(div);
    total.dataset.total = "";
  } else {
    (result.items || []).forEach((item) => {
      const tr = document.createElement("tr");
      for (const [cls, text] of [["name", item.name], ["value", `${item.value}`], ["why", item.why]]) {
        const td = document.createElement("td"); td.className = cls; td.textContent = text; tr.appendChild(td);
      }
      body.appendChild(tr);
    });
    total.textContent = drawn ? `流局 ${drawReasonName(hand.context.variant, result.reason)}`
      : result.winning ? `${result.total} ${result.unit}` : "not a winning hand";
    total.dataset.total = result.total;
    if (result.winning && hand.total_note) {  // riichi's 符 or a limit's name
      const beside = document.createElement("span");
      beside.className = "beside"; beside.textContent = hand.total_note;
      total.appendChild(beside);
    }
  }
  const notes = $("#result-notes");
  notes.innerHTML = "";
  (hand.result_notes || []).forEach((line) => {
    const li = document.createElement("li"); li.textContent = line; notes.appendChild(li);
  });
  const payments = $("#payments");
  payments.innerHTML = "";
  (result.payments || []).forEach((p) => {
    const li = document.createElement("li");
    li.textContent = `${seatLabel(p.payer, hand.seats)} → ${seatLabel(p.payee, hand.seats)}: ${p.amount}`;
    payments.appendChild(li);
  });
  renderGroups(hand);
  buildPicker();
}

// A rule set's ways a hand ends drawn (the server's ``variants``), and one of them by its code.
function drawRules(variant) {
  return (variants[variant] || {}).draw || { reasons: [] };
}

function drawReason(variant, code) {
  return drawRules(variant).reasons.find((r) => r.code === code) || {};
}

function drawReasonName(variant, code) {
  return drawReason(variant, code).name || code || "";
}

// Who was ready, and whose 片甲不留 counted, on a drawn hand's Result screen.
function drawnLine(hand) {
  const result = hand.result || {};
  const parts = [];
  if (drawReason(hand.context.variant, result.reason).ready) {  // asked of this ending
    const ready = (result.ready || []).map((seat) => seatLabel(seat, hand.seats));
    parts.push(ready.length ? `聽 ${ready.join(", ")}` : "nobody ready");
  }
  if ((result.nagashi || []).length) {
    parts.push(`流局滿貫 ${result.nagashi.map((seat) => seatLabel(seat, hand.seats)).join(", ")}`);
  }
  Object.entries(result.clean_sweep || {}).forEach(([seat, tai]) => {
    parts.push(`片甲不留 ${seatLabel(seat, hand.seats)} ${tai} 台`);
  });
  return parts.join(" · ");
}

// The Scoreboard's "Drawn hand": the dialog asks what the table's rule set pays or deals by.
let drawVariant = null;  // the rule set the draw dialog was opened for

function openDraw() {
  const variant = context.variant;
  drawVariant = variant;
  const rules = drawRules(variant);
  if (!rules.reasons.length) {
    setStatus(`${variant} records no drawn hands`, true);
    return;
  }
  const form = $("#draw-form");
  form.reason.innerHTML = "";
  rules.reasons.forEach((reason) => {
    const option = document.createElement("option");
    option.value = reason.code; option.textContent = reason.name; option.title = reason.doc;
    form.reason.appendChild(option);
  });
  const chairs = SEATS.slice(0, context.players || 4);
  const describe = () => {
    const chosen = drawReason(variant, form.reason.value);
    $("#draw-reason-doc").textContent = chosen.doc || "";
    $("#draw-asks legend").textContent = chosen.asks_name || "";
    boxes($("#draw-asks"), !!chosen.asks, "asks", [""]);  // riichi: who made 流局滿貫
    boxes($("#draw-ready"), !!chosen.ready, "ready", [""]);  // where it pays or deals by them
  };
  const boxes = (fieldset, shown, name, values) => {
    fieldset.hidden = !shown;
    fieldset.querySelectorAll("label").forEach((label) => label.remove());
    if (!shown) return;
    chairs.forEach((seat) => values.forEach((value) => {
      const label = document.createElement("label");
      label.className = "check";
      label.innerHTML = `<input type="checkbox" name="${name}"> <span></span>`;
      label.querySelector("input").value = value ? `${seat}:${value}` : seat;
      label.querySelector("span").textContent = `${seatLabel(seat, drawSeats)}${value ? ` ${value}` : ""}`;
      fieldset.appendChild(label);
    }));
  };
  form.reason.onchange = describe;
  describe();
  boxes($("#draw-sweep"), rules.clean_sweep, "sweep", ["兵", "卒"]);
  $("#draw-error").textContent = "";
  $("#draw-dialog").showModal();
}

async function recordDraw(event) {
  event.preventDefault();
  const form = $("#draw-form");
  const checked = (name) => [...form.querySelectorAll(`input[name=${name}]:checked`)].map((i) => i.value);
  // The rule set the dialog was opened for: another phone may have moved the table since.
  const body = { reason: form.reason.value, variant: drawVariant };
  const chosen = drawReason(drawVariant, body.reason);
  if (chosen.ready) body.ready = checked("ready");
  if (chosen.asks) body[chosen.asks] = checked("asks");
  const sweeps = {};
  checked("sweep").forEach((value) => {
    const [seat, piece] = value.split(":");
    (sweeps[seat] = sweeps[seat] || []).push(piece);
  });
  if (Object.keys(sweeps).length) body.clean_sweep = sweeps;
  const button = $("#draw-record");
  if (button.disabled) return;  // one draw a tap: the second of a double tap waits for none
  button.disabled = true;
  try {
    const hand = await post("/api/draw", body);
    $("#draw-dialog").close();
    renderHand(hand);
    show("result");
    if (hand.repeat_of) setStatus(`drawn hand ${hand.repeat_of} was recorded already`);
    await loadContext();
    await loadBoard();
  } catch (error) {
    $("#draw-error").textContent = error.message;
  } finally {
    button.disabled = false;
  }
}

// A box on the photo with its label above it, both added to the overlay.
function boxed(svg, box, text) {
  const [x1, y1, x2, y2] = box;
  const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  rect.setAttribute("x", x1); rect.setAttribute("y", y1);
  rect.setAttribute("width", x2 - x1); rect.setAttribute("height", y2 - y1);
  const label = document.createElementNS("http://www.w3.org/2000/svg", "text");
  label.setAttribute("x", x1); label.setAttribute("y", Math.max(y1 - 6, 30));
  label.textContent = text;
  svg.appendChild(rect); svg.appendChild(label);
  return [rect, label];
}

// Where a tile the camera missed lay (reading.unseen: the gap it left in the row), with the
// tile taken for it, so the player looks there and checks.
function drawUnseen(svg, unseen) {
  for (const part of boxed(svg, unseen.box, `${unseen.code || ""}?`)) part.classList.add("unseen");
}

// What would make a hand that does not win a winning one, each a row of one-tap fixes that
// rescore it: ``offers`` is [{text, colour, data, change}], the row hidden when it is empty.
function offerRow(box, label, offers) {
  box.innerHTML = "";
  box.hidden = !offers.length;
  if (!offers.length) return;
  const span = document.createElement("span");
  span.className = "seg-label";
  span.textContent = label;
  box.appendChild(span);
  offers.forEach(({ text, colour, data, change }) => {
    const button = document.createElement("button");
    button.type = "button";
    Object.assign(button.dataset, data);
    button.textContent = text;
    button.style.borderColor = colour;
    button.addEventListener("click", () => fix(change));
    box.appendChild(button);
  });
}

// A hand a tile short that a few tiles would make win (reading.would_win): the camera may have
// missed one of them; one tap adds the one on the table to the hand. A hand of its size that
// does not win, and the few reads of one tile that would make it win (reading.would_win_as):
// one tap reads that tile so. A hand a tile over, and the few tiles without which it would
// win (reading.would_win_without: a box on a key or a cap read as a tile): one tap sets it
// aside as no tile. A hand a meld short whose meld of two a missed end broke, both ends
// winning (reading.would_win_with_meld): one tap counts the meld the player sees.
function renderOffers(hand) {
  const reading = hand.reading || {};
  const open = !(hand.result || {}).winning;
  offerRow($("#missing"), "A tile not seen? Add it:", (open ? reading.would_win || [] : []).map((code) => ({
    text: tileName(code), colour: colourOf(code), data: { code },
    change: { add: code },
  })));
  offerRow($("#misread"), "A tile misread? It wins as:", (open ? reading.would_win_as || [] : []).map(({ tile, code }) => ({
    text: `${tileName((hand.tiles[tile] || {}).code)} → ${tileName(code)}`, colour: colourOf(code),
    data: { tile, code }, change: { tile, code },
  })));
  offerRow($("#extra"), "A box that holds no tile? Set it aside:", (open ? reading.would_win_without || [] : []).map((tile) => {
    const code = (hand.tiles[tile] || {}).code;
    return { text: `${tileName(code)} ✕`, colour: colourOf(code), data: { tile, code }, change: { tile, not_a_tile: true } };
  }));
  offerRow($("#broken-meld"), "A meld's tile not seen? It is:", (open ? reading.would_win_with_meld || [] : []).map(({ meld }) => ({
    text: parseTiles(meld.tiles).map(tileName).join(" "), colour: colourOf(meld.tiles),
    data: { meld: `${meld.type}:${meld.tiles}` }, change: { mend: meld },
  })));
}

// Who won and how, on the Result screen itself: one tap rescored, and remembered.
// A limit hand one player fed (役滿包, pao) is said of this hand alone: it is not remembered
// for the table, and the row shows only where the rule set has it and the hand is such a hand.
const PAO_LIMITS = ["daisangen", "daisuushii"];

function renderHowWon(hand) {
  const ctx = hand.context || {};
  const winner = ctx.seat_wind || "E";
  const result = hand.result || {};
  const sticksAsked = (variants[ctx.variant] || {}).sticks && result.winning;
  const sticks = ctx.riichi_sticks_by || {};
  const paoAsked = (variants[ctx.variant] || {}).pao &&
    (ctx.pao || (result.items || []).some((item) => PAO_LIMITS.includes(item.code)));
  // The hand's session's chairs: a 3-player table has no North to win or discard.
  const chairs = SEATS.filter((seat) => !hand.seats || seat in hand.seats);
  const rows = [
    ["#winner-row", chairs.map((seat) => [seat, seatLabel(seat, hand.seats), seat === winner,
      { seat_wind: seat, ...(ctx.discarder === seat ? { discarder: null } : {}) },
      ctx.pao === seat ? { pao: null } : {}])],
    ["#from-row", [["tsumo", "自摸", !!ctx.self_draw, { self_draw: true, discarder: null }],
      ...chairs.filter((s) => s !== winner).map((seat) => [seat, seatLabel(seat, hand.seats),
        !ctx.self_draw && ctx.discarder === seat, { self_draw: false, discarder: seat }])]],
    ["#pao-row", paoAsked ? [["none", "—", !ctx.pao, null, { pao: null }],
      ...chairs.filter((s) => s !== winner).map((seat) => [seat, seatLabel(seat, hand.seats),
        ctx.pao === seat, null, { pao: seat }])] : []],
    // Each tap puts one more stick at that chair (up to 3, then none): they go to the winner.
    ["#sticks-row", sticksAsked ? chairs.map((seat) => [seat,
      `${seatLabel(seat, hand.seats)}${sticks[seat] ? ` ×${sticks[seat]}` : ""}`, !!sticks[seat], null,
      { riichi_sticks_by: { ...sticks, [seat]: ((sticks[seat] || 0) + 1) % 4 } }]) : []],
  ];
  $("#pao-label").hidden = !paoAsked;
  $("#sticks-label").hidden = !sticksAsked;
  for (const [row, choices] of rows) {
    const box = $(row);
    box.innerHTML = "";
    choices.forEach(([key, text, on, change, handOnly]) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.key = key;
      const [wind, ...name] = text.split(" ");
      button.innerHTML = "<span></span><small></small>";
      button.querySelector("span").textContent = wind;
      button.querySelector("small").textContent = name.join(" ");
      button.classList.toggle("on", on);
      button.addEventListener("click", () => changeHowWon(change, handOnly));
      box.appendChild(button);
    });
  }
}

// Whether the hand is the table's latest: scored from this page last, and no page has scored
// (or recorded a draw) since. Only that hand's choices are the next hand's.
async function isTablesLatest(handId) {
  if (handId !== latestHandId) return false;
  const { hands } = await api("/api/session");
  return handId === Math.max(-1, ...(hands || []).map((h) => h.id));
}

// ``change`` is remembered for the next hands too; ``handOnly`` is this hand's alone.
async function changeHowWon(change, handOnly = {}) {
  try {
    // Remembered for the next hands only from the hand scored last: an older hand's chairs
    // are its own.
    const remember = change && currentHand && (await isTablesLatest(currentHand.id));
    // The hand first: the table's refusal of the change (a discarder saved since, by another
    // phone or a change of rule set) left the hand uncorrected.
    if ((await fix({ context: { ...change, ...handOnly } })) && remember) {
      await rememberHowWon(change);
    }
    await loadContext();
  } catch (error) {
    setStatus(error.message, true);
  }
}

// The hand's winner or discarder kept for the next hand, fitted to the table as saved now
// rather than as the hand has it: a winner tapped who is the table's discarder discards no
// more, and the table's other discarder stays. One the table refuses all the same is said,
// and not kept; the hand stays corrected.
async function rememberHowWon(change) {
  const table = await api("/api/context");
  const fitted = { ...change };
  if ("seat_wind" in change) {
    delete fitted.discarder;  // the hand's, cleared where it was the winner's
    if (table.discarder === change.seat_wind) fitted.discarder = null;
  }
  try {
    await post("/api/context", fitted);
  } catch (error) {
    setStatus(`corrected; not kept for the next hand: ${error.message}`, true);
  }
}

function renderGroups(hand) {
  const box = $("#groups");
  box.innerHTML = "";
  const reading = hand.reading || {};
  const concealed = document.createElement("div");
  concealed.className = "group";
  concealed.innerHTML = "<span class='group-label'>Concealed</span>";
  parseTiles(reading.hand).forEach((code, position) => {
    const chip = document.createElement("button");
    chip.type = "button";
    chip.className = "chip";
    chip.dataset.code = code;
    chip.textContent = tileName(code);
    chip.style.borderColor = colourOf(code);
    chip.addEventListener("click", () => {
      selected = selected.includes(position) ? selected.filter((p) => p !== position) : [...selected, position];
      chip.classList.toggle("on", selected.includes(position));
      renderJoinActions();
    });
    concealed.appendChild(chip);
  });
  box.appendChild(concealed);
  (reading.melds || []).map(meldOf).forEach((meld, index) => {
    const row = document.createElement("div");
    row.className = "group meld";
    const label = document.createElement("span");
    label.className = "group-label";
    label.textContent = MELD_NAMES[meld.type] || meld.type;
    row.appendChild(label);
    parseTiles(meld.tiles).forEach((code) => {
      const chip = document.createElement("span");
      chip.className = "chip"; chip.textContent = tileName(code); chip.style.borderColor = colourOf(code);
      row.appendChild(chip);
    });
    const split = document.createElement("button");
    split.type = "button";
    split.className = "split";
    split.textContent = "Split";
    split.addEventListener("click", () => fix({ split: index }));
    row.appendChild(split);
    box.appendChild(row);
  });
  renderJoinActions();
}

function renderJoinActions() {
  const box = $("#join-actions");
  box.innerHTML = "";
  const types = { 3: ["chi", "pon"], 4: ["kong", "concealed_kong"] }[selected.length] || [];
  const codes = parseTiles((currentHand.reading || {}).hand);
  types.forEach((type) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.meld = type;
    button.textContent = `Join as ${MELD_NAMES[type]}`;
    button.addEventListener("click", () => fix({ join: selected.map((p) => codes[p]).join(" "), meld: type }));
    box.appendChild(button);
  });
}

// The grid holds the tiles this rule set plays with: no pieces in a mahjong set, no flowers
// where there are none, red fives only where the table counts them.
function buildPicker() {
  const variant = variants[(currentHand && currentHand.context.variant) || context.variant] || {};
  const redFives = !!(currentHand && currentHand.red_fives);
  const grid = $("#tile-grid");
  grid.innerHTML = "";
  tiles.filter((tile) => {
    const suit = tile.code.slice(-1);
    if (suit === "b" || suit === "r") return !!variant.pieces;
    if (variant.pieces) return false;
    if (suit === "f") return variant.flowers !== false;
    if (tile.code[0] === "0") return redFives;
    return true;
  }).forEach((tile) => {
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
  const tile = currentHand.tiles[index] || {};
  const none = tile.code === notATile;
  const read = tile.face_down ? "face down" : none ? "no tile" : tile.code ? `${tileName(tile.code)} (${tile.code})` : "unreadable";
  $("#picker-title").textContent = `Read as ${read}: which tile is it?`;
  $("#pick-win").disabled = !tile.code || none;
  $("#pick-no-tile").disabled = none;
  $("#picker").showModal();
}

// Whether the correction was saved.
async function fix(body) {
  try {
    renderHand(await post(`/api/hands/${currentHand.id}/fix`, body));
    setStatus("corrected");
    return true;
  } catch (error) {
    setStatus(error.message, true);
    return false;
  }
}

async function fixTile(change) {
  $("#picker").close();
  await fix({ tile: pickedTile, ...change });
}

function fillContextForm() {
  const form = $("#context-form");
  form.variant.innerHTML = "";
  Object.entries(variants).forEach(([name, info]) => {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = `${info.title} (${info.unit})`;
    form.variant.appendChild(option);
  });
  form.querySelectorAll("select.winds").forEach((select) => {
    SEATS.forEach((seat) => {
      const option = document.createElement("option");
      option.value = seat;
      option.textContent = `${WIND_NAMES[seat]} ${seat}`;
      select.appendChild(option);
    });
  });
}

async function loadContext() {
  try {
    context = await api("/api/context");
  } catch (error) {
    setStatus(error.message, true);
    return;
  }
  const form = $("#context-form");
  form.variant.value = context.variant || "taiwan";
  form.seat_wind.value = context.seat_wind || "E";
  form.round_wind.value = context.round_wind || "E";
  form.dealer_streak.value = context.dealer_streak ?? context.honba ?? 0;
  form.self_draw.checked = !!context.self_draw;
  form.discarder.value = context.discarder || "";
  renderEvents(form.variant.value, context.events || []);
  renderOptions(form.variant.value, context.rules || {});
  renderNextHand();
  formShown = readForm();
}

// The rule set's options (its table's choices: 見花見台, 赤懸賞...), each as its kind asks:
// a tick, a pick of its choices, a number or a text, showing the table's value or the default.
function renderOptions(variant, rules) {
  const box = $("#rule-options .options");
  box.innerHTML = "";
  const options = (variants[variant] || {}).options || [];
  options.forEach((option) => {
    const value = option.name in rules ? rules[option.name] : option.default;
    const label = document.createElement("label");
    let input;
    if (option.kind === "bool") {
      label.className = "check";
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = !!value;
    } else if (option.choices.length) {
      input = document.createElement("select");
      option.choices.forEach((choice) => {
        const item = document.createElement("option");
        item.value = choice;
        item.textContent = choice === "" ? "—" : choice;
        input.appendChild(item);
      });
      input.value = value;
    } else {
      input = document.createElement("input");
      input.type = option.kind === "int" ? "number" : "text";
      if (option.kind === "int") {
        input.inputMode = "numeric";
        if (option.minimum !== null) input.min = option.minimum;
      }
      input.value = value;
    }
    input.dataset.option = option.name;
    const name = document.createElement("span");
    name.textContent = option.name.replaceAll("_", " ");
    const doc = document.createElement("small");
    doc.textContent = option.doc;
    if (option.kind === "bool") label.append(input, " ", name, doc);
    else label.append(name, doc, input);
    box.appendChild(label);
  });
  const changed = options.filter((o) => o.name in rules && rules[o.name] !== o.default).length;
  $("#rule-options .hint").textContent = options.length
    ? (changed ? `${changed} changed` : "the rule text's defaults") : "none";
}

// The options as the form holds them, those not at their default: what the table plays by.
function chosenOptions(variant) {
  const rules = {};
  ((variants[variant] || {}).options || []).forEach((option) => {
    const input = $(`#rule-options [data-option="${option.name}"]`);
    if (!input) return;
    let value = option.kind === "bool" ? input.checked : input.value;
    // A number typed past what a number holds exactly is sent as typed, to be refused as typed.
    if (option.kind === "int" && Number.isSafeInteger(Number(value)) && value.trim() !== "") {
      value = Number(value);
    }
    if (value !== option.default) rules[option.name] = value;
  });
  return rules;
}

function renderEvents(variant, chosen) {
  const box = $("#events");
  box.querySelectorAll("label").forEach((l) => l.remove());
  ((variants[variant] || {}).events || []).forEach((event) => {
    const label = document.createElement("label");
    label.className = "check";
    label.innerHTML = `<input type="checkbox" name="event"> <span></span> <small></small>`;
    label.querySelector("input").value = event.code;
    label.querySelector("span").textContent = event.name;
    label.querySelector("small").textContent = event.code.replaceAll("_", " ");
    label.querySelector("input").checked = chosen.includes(event.code);
    box.appendChild(label);
  });
  $("#streak-hint").textContent = variant === "riichi" ? "(本場 honba)" : "(連莊)";
}

// What the next hand will be scored with, on the Camera screen: events stay set until cleared.
// The dealer's streak as the rule set says it: riichi's 本場, 連 elsewhere, nothing where the
// deal passes every hand (明將).
function streakText(variant, streak) {
  const word = (variants[variant] || {}).streak ?? "連";
  return word === "本場" ? `${streak}本場` : word ? `${word}${streak}` : "";
}

function renderNextHand() {
  const info = variants[context.variant] || {};
  const names = Object.fromEntries((info.events || []).map((e) => [e.code, e.name]));
  const streak = context.dealer_streak ?? context.honba ?? 0;
  const draws = (context.rules || {}).draws_in_a_row || 0;
  const parts = [
    info.title || context.variant,
    info.winds === false ? "" : `${WIND_NAMES[context.round_wind] || "東"}風圈`,
    streakText(context.variant, streak),
    draws ? `流局×${draws}` : "",
    `胡 ${WIND_NAMES[context.seat_wind] || "東"}`,
    context.self_draw ? "自摸" : context.discarder ? `${WIND_NAMES[context.discarder]}家放槍` : "放槍: ?",
    ...(context.events || []).map((e) => names[e] || e),
  ].filter(Boolean);
  $("#next-hand").textContent = `Next hand: ${parts.join(" · ")}`;
}

// The Table form's fields as the page saves them. Read again when the form is filled
// (formShown), they say what the player changed here since: only that is sent, each field and
// each rule option and event alone, so a second page's older form undoes nothing another page
// saved meanwhile (it sent every field, and rolled back the rule set, round and streak).
function readForm() {
  const form = $("#context-form");
  const selfDraw = form.self_draw.checked;
  const discarder = form.discarder.value || null;
  return {
    variant: form.variant.value,
    seat_wind: form.seat_wind.value,
    round_wind: form.round_wind.value,
    dealer_streak: Number(form.dealer_streak.value || 0),
    self_draw: selfDraw,
    discarder: selfDraw || discarder === form.seat_wind.value ? null : discarder,
    events: [...form.querySelectorAll("input[name=event]:checked")].map((i) => i.value),
    rules: chosenOptions(form.variant.value),
  };
}

const FORM_FIELDS = ["variant", "seat_wind", "round_wind", "dealer_streak", "self_draw", "discarder"];

async function saveContext(event) {
  event.preventDefault();
  const form = $("#context-form");
  // A number field holding no number reads as empty: said, not saved as 0.
  const bad = [...form.querySelectorAll("input[type=number]")].find((i) => i.validity.badInput);
  if (bad) {
    setStatus(`${(bad.dataset.option || bad.name).replaceAll("_", " ")} must be a whole number`, true);
    return;
  }
  const shown = formShown || {}; // never filled: every field counts as changed
  const now = readForm();
  const body = Object.fromEntries(
    FORM_FIELDS.filter((key) => now[key] !== shown[key]).map((key) => [key, now[key]]),
  );
  const variant = now.variant;
  // The options changed here, at their new values (one set back to its default too): over the
  // table's own, they neither undo another page's options nor bring back xiangqi's draws
  // before a hand. A rule set chosen here brings the form's options whole (options belong to
  // a rule set).
  const shownRules = shown.variant === variant ? shown.rules || {} : {};
  const valueIn = (rules, o) => (o.name in rules ? rules[o.name] : o.default);
  const changed = Object.fromEntries(
    ((variants[variant] || {}).options || [])
      .filter((o) => valueIn(now.rules, o) !== valueIn(shownRules, o))
      .map((o) => [o.name, valueIn(now.rules, o)]),
  );
  const added = now.events.filter((e) => !(shown.events || []).includes(e));
  const removed = (shown.events || []).filter((e) => !now.events.includes(e));
  try {
    const table = await api("/api/context");
    if ("variant" in body) body.rules = now.rules;
    else if (Object.keys(changed).length) {
      if (table.variant !== variant) {
        // The options on show are another rule set's than the table's now: saved over its
        // own, they would be refused as unknown (or mean something else).
        await loadContext();
        setStatus(`the rule set was changed to ${table.variant} on another page: nothing was saved; `
          + "set its options again", true);
        return;
      }
      body.rules = { ...(table.rules || {}), ...changed };
    }
    if (added.length || removed.length) {
      const kept = (table.events || []).filter((e) => !removed.includes(e));
      const takes = ((variants[variant] || {}).events || []).map((e) => e.code);
      body.events = [...kept, ...added.filter((e) => !kept.includes(e))]
        .filter((e) => !("variant" in body) || takes.includes(e));
    }
    // A winner cannot discard to himself, nor a self-draw have a discarder: said here, the
    // table's discarder goes (another page's included).
    const merged = { ...table, ...body };
    if (("self_draw" in body || "seat_wind" in body) && merged.discarder
        && (merged.self_draw || merged.discarder === merged.seat_wind)) body.discarder = null;
    const saved = await post("/api/context", body);
    // The hand just scored follows what was said about it; the round and streak are the next
    // hand's (the session moves them on), so they are not applied to it. Only the table's
    // latest hand: one another page scored since is not this page's to change. A rule set
    // other than the hand's is the next hand's alone: switched for the next hand, it made the
    // hand just scored a hand of the new rule set, its total with it. Said either way: after
    // a reload this page knows no hand it scored, and changes went to no hand unsaid.
    let note = "table settings saved for the next hand";
    let failed = false;
    try {
      if (currentHand && currentHand.context.variant !== saved.variant) {
        note = `table settings saved for the next hand (hand ${currentHand.id} keeps its rule set)`;
      } else if (currentHand && (await isTablesLatest(currentHand.id))) {
        const { round_wind: _r, dealer_streak: _s, rules: _o, ...forHand } = body;
        // Its rule options are those it was scored with (xiangqi's draws before it among
        // them), only those changed here changed. Red fives are how its photo was read, not
        // how it is scored: they count from the next.
        const { red_fives: _red, ...scoring } = changed;
        if (Object.keys(scoring).length) {
          forHand.rules = { ...(currentHand.context.rules || {}), ...scoring };
        }
        if (Object.keys(forHand).length) {
          const hand = await post(`/api/hands/${currentHand.id}/fix`, { context: forHand });
          renderHand(hand);
          const error = (hand.result || {}).error;
          if (error) [note, failed] = [`table settings saved; the hand just scored: ${error}`, true];
          else note = "table settings saved, and the hand just scored with them";
        }
      }
    } catch (error) {
      [note, failed] = [`table settings saved; the hand just scored was not changed: ${error.message}`, true];
    }
    await loadContext();
    setStatus(note, failed);
  } catch (error) {
    setStatus(error.message, true);
  }
}

// The Scoreboard shows the session being played, or an earlier one picked to look back at
// (its totals, hands and exports; undo and draws act on the session being played only).
let boardSession = null;  // the earlier session picked; null: the one being played

async function loadSessions() {
  const { sessions } = await api("/api/sessions");
  const pick = $("#session-pick");
  pick.innerHTML = "";
  // Earlier sessions with no hand kept (a New session tapped by mistake) are left out.
  const shown = sessions.filter((item, index) => index === 0 || item.hands > 0);
  shown.forEach((item, index) => {
    const option = document.createElement("option");
    option.value = index === 0 ? "" : item.id;
    const when = new Date(item.created * 1000).toLocaleDateString();
    const hands = `${item.hands} hand${item.hands === 1 ? "" : "s"}`;
    option.textContent = `${index === 0 ? "this session" : `#${item.id}`} · ${when} · ${hands}`;
    option.title = `${item.variant} · ${item.players.join(", ")}`;
    pick.appendChild(option);
  });
  pick.value = boardSession || "";
  pick.closest("label").hidden = shown.length < 2;
}

async function loadBoard() {
  await loadSessions();
  const query = boardSession ? `?id=${boardSession}` : "";
  const data = await api(`/api/session${query}`);
  const session = data.session;
  const earlier = !data.current;
  $("#session-line").textContent = !session
    ? "No hands yet: score one to start a session."
    : earlier ? `Session #${session.id}, ${session.variant}: an earlier session, to look back at`
      : [(variants[context.variant] || {}).winds === false ? "" : `${WIND_NAMES[session.round_wind]}風圈`,
        `莊 ${session.seats.E}`, streakText(context.variant, session.streak)].filter(Boolean).join(" · ");
  ["#undo", "#record-draw"].forEach((id) => { $(id).hidden = earlier; });
  const exportQuery = session ? `?session=${session.id}` : "";
  $("#export-csv").href = `/api/export.csv${exportQuery}`;
  $("#export-json").href = `/api/export.json${exportQuery}`;
  const seatOf = Object.fromEntries(Object.entries(session ? session.seats : {}).map(([s, n]) => [n, s]));
  drawSeats = session ? session.seats : {};
  // Each rule set pays in its own units (台, riichi's points): a session that changed rule set
  // shows a column for each, headed by its name, never one sum.
  const byRuleSet = data.totals_by_rule_set || [];
  const columns = byRuleSet.length > 1 ? byRuleSet : [{ totals: data.totals || {} }];
  const head = $("#totals thead");
  head.innerHTML = "";
  if (byRuleSet.length > 1) {
    const tr = document.createElement("tr");
    tr.innerHTML = "<th></th><th></th>";
    byRuleSet.forEach(({ variant }) => {
      const th = document.createElement("th");
      th.textContent = (variants[variant] || {}).title || variant;
      tr.appendChild(th);
    });
    head.appendChild(tr);
  }
  const totals = $("#totals tbody");
  totals.innerHTML = "";
  Object.keys(data.totals || {}).forEach((name) => {
    const tr = document.createElement("tr");
    tr.innerHTML = "<td class='seat'></td><td></td>";
    const seat = seatOf[name];
    tr.children[0].textContent = seat ? `${WIND_NAMES[seat]}${seat === "E" ? " 莊" : ""}` : "";
    tr.children[1].textContent = name;
    columns.forEach((column) => {
      const total = column.totals[name] || 0;
      const td = document.createElement("td");
      td.className = "value";
      td.textContent = total > 0 ? `+${total}` : `${total}`;
      td.classList.toggle("minus", total < 0);
      tr.appendChild(td);
    });
    totals.appendChild(tr);
  });
  const hands = $("#hands tbody");
  hands.innerHTML = "";
  (data.hands || []).forEach((hand) => {
    const tr = document.createElement("tr");
    tr.innerHTML = "<td></td><td></td><td></td><td></td><td></td>";
    tr.children[0].textContent = hand.id;
    tr.children[1].textContent = hand.hand || "";
    if (hand.drawn) {
      tr.children[1].textContent = `流局 ${drawReasonName(hand.variant, hand.reason)}`;
      tr.children[2].textContent = "—";
      tr.children[4].textContent = "drawn";
    } else {
      tr.children[2].textContent = `${hand.winner_name} (${WIND_NAMES[hand.winner] || hand.winner})`;
      tr.children[3].textContent = hand.self_draw ? "自摸" : hand.discarder_name || "?";
      tr.children[4].textContent = hand.error
        ? hand.error : hand.winning ? `${hand.total} ${hand.unit}` : "not a winning hand";
    }
    tr.addEventListener("click", async () => {
      try {
        repeatOf = null; // picked from the list: no Score tap found it
        renderHand(await api(`/api/hands/${hand.id}`));
        show("result");
      } catch (error) {
        setStatus(error.message, true);
      }
    });
    hands.appendChild(tr);
  });
}

async function undoLast() {
  if (!confirm("Undo the last hand? It leaves the totals and the dealer moves back.")) return;
  try {
    const { undone } = await post("/api/undo", {});
    setStatus(undone ? `hand ${undone} undone` : "no hand to undo");
    await loadBoard();
    await loadContext();
  } catch (error) {
    setStatus(error.message, true);
  }
}

async function adaptReader() {
  if (!confirm("Fit the tile reader to this set, from every photo taken so far? It takes a few seconds; \"Previous reader\" undoes it.")) return;
  setStatus("fitting the tile reader to this set…");
  try {
    const { tiles, photos, reads_changed } = await post("/api/adapt", {});
    setStatus(`tile reader fitted to ${tiles} tiles of ${photos} photos (${reads_changed} read differently)`);
  } catch (error) {
    setStatus(error.message, true);
  }
}

async function previousReader() {
  if (!confirm("Go back to the tile reader before the last fit?")) return;
  try {
    const { date } = await post("/api/adapt/undo", {});
    setStatus(`tile reader of ${date} back`);
  } catch (error) {
    setStatus(error.message, true);
  }
}

async function newSession() {
  const names = prompt("Players, East South West North (comma separated)", "East,South,West,North");
  if (!names) return;
  try {
    await post("/api/session", { players: names.split(",").map((s) => s.trim()) });
    boardSession = null;  // the new one is the session being played
    setStatus("new session started");
    await loadBoard();
    await loadContext();
  } catch (error) {
    setStatus(error.message, true);
  }
}

function askPin() {
  const dialog = $("#pin-dialog");
  if (!dialog.open) dialog.showModal();
}

async function sendPin(event) {
  event.preventDefault();
  try {
    await post("/pin", { pin: $("#pin-input").value });
    location.reload();
  } catch (error) {
    $("#pin-error").textContent = error.message;
  }
}

function init() {
  document.querySelectorAll(".tab").forEach((tab) => tab.addEventListener("click", () => show(tab.dataset.screen)));
  $("#overlay").addEventListener("click", (event) => {
    const index = tileAt(event);
    if (index >= 0) openPicker(index);
  });
  $("#score-button").addEventListener("click", scoreNow);
  $("#next-hand").addEventListener("click", () => show("context"));
  $("#upload").addEventListener("change", (e) => e.target.files[0] && uploadPhoto(e.target.files[0]));
  $("#score-typed").addEventListener("click", scoreTyped);
  $("#pick-face-down").addEventListener("click", (e) => { e.preventDefault(); fixTile({ face_down: true }); });
  $("#pick-no-tile").addEventListener("click", (e) => { e.preventDefault(); fixTile({ not_a_tile: true }); });
  $("#pick-win").addEventListener("click", (e) => {
    e.preventDefault();
    const tile = currentHand.tiles[pickedTile];
    $("#picker").close();
    if (tile && tile.code) fix({ win_tile: tile.code, win_index: pickedTile });
  });
  $("#save-reading").addEventListener("click", () => {
    const body = typedGroups("edit");
    // The winning tile typed, where it is not the one read (a hand typed with no box read).
    const win = $("#edit-win").value.trim();
    if (win && win !== ((currentHand || {}).reading || {}).win_tile) body.win_tile = win;
    fix(body);
  });
  $("#context-form").addEventListener("submit", saveContext);
  $("#context-form").still_scoring.addEventListener("change", switchStill);
  $("#context-form").variant.addEventListener("change", (e) => {
    // The events ticked that the new rule set takes too stay ticked (renderEvents shows only
    // its own).
    const ticked = [...$("#context-form").querySelectorAll("input[name=event]:checked")];
    renderEvents(e.target.value, ticked.map((i) => i.value));
    renderOptions(e.target.value, e.target.value === context.variant ? context.rules || {} : {});
  });
  $("#undo").addEventListener("click", undoLast);
  $("#record-draw").addEventListener("click", openDraw);
  $("#session-pick").addEventListener("change", (event) => {
    boardSession = event.target.value || null;
    loadBoard().catch((error) => setStatus(error.message, true));
  });
  $("#draw-record").addEventListener("click", recordDraw);
  $("#new-session").addEventListener("click", newSession);
  $("#adapt").addEventListener("click", adaptReader);
  $("#adapt-undo").addEventListener("click", previousReader);
  $("#pin-form").addEventListener("submit", sendPin);
  loadStatus();
  setInterval(loadStatus, 15000);
  setInterval(refreshPreview, 800);
  refreshPreview();
}

document.addEventListener("DOMContentLoaded", init);

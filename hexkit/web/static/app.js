// hexkit serve: the lobby, the game picker and click-to-move for any game.
// The page knows no game: the server sends the board as SVG (cells marked data-cell,
// pieces in hand data-seat/data-kind) and every legal move with where it starts and ends.
// Over the game's socket it gets the whole state once, then what changed (protocol 2,
// hexkit/web/protocol.py): applyChange is the one place that applies a change.
"use strict";

const $ = (sel) => document.querySelector(sel);
const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  Object.assign(node, props);
  for (const c of children) node.append(c);
  return node;
};

async function api(path, body, method = "POST") {
  const init = body === undefined ? {} : {
    method, headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const res = await fetch(path, init);
  const data = await res.json().catch(() => ({error: `the server answered ${res.status}`}));
  if (!res.ok) throw new Error(data.error || `the server answered ${res.status}`);
  return data;
}

// -- seats held by this browser (secret tokens, kept across reloads) -------------------------
function heldTokens(roomId) {
  try { return JSON.parse(localStorage.getItem(`hexkit.tokens.${roomId}`)) || {}; }
  catch { return {}; }
}
function keepToken(roomId, seat, token) {
  const held = heldTokens(roomId);
  held[seat] = token;
  localStorage.setItem(`hexkit.tokens.${roomId}`, JSON.stringify(held));
}
// A seat link (`/game/ID#seat=N&token=T`) carries a seat to another browser or device; the
// fragment never reaches the server or its logs, and is wiped from the address bar at once.
function seatLink(roomId, seat) {
  return `${location.origin}/game/${roomId}#seat=${seat}&token=${heldTokens(roomId)[seat]}`;
}
function takeSeatFromLink(roomId) {
  const m = /^#seat=(\d{1,3})&token=([A-Za-z0-9_-]{16,128})$/.exec(location.hash);
  if (!m) return null;
  keepToken(roomId, Number(m[1]), m[2]);
  history.replaceState(null, "", location.pathname + location.search);
  return Number(m[1]);
}
// Asks the server which seats the kept tokens really hold and forgets the others (a stale or
// mistyped seat link, a game replaced under the same id); unreachable: keep them all.
async function checkHeldSeats(roomId, fromLink) {
  const held = heldTokens(roomId);
  const seats = Object.keys(held);
  if (!seats.length) return;
  let got;
  try { got = await api(`/api/games/${roomId}/seats`, {tokens: seats.map((s) => held[s])}); }
  catch { return; }
  const kept = {};
  seats.forEach((s, i) => { if (got.held[i] !== null) kept[got.held[i]] = held[s]; });
  if (Object.keys(kept).length) localStorage.setItem(`hexkit.tokens.${roomId}`, JSON.stringify(kept));
  else localStorage.removeItem(`hexkit.tokens.${roomId}`);
  hello();
  if (fromLink !== null) {
    if (kept[fromLink]) say("This browser now holds your seat from the link.", true);
    else say("That seat link holds no seat of this game (it may be old or cut short): you are watching.");
  }
  if (S) draw();
}

// The owner's secret of a game made in this browser (stop and delete it).
function ownerToken(roomId) { return localStorage.getItem(`hexkit.owner.${roomId}`); }
function keepOwner(made) { if (made.owner_token) localStorage.setItem(`hexkit.owner.${made.id}`, made.owner_token); }

// -- who is signed in ------------------------------------------------------------------------
let me = {name: null, admin: false, accounts: false, watching: true};
const mayPlay = () => !me.accounts || me.name !== null;

function drawWho() {
  const who = $("#who");
  who.replaceChildren();
  if (me.name !== null) {
    const out = el("button", {textContent: "Sign out", id: "sign-out"});
    out.addEventListener("click", async () => {
      try { await api("/api/logout", {}); } catch { /* signed out anyway */ }
      location.href = "/";
    });
    who.append(el("span", {id: "signed-in-as", textContent: `${me.display || me.name}${me.admin ? " (admin)" : ""} `}), out);
  } else if (me.accounts) {
    who.append(el("a", {href: "/login", id: "sign-in", textContent: "Sign in"}));
  }
}

function showLogin() {
  $("#login").hidden = false;
  $("#login-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await api("/api/login", {name: $("#login-name").value.trim(), password: $("#login-password").value});
      location.href = "/";
    } catch (e) { $("#login-message").textContent = e.message; }
  });
}

function showWelcome() {
  $("#welcome").hidden = false;
  const key = location.hash.slice(1);
  history.replaceState(null, "", location.pathname);  // the key leaves the address bar
  $("#welcome-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if ($("#welcome-password").value !== $("#welcome-again").value) {
      $("#welcome-message").textContent = "the two passwords differ"; return;
    }
    try {
      await api("/api/welcome", {key, password: $("#welcome-password").value});
      location.href = "/";
    } catch (e) { $("#welcome-message").textContent = e.message; }
  });
}

// -- lobby -----------------------------------------------------------------------------------
let catalog = null;
let lobbyShown = 0;       // how many games the lobby lists (pages of the server's size)
const onlyMine = location.pathname === "/me";

async function showLobby() {
  $("#lobby").hidden = false;
  if (onlyMine) $("#games-title").textContent = "My games";
  $("#my-games").hidden = me.name === null || onlyMine;
  if (!mayPlay()) {
    $("#picker").hidden = true;
    $("#lobby-message").textContent = "Sign in to play; you can watch the games below.";
  }
  $("#more-games").addEventListener("click", () => { lobbyShown += 50; refreshLobby(); });
  catalog = await api("/api/catalog");
  for (const c of catalog.clocks || []) $("#clock").append(el("option", {value: c, textContent: `${c.replace("+", " min + ")} s`}));
  const select = $("#game-name");
  for (const g of catalog.games) select.append(el("option", {value: g.name, textContent: g.name}));
  select.addEventListener("change", drawPicker);
  drawPicker();
  $("#new-game").addEventListener("submit", createGame);
  $("#load-game").addEventListener("submit", loadGame);
  refreshLobby();
  setInterval(refreshLobby, 2000);
}

function chosenGame() { return catalog.games.find((g) => g.name === $("#game-name").value); }

function seatCount(game) {
  const players = document.querySelector('#options [name="players"]');
  const n = players ? parseInt(players.value, 10) : NaN;
  return Number.isInteger(n) && n > 0 ? n : game.min_players;
}

function drawPicker() {
  const game = chosenGame();
  $("#game-description").textContent = game.description;
  const box = $("#options");
  box.replaceChildren();
  for (const o of game.options) {
    let input;
    const values = o.choices ? o.choices.map(String) : o.type === "bool" ? ["true", "false"] : null;
    if (values) {
      input = el("select", {name: o.name});
      if (o.default === null) input.append(el("option", {value: "", textContent: "(default)"}));
      for (const c of values) input.append(el("option", {value: c, textContent: c}));
      input.value = o.default === null ? "" : String(o.default);
    } else {
      input = el("input", {name: o.name, value: o.default === null ? "" : String(o.default),
                           placeholder: o.default === null ? "default" : ""});
    }
    input.addEventListener("change", drawSeats);
    box.append(el("label", {textContent: `${o.name} `}, input), el("p", {className: "help", textContent: o.help}));
  }
  drawSeats();
}

// Who plays each seat: a person, one of the game's named levels, or a bot that plays this
// game (only those), whose setting box shows how that bot's setting is written.
function drawSeats() {
  const game = chosenGame();
  const box = $("#seat-pickers");
  box.replaceChildren();
  const bots = game.bots || catalog.bots;
  for (let i = 0; i < seatCount(game); i++) {
    const name = game.player_names[i] || `Player ${i + 1}`;
    const who = el("select", {name: `seat${i}`, className: "seat-who"});
    who.append(el("option", {value: "human", textContent: "a person"}));
    if (game.levels && game.levels.length) {
      const levels = el("optgroup", {label: "bot levels"});
      for (const lv of game.levels) {
        const words = lv.names.length ? ` (${lv.names.join(", ")})` : "";
        levels.append(el("option", {value: lv.spec, textContent: `bot level ${lv.number}${words}`, title: `${lv.bot}: ${lv.about}`}));
      }
      who.append(levels);
    }
    const named = el("optgroup", {label: "bots"});
    for (const b of bots) named.append(el("option", {value: b.name, textContent: `bot: ${b.name}`, title: b.description}));
    who.append(named);
    const arg = el("input", {className: "seat-arg", size: 10, hidden: true, ariaLabel: `${name}'s bot setting`});
    const help = el("p", {className: "help seat-help"});
    who.addEventListener("change", () => drawSeatArg(bots, who, arg, help));
    box.append(el("div", {className: "seat-row"}, el("span", {textContent: `${name}: `}), who, arg), help);
  }
}

function drawSeatArg(bots, who, arg, help) {
  const bot = bots.find((b) => b.name === who.value);
  const takes = bot !== undefined && bot.placeholder !== undefined ? bot.placeholder !== "" : bot !== undefined;
  arg.hidden = !takes;
  if (!takes) arg.value = "";
  arg.placeholder = bot && bot.placeholder ? `e.g. ${bot.placeholder}` : "setting";
  arg.title = bot ? bot.settings || "" : "";
  const level = chosenGame().levels?.find((lv) => lv.spec === who.value);
  help.textContent = level ? `${level.bot}: ${level.about}` : bot && takes ? bot.settings : "";
}

function seatSpecs() {
  return [...document.querySelectorAll("#seat-pickers .seat-row")].map((row) => {
    const who = row.querySelector(".seat-who").value;
    const arg = row.querySelector(".seat-arg").value.trim();
    return who !== "human" && !who.includes(":") && arg ? `${who}:${arg}` : who;
  });
}

async function createGame(ev) {
  ev.preventDefault();
  const options = {};
  for (const input of document.querySelectorAll("#options [name]")) {
    const o = chosenGame().options.find((x) => x.name === input.name);
    if (input.value !== String(o.default === null ? "" : o.default)) options[input.name] = input.value;
  }
  try {
    const made = await api("/api/games", {game: chosenGame().name, options, clock: $("#clock").value || null,
                                          seed: $("#seed").value.trim() || null, seats: seatSpecs()});
    if (made.token) keepToken(made.id, made.seat, made.token);
    keepOwner(made);
    location.href = made.url;
  } catch (e) { $("#lobby-message").textContent = e.message; }
}

async function loadGame(ev) {
  ev.preventDefault();
  const file = $("#record-file").files[0];
  if (!file) { $("#lobby-message").textContent = "choose a saved game file first"; return; }
  let record;
  try { record = JSON.parse(await file.text()); }
  catch { $("#lobby-message").textContent = `${file.name} is not a saved game (not JSON)`; return; }
  const upto = $("#load-upto").value.trim();
  try {
    const made = await api("/api/games/load", {record, upto: upto === "" ? null : parseInt(upto, 10)});
    if (made.token) keepToken(made.id, made.seat, made.token);
    keepOwner(made);
    if (made.notes) sessionStorage.setItem("hexkit.notes", made.notes.join("; "));
    location.href = made.url;
  } catch (e) { $("#lobby-message").textContent = e.message; }
}

async function refreshLobby() {
  let data;
  const limit = Math.max(lobbyShown, 50);
  try { data = await api(`/api/games?limit=${limit}${onlyMine ? "&mine=1" : ""}`); } catch { return; }
  $("#more-games").hidden = data.total <= data.games.length;
  $("#games-count").textContent = data.total > data.games.length ? `${data.games.length} of ${data.total}` : "";
  const body = $("#games tbody");
  body.replaceChildren();
  for (const g of data.games) {
    const held = heldTokens(g.id);
    const players = g.seats.map((s) => `${s.name}: ${s.bot ? s.spec : (s.taken ? (s.player || "taken") : "free")}`).join(", ");
    const state = g.over ? g.result : (g.free.length ? "open" : `running, move ${g.ply}`);
    const cell = el("td");
    for (const seat of mayPlay() ? g.free : []) {
      const b = el("button", {textContent: `Join as ${g.players[seat]}`, className: "join"});
      b.dataset.game = g.id;
      b.addEventListener("click", () => joinSeat(g.id, seat).then(() => { location.href = `/game/${g.id}`; },
        (e) => { $("#lobby-message").textContent = e.message; }));
      cell.append(b);
    }
    const mine = Object.keys(held).length > 0;
    cell.append(el("a", {href: `/game/${g.id}`, textContent: mine ? "Play" : "Watch", className: "open"}));
    const row = el("tr", {}, el("td", {textContent: g.game}), el("td", {textContent: players}),
                   el("td", {textContent: state}), cell);
    row.dataset.game = g.id;
    body.append(row);
  }
}

async function joinSeat(roomId, seat) {
  const got = await api(`/api/games/${roomId}/join`, {seat});
  keepToken(roomId, got.seat, got.token);
  hello();  // the server now sends this browser the legal moves of its seat
}

// -- a game ----------------------------------------------------------------------------------
let roomId = null;
let S = null;           // the live game as the server last sent it
let viewPly = null;     // a move of the list being looked at, or null: the live position
let selected = null;    // the origin key clicked
let socket = null;
let sentAt = 0;         // when the last move was sent (for the latency benchmark)

const originKey = (o) => o === null ? "none" : Array.isArray(o) ? `${o[0]},${o[1]}` : `hand:${o.seat}:${o.kind}`;
const cellKey = (c) => c === null ? null : `${c[0]},${c[1]}`;

function mySeats() {
  return Object.keys(heldTokens(roomId)).map(Number);
}
function canMove() {
  return S && !S.over && S.turn !== null && S.thinking === null && mySeats().includes(S.turn) && viewPly === null;
}
function tokenFor(seat) { return heldTokens(roomId)[seat]; }

let presence = null;     // who is connected, as the server last said
let serverOffset = 0;    // the server's clock minus this browser's, in ms
let resyncing = false;   // a resync was asked for: changes wait for the whole state

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/games/${roomId}`);
  socket.onopen = hello;
  socket.onmessage = (ev) => onServer(JSON.parse(ev.data));
  socket.onclose = () => { presence = null; setTimeout(connect, 1000); };
}

// The one place where what the server sends is applied.
function onServer(msg) {
  if (msg.type === "state") { resyncing = false; shown(msg); }
  else if (msg.type === "change") applyChange(msg);
  else if (msg.type === "moves") {
    if (S && msg.version === S.version) { S.moves = msg.moves; selected = null; draw(); }
  } else if (msg.type === "presence") { presence = msg; drawPresence(); }
  else if (msg.type === "time") { serverOffset = msg.now * 1000 - Date.now(); drawClocks(); }
  else if (msg.type === "error") { say(msg.message); }
}

// A new version of the game (the whole state, or one made by a change) on the screen.
function shown(next) {
  const before = S;
  S = next; selected = null; draw();
  announceTurn(before);
  followRematch();
}

// Protocol 2, and the seats this browser holds: their legal moves come with each turn, the
// server counts it present there (a spectator otherwise) and sends who is connected and
// its time.
function hello() {
  if (!socket || socket.readyState !== WebSocket.OPEN || roomId === null) return;
  socket.send(JSON.stringify({type: "hello", protocol: 2, tokens: Object.values(heldTokens(roomId)).slice(0, 16)}));
}

// The SVG after a change: the server's line splices [start, end, lines] of the one before.
function patchSvg(svg, patch) {
  const lines = svg.split("\n");
  for (let i = patch.length - 1; i >= 0; i--) {
    const [start, end, added] = patch[i];
    lines.splice(start, end - start, ...added);
  }
  return lines.join("\n");
}

// The one place that applies what changed: every field given replaces the one held, the
// log from log_from on, the SVG from its patch. A change not made from the version held
// (a message missed) asks for the whole state again.
function applyChange(msg) {
  if (resyncing) return;
  if (!S || msg.base !== S.version) {
    resyncing = true;
    socket.send(JSON.stringify({type: "resync"}));
    return;
  }
  const next = {...S};
  for (const [key, value] of Object.entries(msg)) {
    if (key === "type" || key === "base" || key === "log_from" || key === "svg_patch") continue;
    next[key] = key === "log" ? S.log.slice(0, msg.log_from).concat(value) : value;
  }
  if (msg.svg_patch) next.svg = patchSvg(S.svg, msg.svg_patch);
  shown(next);
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) { say("not connected to the server: reconnecting"); return; }
  socket.send(JSON.stringify(message));
}

// A refusal (red) or, with info, news such as a link to copy (plain).
function say(text, info = false) {
  const box = $("#message");
  box.textContent = text;
  box.classList.toggle("info", info);
}

// Copies text and shows it too: the clipboard exists only on https and localhost, so a
// game opened on a LAN address (http://192.168...) still gets the link on screen.
function copyText(text, shown) {
  say(shown, true);  // at once: a clipboard may wait on a permission prompt or never answer
  navigator.clipboard?.writeText(text).then(() => {
    if ($("#message").textContent === shown) say(`Copied. ${shown}`, true);
  }, () => {});
}

function play(text) {
  if (!canMove()) { say(S && S.over ? "the game is over" : "it is not your turn"); return; }
  say("");
  sentAt = performance.now();
  send({type: "move", token: tokenFor(S.turn), move: text});
}

function showGame(id) {
  roomId = id;
  $("#game").hidden = false;
  $("#board").addEventListener("click", boardClick);
  $("#notation").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("#move-text").value.trim();
    if (!text) return;
    play(text);
    $("#move-text").value = "";
  });
  $("#undo").addEventListener("click", () => send({type: "undo", tokens: Object.values(heldTokens(roomId))}));
  setUpPlay();
  $("#chooser-cancel").addEventListener("click", () => { selected = null; drawHighlights(); });
  $("#go-live").addEventListener("click", () => { stopReplay(); goTo(null); });
  $("#replay").addEventListener("click", replay);
  $("#branch").addEventListener("click", async () => {
    try {
      const record = await api(`/api/games/${roomId}/record`);
      const made = await api("/api/games/load", {record, upto: viewPly,
                                                 seats: S.seats.map((s) => s.spec)});
      if (made.token) keepToken(made.id, made.seat, made.token);
      keepOwner(made);
      location.href = made.url;
    } catch (e) { say(e.message); }
  });
  const owner = () => ({owner_token: ownerToken(roomId) || ""});
  $("#stop-game").addEventListener("click", async () => {
    try { await api(`/api/games/${roomId}/stop`, owner()); } catch (e) { say(e.message); }
  });
  $("#delete-game").addEventListener("click", async () => {
    if (!confirm("Delete this game for everyone?")) return;
    try { await api(`/api/games/${roomId}`, owner(), "DELETE"); location.href = "/"; }
    catch (e) { say(e.message); }
  });
  const notes = sessionStorage.getItem("hexkit.notes");
  if (notes) { sessionStorage.removeItem("hexkit.notes"); say(notes, true); }
  $("#copy-link").addEventListener("click", () => {
    copyText(location.href, `Invite link (to play or watch): ${location.href}`);
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "INPUT" || !S) return;
    stopReplay();
    const last = S.ply;
    const now = viewPly === null ? last : viewPly;
    if (ev.key === "ArrowLeft") { goTo(Math.max(0, now - 1)); ev.preventDefault(); }
    else if (ev.key === "ArrowRight") { goTo(now + 1 >= last ? null : now + 1); ev.preventDefault(); }
    else if (ev.key === "Home") { goTo(0); ev.preventDefault(); }
    else if (ev.key === "End" || ev.key === "Escape") { goTo(null); ev.preventDefault(); }
  });
  checkHeldSeats(id, takeSeatFromLink(id));
  connect();
}

// Replay: the game from its start, one move at a time, back to the live position.
let replayTimer = null;
function stopReplay() { clearTimeout(replayTimer); replayTimer = null; }
async function replay() {
  stopReplay();
  window.hexkitReplayed = [];  // the positions shown, for the tests
  const step = async (ply) => {
    await goTo(ply);
    window.hexkitReplayed.push(ply);
    if (ply === null) return;
    replayTimer = setTimeout(() => step(ply + 1 >= S.ply ? null : ply + 1), window.hexkitReplayMs || 800);
  };
  step(0);
}

async function goTo(ply) {
  if (ply !== null && S && ply >= S.ply) ply = null;
  viewPly = ply;
  if (ply === null) { draw(); return; }
  try {
    const pos = await api(`/api/games/${roomId}/position?ply=${ply}`);
    if (viewPly !== ply) return;
    $("#board").innerHTML = pos.svg;
    $("#history-banner").hidden = false;
    $("#history-ply").textContent = `${ply} of ${S.ply}`;
    $("#chooser").hidden = true;
    markLog();
    setLinks();
  } catch (e) { say(e.message); }
}

function draw() {
  if (!S) return;
  document.body.dataset.ply = String(S.ply);
  document.body.dataset.over = String(S.over);
  document.body.dataset.turn = S.turn === null ? "" : String(S.turn);
  document.body.dataset.thinking = S.thinking === null ? "" : String(S.thinking);
  if (viewPly !== null) {  // the live game goes on meanwhile; the position looked at stays
    drawPanel();
    markLog();
    drawPlay();
    $("#history-ply").textContent = `${viewPly} of ${S.ply}`;
    return;
  }
  $("#history-banner").hidden = true;
  $("#board").innerHTML = S.svg;
  drawLastMarks();
  // When this position reached the screen (benchmarks/web_latency.py reads it).
  const ply = S.ply;
  requestAnimationFrame(() => { (window.hexkitDrawn ||= {})[ply] = performance.timeOrigin + performance.now(); });
  drawPanel();
  drawHighlights();
  markLog();
  setLinks();
  drawPlay();
  if (sentAt) { window.hexkitLastUpdate = {ply: S.ply, ms: performance.now() - sentAt}; sentAt = 0; }
}

function setLinks() {
  const ply = viewPly === null ? "" : `?ply=${viewPly}`;
  $("#download-svg").href = `/api/games/${roomId}/svg${ply}`;
  $("#download-record").href = `/api/games/${roomId}/record`;
}

function drawPanel() {
  drawTitle();
  $("#game-title").textContent = S.game;
  const status = $("#status");
  const mine = mySeats();
  status.classList.toggle("thinking", S.thinking !== null);
  if (S.over) status.textContent = S.result;
  else if (S.thinking !== null) status.textContent = `${S.players[S.thinking]} (${S.seats[S.thinking].spec}) is thinking`;
  else if (S.notice) status.textContent = S.notice;
  else status.textContent = mine.includes(S.turn) ? `Your move (${S.players[S.turn]})` : `${S.players[S.turn]} to play`;
  status.dataset.turn = S.turn === null ? "" : String(S.turn);

  const seats = $("#seats");
  seats.replaceChildren();
  for (const s of S.seats) {
    const person = s.player ? s.player : "a person";
    const li = el("li", {textContent: `${s.name}: ${s.bot ? `bot ${s.spec}` : mine.includes(s.seat) ? (s.player ? `you (${s.player})` : "you") : s.taken ? person : "free "}`});
    if (mine.includes(s.seat)) {
      const b = el("button", {textContent: "Link for another device", className: "seat-link"});
      b.dataset.seat = String(s.seat);
      b.addEventListener("click", () => {
        const link = seatLink(roomId, s.seat);
        const shown = `Open this link on your other device to play ${s.name} there; keep it private, it holds your seat: ${link}`;
        copyText(link, shown);
      });
      li.append(b);
    }
    if (!s.bot && !s.taken && !S.over && mayPlay()) {
      const b = el("button", {textContent: "Take this seat", className: "take"});
      b.dataset.seat = String(s.seat);
      b.addEventListener("click", () => joinSeat(roomId, s.seat).then(() => draw(), (e) => say(e.message)));
      li.append(b);
    }
    li.dataset.seat = String(s.seat);
    seats.append(li);
  }
  drawPresence();
  if (!mine.length) seats.append(el("li", {className: "help", textContent: mayPlay() ? "You are watching." : "You are watching (sign in to play)."}));
  const owns = ownerToken(roomId) !== null || me.admin || (me.name !== null && me.name === S.owner);
  $("#stop-game").hidden = !owns || S.over;
  $("#delete-game").hidden = !owns;

  const undo = $("#undo-request");
  undo.replaceChildren();
  undo.hidden = S.undo_request === null;
  if (S.undo_request !== null) {
    const asker = S.players[S.undo_request];
    const answerer = mine.find((seat) => seat !== S.undo_request && !S.seats[seat].bot);
    if (mine.includes(S.undo_request)) undo.append(`You asked to take back your last move; waiting for an answer.`);
    else if (answerer !== undefined) {
      const yes = el("button", {textContent: "Accept", id: "undo-accept"});
      const no = el("button", {textContent: "Refuse", id: "undo-refuse"});
      yes.onclick = () => send({type: "undo_answer", token: tokenFor(answerer), accept: true});
      no.onclick = () => send({type: "undo_answer", token: tokenFor(answerer), accept: false});
      undo.append(`${asker} asks to take back their last move. `, yes, no);
    } else undo.append(`${asker} asks to take back their last move.`);
  }

  const caption = $("#caption");
  const lines = S.caption.filter((line) => line.trim() !== S.result);  // said once, above
  caption.replaceChildren(...lines.map((line) => el("li", {textContent: line})));

  const others = $("#other-moves");
  others.replaceChildren();
  if (canMove()) {
    const placeless = S.moves.filter((m) => m.origin === null && m.target === null);
    for (const m of placeless.slice(0, 200)) {
      const b = el("button", {textContent: m.text, className: "move-button"});
      b.onclick = () => play(m.text);
      others.append(b);
    }
  }
  $("#move-text").disabled = !canMove();
  $("#play").disabled = !canMove();
  $("#undo").disabled = !mine.length || S.ply === 0 || S.over;
  $("#move-help").textContent = S.move_help || "Click a piece, then where it goes.";

  const log = $("#log");
  log.replaceChildren();
  for (const entry of S.log) {
    const li = el("li", {}, el("span", {className: "move", textContent: `${entry.player}: ${entry.move}`}));
    for (const e of entry.events) li.append(el("span", {className: `event ${e.kind}`, textContent: e.text}));
    li.dataset.ply = String(entry.ply);
    li.onclick = () => goTo(entry.ply);
    log.append(li);
  }
  log.scrollTop = log.scrollHeight;
  log.scrollLeft = log.scrollWidth;  // a phone shows the moves as a strip: the last in view
}

function markLog() {
  const current = viewPly === null ? (S ? S.ply : 0) : viewPly;
  for (const li of document.querySelectorAll("#log li")) li.classList.toggle("current", Number(li.dataset.ply) === current);
}

function movesFrom(key) { return S.moves.filter((m) => originKey(m.origin) === key && !(m.origin === null)); }

function drawHighlights() {
  const board = $("#board");
  for (const n of board.querySelectorAll(".hk-origin, .hk-selected, .hk-target")) n.classList.remove("hk-origin", "hk-selected", "hk-target");
  $("#chooser").hidden = true;
  if (!canMove()) return;
  const origins = new Set(S.moves.filter((m) => m.origin !== null).map((m) => originKey(m.origin)));
  for (const key of origins) {
    const node = nodeOf(key);
    if (node) node.classList.add(key === selected ? "hk-selected" : "hk-origin");
  }
  if (selected === null) {
    // Moves that start nowhere but end on a cell (a stone put on the board): click the cell.
    for (const m of S.moves.filter((x) => x.origin === null && x.target !== null)) {
      const node = board.querySelector(`polygon[data-cell="${cellKey(m.target)}"]`);
      if (node) node.classList.add("hk-target");
    }
    return;
  }
  const from = movesFrom(selected);
  for (const m of from) {
    const t = cellKey(m.target);
    const node = t && board.querySelector(`polygon[data-cell="${t}"]`);
    if (node) node.classList.add("hk-target");
  }
  const placeless = from.filter((m) => m.target === null);
  if (placeless.length) choose(placeless, "Moves of this piece:");
}

function nodeOf(key) {
  if (key.startsWith("hand:")) {
    const [, seat, kind] = key.match(/^hand:(\d+):(.*)$/);
    return [...$("#board").querySelectorAll("g.hand")].find((g) => g.dataset.seat === seat && g.dataset.kind === kind);
  }
  return $("#board").querySelector(`polygon[data-cell="${key}"]`);
}

function choose(moves, title) {
  $("#chooser-title").textContent = title;
  const box = $("#choices");
  box.replaceChildren();
  for (const m of moves) {
    const b = el("button", {textContent: m.text, className: "choice"});
    b.onclick = () => play(m.text);
    box.append(b);
  }
  $("#chooser").hidden = false;
}

function boardClick(ev) {
  if (viewPly !== null) { goTo(null); return; }
  if (!canMove()) { if (S && !S.over) say(S.thinking !== null ? "a bot is thinking" : "it is not your turn"); return; }
  const hand = ev.target.closest("g.hand");
  const cell = ev.target.closest("polygon[data-cell]");
  let key = null;
  if (hand) key = `hand:${hand.dataset.seat}:${hand.dataset.kind}`;
  else if (cell) key = cell.dataset.cell;
  if (key === null) { selected = null; drawHighlights(); return; }
  if (!key.startsWith("hand:")) {
    const from = selected === null ? S.moves.filter((m) => m.origin === null) : movesFrom(selected);
    const here = from.filter((m) => cellKey(m.target) === key);
    if (here.length === 1) { play(here[0].text); return; }
    if (here.length > 1) { drawHighlights(); choose(here, "Which move?"); return; }
  }
  selected = movesFrom(key).length ? (key === selected ? null : key) : null;
  drawHighlights();
}

// When the last click happened, in the same clock as hexkitDrawn (for the latency benchmark).
document.addEventListener("click", (ev) => { window.hexkitClickAt = performance.timeOrigin + ev.timeStamp; }, true);

// -- play beyond the rules: clocks, resign, draw, rematch, presence, marks -------------------
const PLAY = () => S.play || {clock: null, draw_offer: null, rematch_offer: null, rematch: null, left: [], ended: null};
const heldSeat = (seat) => mySeats().includes(seat);
// A seat of mine that is not `seat` (the one that answers the other player's offer).
const answeringSeat = (seat) => mySeats().find((m) => m !== seat && !S.seats[m].bot);

function setUpPlay() {
  $("#resign").addEventListener("click", () => {
    const seat = mySeats().find((m) => !S.seats[m].bot);
    if (seat === undefined || !confirm("Resign this game?")) return;
    send({type: "resign", token: tokenFor(S.turn !== null && heldSeat(S.turn) ? S.turn : seat)});
  });
  $("#offer-draw").addEventListener("click", () => {
    const seat = S.turn !== null && heldSeat(S.turn) ? S.turn : mySeats()[0];
    send({type: "draw", token: tokenFor(seat)});
  });
  $("#rematch").addEventListener("click", () => send({type: "rematch", tokens: Object.values(heldTokens(roomId))}));
  $("#leave-game").addEventListener("click", async () => {
    try {
      await api(`/api/games/${roomId}/leave`, {tokens: Object.values(heldTokens(roomId))});
      localStorage.removeItem(`hexkit.tokens.${roomId}`);
      location.href = "/";
    } catch (e) { say(e.message); }
  });
  const sound = $("#sound");
  sound.checked = localStorage.getItem("hexkit.sound") === "on";
  sound.addEventListener("change", () => {
    localStorage.setItem("hexkit.sound", sound.checked ? "on" : "off");
    if (sound.checked) beep();  // a browser lets a page sound after a click
  });
  setInterval(drawClocks, 200);
}

function drawPlay() {
  const play = PLAY();
  const mine = mySeats().filter((m) => !S.seats[m].bot);
  const two = S.seats.length === 2;
  const others = S.seats.filter((s) => !mine.includes(s.seat));
  $("#resign").hidden = !mine.length || S.over || !two || mine.length === S.seats.length;
  $("#offer-draw").hidden = !mine.length || S.over || !two || play.draw_offer !== null ||
    others.every((s) => s.bot) || mine.length === S.seats.length;
  $("#rematch").hidden = !mine.length || !S.over || play.rematch !== null || play.rematch_offer !== null;
  $("#leave-game").hidden = !mine.length || !S.over;
  drawOffers(play);
  drawClocks();
  drawLegend();
  drawNews();
}

function drawOffers(play) {
  const box = $("#offers");
  box.replaceChildren();
  const ask = (text, kind, seat) => {
    const answerer = answeringSeat(seat);
    if (heldSeat(seat)) { box.append(`${text}: waiting for an answer.`); return; }
    box.append(`${S.players[seat]} ${text.toLowerCase()}. `);
    if (answerer === undefined) return;
    const yes = el("button", {textContent: "Accept", id: `${kind}-accept`});
    const no = el("button", {textContent: "Decline", id: `${kind}-decline`});
    yes.onclick = () => send({type: `${kind}_answer`, token: tokenFor(answerer), accept: true});
    no.onclick = () => send({type: `${kind}_answer`, token: tokenFor(answerer), accept: false});
    box.append(yes, " ", no);
  };
  if (play.draw_offer !== null && !S.over) ask(heldSeat(play.draw_offer) ? "You offered a draw" : "Offers a draw", "draw", play.draw_offer);
  else if (play.rematch_offer !== null && !play.rematch) ask(heldSeat(play.rematch_offer) ? "You asked for a rematch" : "Asks for a rematch", "rematch", play.rematch_offer);
  else if (play.rematch) {
    box.append("A rematch was made: ", el("a", {href: `/game/${play.rematch}`, id: "rematch-link", textContent: mySeats().length ? "play it" : "watch it"}));
  }
  box.hidden = !box.childNodes.length;
}

// A rematch made: this browser's seats move with their tokens (each player one seat on)
// and the page follows, once, to the new game.
function followRematch() {
  const made = PLAY().rematch;
  const held = heldTokens(roomId);
  if (!made || !Object.keys(held).length || localStorage.getItem(`hexkit.followed.${roomId}`) === made) return;
  const n = S.seats.length;
  for (const [seat, token] of Object.entries(held)) keepToken(made, (Number(seat) + n - 1) % n, token);
  localStorage.setItem(`hexkit.followed.${roomId}`, made);
  const owner = ownerToken(roomId);
  if (owner) keepOwner({id: made, owner_token: owner});
  location.href = `/game/${made}`;
}

function clockText(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return s.toFixed(1);
  const whole = Math.ceil(s);
  const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), sec = whole % 60;
  const two = (x) => String(x).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

function drawClocks() {
  const box = $("#clocks");
  const clock = S && PLAY().clock;
  box.hidden = !clock;
  if (!clock) return;
  const now = (Date.now() + serverOffset) / 1000;
  if (box.childElementCount !== clock.left.length) {
    box.replaceChildren(...clock.left.map((_, seat) => {
      const c = el("div", {className: "clock"}, el("span", {className: "who"}), el("span", {className: "time"}));
      c.dataset.seat = String(seat);
      return c;
    }));
  }
  clock.left.forEach((left, seat) => {
    const running = clock.running === seat && !S.over;
    const seconds = running ? left - Math.max(0, now - clock.since) : left;
    const node = box.children[seat];
    node.querySelector(".who").textContent = `${S.players[seat]}${heldSeat(seat) ? " (you)" : ""}`;
    node.querySelector(".time").textContent = clockText(seconds);
    node.classList.toggle("running", running);
    node.classList.toggle("low", seconds < 20);
  });
  box.title = `${clock.control.replace("+", " minutes + ")} seconds a turn`;
}

function drawPresence() {
  const watching = $("#watching");
  if (!S || !presence) { watching.textContent = ""; return; }
  for (const li of document.querySelectorAll("#seats li[data-seat]")) {
    const seat = Number(li.dataset.seat);
    const on = S.seats[seat].bot || presence.seats[seat];
    li.classList.toggle("online", Boolean(on));
    li.classList.toggle("offline", !on && S.seats[seat].taken);
    li.title = S.seats[seat].bot ? "a bot" : on ? "connected" : S.seats[seat].taken ? "not connected" : "free";
  }
  const n = presence.spectators;
  watching.textContent = n ? `${n} watching` : "nobody else watching";
}

// The tab says the game, and whose turn it is (yours first, so it shows in a narrow tab).
function drawTitle() {
  let title = `${S.game} — hexkit`;
  if (S.over) title = `Over · ${title}`;
  else if (canMove()) title = `Your turn · ${title}`;
  else if (S.turn !== null) title = `${S.players[S.turn]} to play · ${title}`;
  document.title = title;
}

// Tells (a sound, when this browser allows it) that the turn came to this browser.
function announceTurn(before) {
  if (!before || before.ply === S.ply && before.turn === S.turn) return;
  if (!canMove() || localStorage.getItem("hexkit.sound") !== "on") return;
  if (before.turn === S.turn && mySeats().includes(before.turn)) return;
  beep();
}

let audio = null;
function beep() {
  try {
    audio ||= new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
    window.hexkitBeeps = (window.hexkitBeeps || 0) + 1;
  } catch { /* no sound here */ }
}

// What the last move did, in words (its events), beside the status.
function drawNews() {
  const last = S.log[S.log.length - 1];
  $("#news").textContent = last && viewPly === null ? last.events.filter((e) => e.kind !== "game_over").map((e) => e.text).join(" ") : "";
}

// The terrains of the board with their colours.
function drawLegend() {
  const box = $("#legend");
  const terrain = S.terrain || [];
  box.hidden = !terrain.length;
  box.replaceChildren(...terrain.map(([name, colour]) => {
    const swatch = el("span", {className: "swatch"});
    swatch.style.background = colour;
    return el("li", {}, swatch, name);
  }));
}

// The last turn drawn on the board: where each move started and ended, and a cross where a
// piece was removed. Drawn over the cells (under the pieces), clicks pass through.
const SVG_NS = "http://www.w3.org/2000/svg";
function drawLastMarks() {
  const board = $("#board");
  const cell = (at) => at && Array.isArray(at) ? board.querySelector(`polygon[data-cell="${at[0]},${at[1]}"]`) : null;
  const first = board.querySelector("polygon[data-cell]");
  if (!first || !S.last || !S.last.length) return;
  const under = document.createElementNS(SVG_NS, "g");
  under.setAttribute("class", "hk-last");
  under.setAttribute("pointer-events", "none");
  const over = under.cloneNode(false);
  const tint = (poly, kind) => {
    const copy = document.createElementNS(SVG_NS, "polygon");
    copy.setAttribute("points", poly.getAttribute("points"));
    copy.setAttribute("class", kind);
    under.append(copy);
  };
  for (const mark of S.last) {
    const from = cell(mark.origin), to = cell(mark.target);
    if (from) tint(from, "hk-last-from");
    if (to) tint(to, "hk-last-to");
    for (const at of mark.removed || []) {
      const poly = cell(at);
      if (!poly) continue;
      const pts = poly.getAttribute("points").trim().split(/\s+/).map((p) => p.split(",").map(Number));
      const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
      const cx = (Math.min(...xs) + Math.max(...xs)) / 2, cy = (Math.min(...ys) + Math.max(...ys)) / 2;
      const r = (Math.max(...ys) - Math.min(...ys)) / 5;
      const cross = document.createElementNS(SVG_NS, "path");
      cross.setAttribute("d", `M${cx - r},${cy - r}L${cx + r},${cy + r}M${cx + r},${cy - r}L${cx - r},${cy + r}`);
      cross.setAttribute("class", "hk-removed");
      cross.setAttribute("stroke-width", String(r / 2.5));
      cross.dataset.cell = `${at[0]},${at[1]}`;
      over.append(cross);
    }
  }
  first.parentNode.after(under);
  first.parentNode.parentNode.append(over);
}

// -- start -----------------------------------------------------------------------------------
async function start() {
  try { me = await api("/api/me"); } catch { /* an older server: no accounts */ }
  drawWho();
  const path = location.pathname;
  if (path === "/login") { showLogin(); return; }
  if (path === "/welcome") { showWelcome(); return; }
  if (!me.watching) { location.href = "/login"; return; }
  const match = path.match(/^\/game\/([0-9a-f]+)$/);
  if (match) showGame(match[1]); else showLobby();
}
start();

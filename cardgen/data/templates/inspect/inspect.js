// The layout inspector of `cardgen serve`: loads a face's layout and picture from /api/, keeps the
// selection, sends edits (drags, nudges, properties) and undos, and follows saves made elsewhere.
// Vanilla JS, no network access beyond the server; see docs/gallery.md, "Layout inspector".
import { Stage } from "./inspect-stage.js";
import { Panel } from "./inspect-panel.js";

const $ = (id) => document.getElementById(id);
const state = {
  card: "", face: 0, token: "", layout: null, picture: "", chosen: null, hover: null,
  version: null, loads: 0, nudge: null, nudgeTimer: 0, lost: false, editing: 0,
};
let chain = Promise.resolve();

function readHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  return { card: h.get("card") || "", face: Math.max(0, parseInt(h.get("face") || "0", 10) || 0) };
}

async function call(path, body, retried) {
  const init = body === undefined ? { cache: "no-store" } : {
    method: "POST", cache: "no-store", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", "X-Cardgen-Token": state.token },
  };
  let answer;
  try {
    answer = await fetch(path, init);
  } catch (err) {
    return { status: 0, data: { error: "the server does not answer: is `cardgen serve` still running?" } };
  }
  let data = null;
  try { data = await answer.json(); } catch (err) { data = null; }
  if (answer.status === 403 && body !== undefined && !retried) {  // the server was restarted
    await fetchToken();
    return call(path, body, true);
  }
  return { status: answer.status, data: data || {} };
}

async function fetchToken() {
  const { status, data } = await call("/api/token");
  if (status === 200) state.token = data.token;
}

// ---- messages -------------------------------------------------------------------------------
function message(text, kind = "error") {
  const bar = $("message");
  bar.className = "message " + kind;
  $("message-text").textContent = text;
  bar.hidden = !text;
}
function status(text) { $("status").textContent = text; $("status").title = text; }
$("message-close").addEventListener("click", () => message(""));

// ---- the face -------------------------------------------------------------------------------
function entry(chosen = state.chosen) {
  if (!chosen || !state.layout) return null;
  const els = state.layout.elements;
  return (chosen.id && els.find((e) => e.id === chosen.id)) || els.find((e) => e.n === chosen.n) || null;
}

function preload(url) {
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = img.onerror = () => resolve();
    img.src = url;
  });
}

async function load() {
  if (!state.card) { $("empty").hidden = false; return; }
  const seq = ++state.loads;
  const q = `card=${encodeURIComponent(state.card)}&face=${state.face}`;
  const { status: code, data } = await call(`/api/layout?${q}`);
  if (seq !== state.loads) return;
  if (code !== 200) { message(data.error || `the server answered ${code}`); return; }
  const url = `/api/face?${q}&k=${encodeURIComponent(data.key || Date.now())}`;
  if (url !== state.picture) await preload(url);  // the picture and its overlay change together
  if (seq !== state.loads) return;
  state.layout = data;
  state.picture = url;
  render();
}

function render() {
  const layout = state.layout;
  const chosen = entry();
  if (state.chosen && !chosen) state.chosen = null;
  if (chosen) state.chosen = { id: chosen.id, n: chosen.n };
  document.title = `${layout.name} · ${layout.label} — layout inspector`;
  $("card-name").textContent = layout.name;
  $("template-file").textContent = layout.template;
  renderFaces(layout);
  stage.show(layout, state.picture, chosen ? chosen.n : null, state.editing > 0);  // a drag stays where it was dropped until written
  panel.show(layout, chosen ? chosen.n : null);
  if (state.nudge && chosen) stage.preview(nudgeEdges());
}

function renderFaces(layout) {
  const nav = $("faces");
  nav.replaceChildren();
  (layout.faces || [layout.label]).forEach((label, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.setAttribute("aria-pressed", String(i === layout.which));
    b.addEventListener("click", () => { location.hash = `card=${encodeURIComponent(state.card)}&face=${i}`; });
    nav.append(b);
  });
}

// ---- selection ------------------------------------------------------------------------------
function select(n) {
  flushNudge();  // the nudges so far go to the element they were meant for
  const e = n === null || n === undefined ? null : state.layout.elements.find((x) => x.n === n);
  state.chosen = e ? { id: e.id, n: e.n } : null;
  stage.select(e ? e.n : null);
  panel.select(e ? e.n : null);
}
function hover(n) {
  if (state.hover === n) return;
  state.hover = n;
  stage.hover(n);
  panel.hover(n);
}

// ---- edits ----------------------------------------------------------------------------------
function queue(job) {
  chain = chain.then(job).catch((err) => message(String(err)));
  return chain;
}

function edit(change, what) {
  // the element meant now; found again when the edit's turn comes (after the edits before it)
  const target = { card: state.card, face: state.face, chosen: state.chosen };
  state.editing += 1;
  return queue(async () => {
    const same = target.card === state.card && target.face === state.face;
    const e = same ? entry(target.chosen) : null;
    if (!e) { state.editing -= 1; return; }
    const body = { card: target.card, face: target.face, n: e.n, seen: e.yaml, ...change };
    const { status: code, data } = await call("/api/edit", body);
    state.editing -= 1;
    if (code === 200) {
      message("");
      status(written(data.written, what) + " — Ctrl+Z undoes");
    } else if (code === 409) {
      status("");
      message(data.error);
    } else {
      status("");
      message(data.error || `the server answered ${code}`);
    }
    await load();  // a refused drag or value goes back to what the file says
  });
}

function written(changes, what) {
  if (!changes || !changes.length) return `${what}: nothing to change`;
  const parts = changes.map((c) => `${c.key}: ${c.old ?? "(none)"} → ${c.new ?? "(removed)"}`);
  return `${what}: wrote ${parts.join(", ")} in ${changes[0].file}`;
}

function undo() {
  flushNudge();
  return queue(async () => {
    const { status: code, data } = await call("/api/undo", {});
    if (code === 200) {
      message("");
      const back = (data.written || []).map((c) => `${c.key}: ${c.new ?? "(removed)"}`).join(", ");
      status(`Undone: ${back || "the last edit"}`);
    } else {
      message(data.error || `the server answered ${code}`, code === 422 ? "info" : "error");
    }
    await load();
  });
}

function nudgeEdges() {
  const { dx, dy } = state.nudge;
  return { left: dx, right: dx, top: dy, bottom: dy };
}
function nudge(dx, dy) {
  const e = entry();
  if (!e || !e.box) return;
  const why = Stage.unmovable(e);
  if (why) { message(why, "info"); return; }
  state.nudge = state.nudge || { dx: 0, dy: 0 };
  state.nudge.dx = Math.round((state.nudge.dx + dx) * 10) / 10;
  state.nudge.dy = Math.round((state.nudge.dy + dy) * 10) / 10;
  stage.preview(nudgeEdges());
  clearTimeout(state.nudgeTimer);
  state.nudgeTimer = setTimeout(flushNudge, 350);  // a burst of key presses is one edit, one undo
}
function flushNudge() {
  clearTimeout(state.nudgeTimer);
  const pending = state.nudge;
  state.nudge = null;
  if (pending && (pending.dx || pending.dy)) {
    edit({ edges: { left: pending.dx, right: pending.dx, top: pending.dy, bottom: pending.dy } }, "Nudged");
  }
}

// ---- wiring ---------------------------------------------------------------------------------
const stage = new Stage({
  scroll: $("scroll"), stage: $("stage"), img: $("face"), svg: $("overlay"),
  readout: $("readout"), tip: $("tip"), measure: $("measure"),
}, {
  hover, select,
  commit: (edges, what) => edit({ edges }, what),
  refuse: (why) => message(why, "info"),
});
const panel = new Panel($("element-list"), $("panel"), $("findings"), {
  hover, select,
  values: (values) => edit({ values }, "Set"),
  edges: (edges) => edit({ edges }, "Placed"),
  copied: (text) => status(`Copied ${text}`),
});

document.querySelectorAll("#legend input[data-layer]").forEach((box) => {
  box.addEventListener("change", () => stage.layer(box.dataset.layer, box.checked));
});
$("zoom-in").addEventListener("click", () => stage.zoom(1.25));
$("zoom-out").addEventListener("click", () => stage.zoom(0.8));
$("zoom-fit").addEventListener("click", () => stage.zoom(0));
$("undo").addEventListener("click", () => undo());

document.addEventListener("keydown", (ev) => {
  const typing = ev.target instanceof Element && ev.target.closest("input, textarea, select");
  const mod = ev.ctrlKey || ev.metaKey;
  if (mod && !ev.altKey && !ev.shiftKey && ev.key.toLowerCase() === "z") {
    if (typing) return;  // a field's own undo
    ev.preventDefault();
    undo();
    return;
  }
  if (typing) {
    if (ev.key === "Escape") ev.target.blur();
    return;
  }
  if (mod || ev.altKey) return;
  if (ev.key === "Escape") { select(null); return; }
  const zoom = { "+": 1.25, "=": 1.25, "-": 0.8, "0": 0 }[ev.key];
  if (zoom !== undefined) { stage.zoom(zoom); return; }
  const step = ev.shiftKey ? 1 : 0.1;
  const move = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[ev.key];
  if (move && state.chosen) {
    ev.preventDefault();
    nudge(move[0], move[1]);
  }
});

window.addEventListener("hashchange", () => {
  const { card, face } = readHash();
  if (card === state.card && face === state.face) return;
  flushNudge();
  if (card !== state.card) state.chosen = null;
  Object.assign(state, { card, face, picture: "" });
  load();
});

async function poll() {  // saves made elsewhere: the live gallery writes version.txt after each rebuild
  try {
    const answer = await fetch("version.txt?" + Date.now(), { cache: "no-store" });
    const v = answer.ok ? (await answer.text()).trim() : state.version;
    if (state.lost) { state.lost = false; status("The server answers again."); }
    if (v && v !== state.version) {
      const first = state.version === null;
      state.version = v;
      if (!first) await queue(load);
    }
  } catch (err) {
    if (!state.lost) status("The server does not answer: is `cardgen serve` still running?");
    state.lost = true;
  }
  setTimeout(poll, 400);
}

(async function start() {
  Object.assign(state, readHash());
  await fetchToken();
  await load();
  poll();
})();

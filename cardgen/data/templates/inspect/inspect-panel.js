// The inspector's element list (hidden elements greyed, with why) and the side panel of the
// selected element: its id, type, file:line, position, editable properties, keys as written, the
// card values it uses and its YAML.
import { named, Stage } from "./inspect-stage.js";

const PROPS = [  // what the panel edits, when the element's type takes it
  ["text", "Text", "text"],
  ["font", "Font", "font"],
  ["size", "Size", "length"],
  ["color", "Colour", "colour"],
  ["fill", "Fill", "colour"],
  ["stroke", "Stroke", "colour"],
  ["stroke_width", "Stroke width", "length"],
  ["radius", "Corner radius", "length"],
  ["align", "Align", ["left", "center", "right"]],
  ["valign", "Vertical align", ["top", "middle", "bottom"]],
];
let uid = 0;

function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k in e && typeof v !== "string") e[k] = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

function hex(value) {  // a colour as <input type=color> takes it, or null
  const v = String(value || "").trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(v)) return v;
  if (/^#[0-9a-f]{3}$/.test(v)) return "#" + [...v.slice(1)].map((c) => c + c).join("");
  return null;
}

export class Panel {
  constructor(list, panel, findings, on) {
    Object.assign(this, { list, panel, findings, on });
    this.layout = null;
    this.chosen = null;
  }

  show(layout, chosen) {
    this.layout = layout;
    this.chosen = chosen;
    this.renderList();
    this.renderFindings();
    this.renderDetails();
  }

  select(n) {
    this.chosen = n;
    for (const b of this.list.querySelectorAll("button.item")) {
      const on = Number(b.dataset.n) === n;
      b.classList.toggle("chosen", on);
      b.setAttribute("aria-pressed", String(on));
      if (on) b.scrollIntoView({ block: "nearest" });
    }
    this.renderDetails();
  }

  hover(n) {
    for (const b of this.list.querySelectorAll("button.item")) b.classList.toggle("hover", Number(b.dataset.n) === n);
  }

  renderList() {
    const items = this.layout.elements.map((e) => {
      const b = h("button", {
        type: "button", class: "item" + (e.box ? "" : " hidden") + (e.n === this.chosen ? " chosen" : ""),
        "aria-pressed": String(e.n === this.chosen), title: e.hidden || `${e.file}:${e.line}`,
        onclick: () => this.on.select(e.n),
        onmouseenter: () => this.on.hover(e.n), onmouseleave: () => this.on.hover(null),
        onfocus: () => this.on.hover(e.n), onblur: () => this.on.hover(null),
      }, h("span", { class: "eid" }, named(e)), h("span", { class: "etype" }, e.type),
      e.box ? null : h("span", { class: "why" }, e.hidden));
      b.dataset.n = e.n;
      return h("li", {}, b);
    });
    this.list.replaceChildren(...items);
  }

  renderFindings() {
    const found = this.layout.findings || [];
    this.findings.hidden = found.length === 0;
    this.findings.querySelector("summary").textContent = `Findings on this face (${found.length})`;
    this.findings.querySelector("ul").replaceChildren(...found.map((f) => h("li", {}, f)));
  }

  renderDetails() {
    const focus = this.remember();
    const e = this.layout && this.layout.elements.find((x) => x.n === this.chosen);
    this.panel.replaceChildren(...(e ? this.element(e) : this.face()));
    this.restore(focus);
  }

  remember() {
    const a = document.activeElement;
    if (!a || !this.panel.contains(a) || !a.dataset.key) return null;
    return { key: a.dataset.key, n: this.chosen, value: a.value, dirty: "orig" in a.dataset && a.value !== a.dataset.orig, start: a.selectionStart, end: a.selectionEnd };
  }

  restore(focus) {
    if (!focus || focus.n !== this.chosen) return;
    const a = this.panel.querySelector(`[data-key="${focus.key}"]`);
    if (!a) return;
    if (focus.dirty) a.value = focus.value;
    a.focus({ preventScroll: true });
    try { if (focus.start !== null && focus.start !== undefined) a.setSelectionRange(focus.start, focus.end); } catch (err) { /* not a text field */ }
  }

  face() {
    const L = this.layout;
    if (!L) return [];
    const keys = [
      ["Drag", "move the selected element"], ["Handles", "resize it"], ["← ↑ → ↓", "nudge 0.1 mm (Shift: 1 mm)"],
      ["Ctrl+Z", "undo the last edit"], ["Esc", "deselect"], ["+ − 0", "zoom in, out, fit"],
    ];
    return [
      h("h2", { class: "none" }, "No element selected"),
      h("p", { class: "hint" }, "Click an element on the face or in the list. Edits are written into the template file in place; millimetres are rounded to 0.1 mm and relative values stay relative."),
      h("dl", { class: "shortcuts" }, keys.map(([k, v]) => [h("dt", {}, h("kbd", {}, k)), h("dd", {}, v)])),
      h("h3", {}, "This face"),
      h("dl", { class: "facts" },
        h("dt", {}, "Template"), h("dd", {}, h("code", {}, L.template)),
        h("dt", {}, "Size"), h("dd", {}, `${L.size[0]} × ${L.size[1]} mm`),
        h("dt", {}, "Bleed · safe"), h("dd", {}, `${L.bleed} mm · ${L.safe} mm`),
        h("dt", {}, "Named boxes"), h("dd", {}, Object.keys(L.boxes || {}).join(", ") || "none")),
    ];
  }

  element(e) {
    const where = `${e.file}:${e.line}`;
    const out = [
      h("div", { class: "head" }, h("h2", {}, named(e)), h("span", { class: "badge" }, e.type)),
      h("button", { type: "button", class: "where", title: "Copy file:line", "aria-label": `Copy ${where}`, onclick: () => this.copy(where) },
        h("code", {}, where), h("span", { class: "copy" }, "Copy")),
    ];
    if (!e.box) out.push(h("p", { class: "note" }, `Not drawn on this card: ${e.hidden}`));
    out.push(this.geometry(e));
    const props = this.properties(e);
    if (props.length) out.push(h("section", {}, h("h3", {}, "Properties"), ...props));
    out.push(h("section", {}, h("h3", {}, "Keys as written"), this.keys(e)));
    const uses = Object.entries(e.uses || {});
    if (uses.length) {
      out.push(h("section", {}, h("h3", {}, "Card values used"),
        h("dl", { class: "uses" }, uses.map(([k, v]) => [h("dt", {}, h("code", {}, k)), h("dd", {}, v === "" ? h("em", {}, "empty") : v)]))));
    }
    out.push(h("section", {}, h("h3", {}, "YAML"), h("pre", { class: "yaml" }, e.yaml || "(not found in the file)")));
    return out;
  }

  geometry(e) {
    const why = Stage.unmovable(e);
    const box = e.box || [0, 0, 0, 0];
    const spans = { x: ["left", "right"], y: ["top", "bottom"], w: ["right"], h: ["bottom"] };
    const fields = ["x", "y", "w", "h"].map((axis, i) => {
      const id = `geo-${axis}-${++uid}`;
      const off = Boolean(why) || (e.type === "line" && (axis === "w" || axis === "h"));
      const input = h("input", {
        id, type: "number", step: "0.1", inputmode: "decimal", value: e.box ? box[i].toFixed(1) : "", disabled: off,
        onchange: (ev) => {
          const d = Math.round((parseFloat(ev.target.value) - box[i]) * 10) / 10;
          if (!Number.isFinite(d) || d === 0) return;
          const edges = { left: 0, top: 0, right: 0, bottom: 0 };
          for (const k of spans[axis]) edges[k] = d;
          this.on.edges(edges);
        },
      });
      input.dataset.key = `geo-${axis}`;
      input.dataset.orig = input.value;
      return h("div", { class: "geo" }, h("label", { for: id }, axis.toUpperCase()), input);
    });
    const parent = e.keys.in ? ` · in ${e.keys.in.raw}` : "";
    return h("section", {}, h("h3", {}, "Position and size ", h("small", {}, `mm from the trim corner${parent}`)),
      h("div", { class: "geometry" }, fields), why && e.box ? h("p", { class: "note" }, why) : null);
  }

  properties(e) {
    return PROPS.filter(([key]) => (e.can || []).includes(key)).map(([key, title, kind]) => {
      const id = `prop-${key}-${++uid}`;
      const k = e.keys[key];
      const raw = k ? String(k.raw ?? "") : "";
      if (k && k.computed) {
        return h("div", { class: "prop computed" }, h("label", { for: id }, title),
          h("output", { id }, h("code", {}, raw)), h("span", { class: "note" }, "computed — edit in the file"));
      }
      const set = (value) => { if (value !== raw && value.trim() !== "") this.on.values({ [key]: value.trim() }); };
      const onkey = (ev) => { if (ev.key === "Enter" && !ev.shiftKey) { ev.preventDefault(); ev.target.blur(); } };
      const field = (attrs) => {
        const input = h(attrs.tag || "input", { id, value: raw, placeholder: "default", onkeydown: onkey, onchange: (ev) => set(ev.target.value), ...attrs, tag: undefined });
        input.dataset.key = key;
        input.dataset.orig = raw;
        return input;
      };
      let control;
      if (kind === "text") {
        control = field({ tag: "textarea", rows: 2 });
        control.value = raw;
      } else if (kind === "font") {
        const names = [...(this.layout.fonts || [])];
        if (!names.includes(raw)) names.unshift(raw);
        control = h("select", { id, onchange: (ev) => set(ev.target.value) },
          names.map((f) => h("option", { value: f, selected: f === raw }, f || "default")));
        control.dataset.key = key;
      } else if (kind === "colour") {
        const text = field({ type: "text", spellcheck: "false", "aria-describedby": `${id}-pick` });
        const pick = h("input", {
          id: `${id}-pick`, type: "color", value: hex(raw) || "#000000", "aria-label": `${title}: pick a colour`,
          oninput: (ev) => { text.value = ev.target.value; }, onchange: (ev) => set(ev.target.value),
        });
        pick.classList.toggle("unset", !hex(raw));
        text.addEventListener("input", () => { const c = hex(text.value); if (c) pick.value = c; pick.classList.toggle("unset", !c); });
        control = h("div", { class: "colour" }, pick, text);
      } else if (Array.isArray(kind)) {
        const label = `${id}-label`;
        control = h("div", { class: "choices", role: "group", "aria-labelledby": label },
          kind.map((v) => h("button", { type: "button", "aria-pressed": String(v === raw), onclick: () => set(v) }, v)));
        return h("div", { class: "prop" }, h("span", { class: "label", id: label }, title), control);
      } else {
        control = field({ type: "text", inputmode: "decimal", spellcheck: "false" });
      }
      return h("div", { class: "prop" }, h("label", { for: id }, title), control);
    });
  }

  keys(e) {
    const rows = Object.entries(e.keys).map(([key, k]) => h("tr", { class: k.computed ? "computed" : "" },
      h("th", { scope: "row" }, k.key || key),
      h("td", {}, h("code", {}, String(k.raw ?? "")), k.computed ? h("span", { class: "note" }, "computed — edit in the file") : null),
      h("td", { class: "line" }, `:${k.line}`)));
    return h("table", { class: "keys" }, h("tbody", {}, rows));
  }

  copy(text) {
    const done = () => this.on.copied(text);
    const fallback = () => {
      const area = h("textarea", { class: "offscreen" });
      area.value = text;
      document.body.append(area);
      area.select();
      try { document.execCommand("copy"); done(); } finally { area.remove(); }
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, fallback);
    else fallback();
  }
}

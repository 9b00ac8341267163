// The inspector's stage: the face picture (with its bleed) under an SVG overlay in millimetres —
// bleed edge, trim, safe area, named boxes, every drawn element — with hover, selection, and the
// selected element's drag to move and handles to resize (snapped to 0.1 mm, measured live).
const SVG = "http://www.w3.org/2000/svg";
const HANDLES = ["nw", "n", "ne", "e", "se", "s", "sw", "w"];
const snap = (v) => Math.round(v * 10) / 10;
const mm = (v) => (Math.round(v * 10) / 10).toFixed(1);
const signed = (v) => (v > 0 ? "+" : v < 0 ? "−" : "±") + mm(Math.abs(v));

function node(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.append(e);
  return e;
}

export function named(e) { return e.id || `(${e.type}, line ${e.line})`; }

export function moved(box, edges) {
  if (!edges) return box;
  const [x, y, w, h] = box;
  return [x + edges.left, y + edges.top, w + edges.right - edges.left, h + edges.bottom - edges.top];
}

function edgesFor(dir, dx, dy, box) {
  if (dir === "move") return { left: dx, right: dx, top: dy, bottom: dy };
  const edges = { left: 0, top: 0, right: 0, bottom: 0 };  // never narrower than 0.1 mm
  if (dir.includes("w")) edges.left = Math.min(dx, snap(box[2] - 0.1));
  if (dir.includes("e")) edges.right = Math.max(dx, snap(0.1 - box[2]));
  if (dir.includes("n")) edges.top = Math.min(dy, snap(box[3] - 0.1));
  if (dir.includes("s")) edges.bottom = Math.max(dy, snap(0.1 - box[3]));
  return edges;
}

export class Stage {
  constructor(dom, on) {
    Object.assign(this, dom);
    this.on = on;
    this.layout = null;
    this.chosen = null;
    this.hovered = null;
    this.factor = 1;  // zoom over "fit to the window"
    this.scale = 1;  // CSS pixels per millimetre
    this.edges = null;  // the selected element's edges as dragged or nudged, not yet written
    this.drag = null;
    this.pending = null;
    this.shapes = new Map();
    this.svg.addEventListener("pointerdown", (ev) => this.down(ev));
    this.svg.addEventListener("pointermove", (ev) => this.move(ev));
    this.svg.addEventListener("pointerup", (ev) => this.up(ev));
    this.svg.addEventListener("pointercancel", () => this.cancel());
    this.svg.addEventListener("pointerleave", () => { if (!this.drag) this.leave(); });
    new ResizeObserver(() => this.size()).observe(this.scroll);
  }

  static unmovable(e) {
    if (!e.box) return `'${named(e)}' is not drawn on this card: ${e.hidden || "nothing to move"}`;
    if (e.keys.box) {
      return `'${named(e)}' fills the box '${e.keys.box.raw}': change the box under boxes:, ` +
        "or give the element its own x, y, w, h in the template file";
    }
    if (e.type === "polygon") return "a polygon's points are changed in the template file";
    return null;
  }

  static resizable(e) { return !Stage.unmovable(e) && e.type !== "line"; }

  show(layout, url, chosen, keep) {
    if (this.drag) { this.pending = [layout, url, chosen, keep]; return; }
    this.layout = layout;
    this.chosen = chosen;
    if (!keep) this.edges = null;
    if (this.img.getAttribute("src") !== url) this.img.src = url;
    this.img.alt = `${layout.name}, ${layout.label}`;
    this.size();
  }

  entry(n) { return this.layout ? this.layout.elements.find((e) => e.n === n) || null : null; }

  size() {
    if (!this.layout) return;
    const [w, h] = this.layout.size;
    const b = this.layout.bleed;
    const tw = w + 2 * b, th = h + 2 * b;
    const room = 64;  // around the face: the labels and handles on its edges stay in view
    const fit = Math.max(1, Math.min((this.scroll.clientWidth - room) / tw, (this.scroll.clientHeight - room) / th));
    this.scale = fit * this.factor;
    for (const e of [this.stage, this.img, this.svg]) {
      e.style.width = `${tw * this.scale}px`;
      e.style.height = `${th * this.scale}px`;
    }
    this.svg.setAttribute("viewBox", `${-b} ${-b} ${tw} ${th}`);
    const actual = Math.round((this.scale / (96 / 25.4)) * 100);
    this.measure.textContent = `${w} × ${h} mm · bleed ${b} · safe ${this.layout.safe} mm · zoom ${actual}%`;
    this.draw();
  }

  zoom(f) {
    this.factor = f === 0 ? 1 : Math.min(8, Math.max(0.5, this.factor * f));
    this.size();
  }

  layer(name, on) { this.svg.classList.toggle(`hide-${name}`, !on); }

  px(n) { return n / this.scale; }  // n screen pixels in millimetres

  frame(parent, box, cls) {  // a guide line with a light halo, so it shows on any art
    const [x, y, w, h] = box;
    const g = node("g", { class: cls }, parent);
    for (const [part, width] of [["halo", 2.5], ["line", 1.25]]) {
      const r = node("rect", { class: part, x, y, width: Math.max(w, 0), height: Math.max(h, 0), "stroke-width": this.px(width) }, g);
      if (part === "line" && cls !== "trim") r.setAttribute("stroke-dasharray", cls === "bleed" ? `${this.px(2)} ${this.px(3)}` : `${this.px(6)} ${this.px(4)}`);
    }
    return g;
  }

  label(parent, x, y, text, cls) {
    const t = node("text", { class: cls, x, y, "font-size": this.px(11), "stroke-width": this.px(3) }, parent);
    t.textContent = text;
    return t;
  }

  draw() {
    const L = this.layout, svg = this.svg;
    svg.replaceChildren();
    const [w, h] = L.size, b = L.bleed, s = L.safe;
    node("rect", { class: "catch", x: -b - this.px(32), y: -b - this.px(32), width: w + 2 * b + this.px(64), height: h + 2 * b + this.px(64) }, svg);
    const guides = node("g", { class: "guides" }, svg);
    this.frame(guides, [-b + this.px(0.6), -b + this.px(0.6), w + 2 * b - this.px(1.2), h + 2 * b - this.px(1.2)], "bleed");
    this.frame(guides, [0, 0, w, h], "trim");
    if (s > 0) this.frame(guides, [s, s, w - 2 * s, h - 2 * s], "safe");
    const boxes = node("g", { class: "boxes" }, svg);
    for (const [name, box] of Object.entries(L.boxes || {})) {
      this.frame(boxes, box, "nbox");
      this.label(boxes, box[0] + this.px(3), box[1] + this.px(11), name, "nbox-label");
    }
    const els = node("g", { class: "elements" }, svg);
    this.shapes = new Map();
    for (const e of L.elements) {
      if (!e.box) continue;
      const [x, y, bw, bh] = e.box;
      const r = node("rect", { class: "el", x, y, width: Math.max(bw, this.px(1)), height: Math.max(bh, this.px(1)), "stroke-width": this.px(1) }, els);
      r.dataset.n = e.n;
      this.shapes.set(e.n, r);
    }
    this.top = node("g", { class: "top" }, svg);
    this.mark();
  }

  mark() {  // the hovered and the selected element, the handles, the live measure
    if (!this.top) return;
    const top = this.top;
    top.replaceChildren();
    for (const [n, r] of this.shapes) {
      r.classList.toggle("hover", n === this.hovered);
      r.classList.toggle("chosen", n === this.chosen);
    }
    const hovered = this.entry(this.hovered);
    if (hovered && hovered.box && this.hovered !== this.chosen) {
      const [x, y, w, h] = hovered.box;
      node("rect", { class: "hl", x, y, width: Math.max(w, this.px(2)), height: Math.max(h, this.px(2)), "stroke-width": this.px(2) }, top);
    }
    const e = this.entry(this.chosen);
    if (!e || !e.box) { this.readout.hidden = true; return; }
    const [x, y, w, h] = moved(e.box, this.edges);
    const sel = node("rect", { class: "sel", x, y, width: Math.max(w, this.px(1)), height: Math.max(h, this.px(1)), "stroke-width": this.px(1.5) }, top);
    sel.dataset.n = e.n;
    sel.classList.toggle("moving", Boolean(this.edges));
    const tag = this.label(top, x, y - this.px(5), named(e), "sel-label");
    if (y - this.px(18) < -this.layout.bleed) tag.setAttribute("y", y + h + this.px(14));
    if (Stage.resizable(e)) {
      const size = this.px(9);
      const spots = { nw: [x, y], n: [x + w / 2, y], ne: [x + w, y], e: [x + w, y + h / 2], se: [x + w, y + h], s: [x + w / 2, y + h], sw: [x, y + h], w: [x, y + h / 2] };
      for (const dir of HANDLES) {
        const [cx, cy] = spots[dir];
        const handle = node("rect", { class: `handle h-${dir}`, x: cx - size / 2, y: cy - size / 2, width: size, height: size, "stroke-width": this.px(1.25) }, top);
        handle.dataset.dir = dir;
      }
    }
    this.showReadout(e, [x, y, w, h]);
  }

  showReadout(e, box) {
    if (!this.edges) { this.readout.hidden = true; return; }
    const [x, y, w, h] = box, b = this.layout.bleed, d = this.edges;
    const change = d.left === d.right && d.top === d.bottom
      ? `Δx ${signed(d.left)}  Δy ${signed(d.top)}`
      : `Δw ${signed(d.right - d.left)}  Δh ${signed(d.bottom - d.top)}`;
    this.readout.textContent = `x ${mm(x)}  y ${mm(y)}  w ${mm(w)}  h ${mm(h)} mm   ${change}`;
    this.readout.hidden = false;
    const above = (y + b) * this.scale - 34;
    this.readout.style.left = `${Math.max(0, (x + b) * this.scale)}px`;
    this.readout.style.top = `${above > 0 ? above : (y + h + b) * this.scale + 22}px`;
  }

  select(n) { this.chosen = n; this.edges = null; this.mark(); }
  hover(n) { this.hovered = n; this.mark(); }
  preview(edges) { this.edges = edges; this.mark(); }

  point(ev) {
    const r = this.svg.getBoundingClientRect();
    return { x: (ev.clientX - r.left) / this.scale - this.layout.bleed, y: (ev.clientY - r.top) / this.scale - this.layout.bleed };
  }

  hit(p) {  // the smallest drawn element under the point (a thin one is given a few pixels)
    let best = null, least = Infinity;
    const least_side = this.px(8);
    for (const e of this.layout.elements) {
      if (!e.box) continue;
      let [x, y, w, h] = e.box;
      if (w < least_side) { x -= (least_side - w) / 2; w = least_side; }
      if (h < least_side) { y -= (least_side - h) / 2; h = least_side; }
      if (p.x >= x && p.x <= x + w && p.y >= y && p.y <= y + h && w * h <= least) { best = e; least = w * h; }
    }
    return best;
  }

  down(ev) {
    if (ev.button !== 0 || !this.layout) return;
    const dir = ev.target.dataset ? ev.target.dataset.dir : undefined;
    let e = dir ? this.entry(this.chosen) : null;
    if (!e) {
      const inside = this.entry(this.chosen);
      const p = this.point(ev);
      e = this.hit(p);
      // a press inside the selected element keeps it (to drag it) unless a smaller one is there
      if (inside && inside.box && (!e || e.n !== inside.n) && this.contains(inside.box, p) && !this.smaller(e, inside)) e = inside;
      if (!e) { this.on.select(null); return; }
      if (e.n !== this.chosen) this.on.select(e.n);
    }
    ev.preventDefault();
    this.svg.setPointerCapture(ev.pointerId);
    this.tip.hidden = true;
    this.drag = { e, dir: dir || "move", x: ev.clientX, y: ev.clientY, moved: false };
  }

  contains(box, p) { return p.x >= box[0] && p.x <= box[0] + box[2] && p.y >= box[1] && p.y <= box[1] + box[3]; }
  smaller(a, b) { return Boolean(a && a.box && a.box[2] * a.box[3] < b.box[2] * b.box[3]); }

  move(ev) {
    if (!this.layout) return;
    const d = this.drag;
    if (!d) { this.hoverAt(ev); return; }
    const dxp = ev.clientX - d.x, dyp = ev.clientY - d.y;
    if (!d.moved) {
      if (Math.hypot(dxp, dyp) < 3) return;
      const why = Stage.unmovable(d.e);
      if (why) { this.on.refuse(why); this.drag = null; return; }
      d.moved = true;
    }
    let dx = snap(dxp / this.scale), dy = snap(dyp / this.scale);
    if (ev.shiftKey && d.dir === "move") { if (Math.abs(dx) >= Math.abs(dy)) dy = 0; else dx = 0; }
    this.edges = edgesFor(d.dir, dx, dy, d.e.box);
    this.mark();
  }

  up() {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    const edges = this.edges;
    if (d.moved && edges && Object.values(edges).some((v) => v !== 0)) {
      this.on.commit({ ...edges }, d.dir === "move" ? "Moved" : "Resized");
    } else {
      this.edges = null;
      this.mark();
    }
    if (this.pending) { const p = this.pending; this.pending = null; this.show(...p); }
  }

  cancel() {
    this.drag = null;
    this.edges = null;
    this.mark();
  }

  leave() {
    this.tip.hidden = true;
    this.on.hover(null);
  }

  hoverAt(ev) {
    const dir = ev.target.dataset ? ev.target.dataset.dir : undefined;
    const e = dir ? this.entry(this.chosen) : this.hit(this.point(ev));
    this.on.hover(e ? e.n : null);
    const chosen = this.entry(this.chosen);
    const onChosen = chosen && chosen.box && this.contains(chosen.box, this.point(ev)) && !this.smaller(e, chosen);
    this.svg.style.cursor = dir ? "" : onChosen && !Stage.unmovable(chosen) ? "move" : e ? "pointer" : "default";
    if (!e || dir) { this.tip.hidden = true; return; }
    const r = this.stage.getBoundingClientRect();
    this.tip.textContent = `${named(e)} · ${e.type}`;
    this.tip.hidden = false;
    this.tip.style.left = `${ev.clientX - r.left + 14}px`;
    this.tip.style.top = `${ev.clientY - r.top + 16}px`;
  }
}

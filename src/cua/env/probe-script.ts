import { SHOWN_TEXT_SCRIPT } from "./probe-script-text.js";

/**
 * The script the confirmation gate runs in the live page (in an isolated world, so the page's own
 * scripts cannot redefine what it calls): what a press at a viewport point would activate, or where
 * the focus is. Plain JS on purpose: it runs in the page, where the project's TS compile has no say.
 * It is called with the query; where the element at a point may host a closed shadow root (it
 * answers `pierce`), again with the deepest node there as CDP's hit test found it
 * (`DOM.getNodeForLocation` pierces shadow roots, closed ones too); for a focus inside a closed shadow
 * root, with that root (CDP's `DOM.describeNode` reaches it).
 *
 * A press reaches the top element at the point and everything it bubbles to; it is judged on the
 * nearest activatable ancestor (button, link, submit/checkbox input, an ARIA control role, a label's
 * control, an element with onclick, the element a `cursor: pointer` starts on) and on every link it
 * sits in (a button inside `<a href>` follows the link). Controls painted under see-through elements
 * are judged too. Same-origin frames are entered; a cross-origin frame or a canvas cannot be read,
 * nor can a control whose visible text is an image or a canvas, nor a page holding pointer lock (every
 * click then goes to the locked element, whatever is under the pointer).
 *
 * What a control says is read as it is shown: laid-out text only, in the order it is drawn (flex
 * `order`, absolute positions), without text too small or too faint to see, with `::before` and
 * `::after` content, beside its aria-label, title, alt and value — every one of them is judged. Links
 * are judged by where they go (path and query), forms by their action and the fields they submit
 * (hidden ones included). Every walk is bounded (nodes, ancestors, stack depth): nothing here grows
 * with the size of the page.
 */
export const PROBE_SCRIPT = String.raw`(q, pierced) => {
  const MAX_TEXT = 300, MAX_NODES = 120, MAX_UP = 80, MAX_STACK = 24, MAX_FIELDS = 30, MAX_OPTIONS = 60;
  const ACTIVATABLE = "button,a[href],area[href],summary,input[type=submit i],input[type=button i],input[type=image i]," +
    "input[type=reset i],input[type=checkbox i],input[type=radio i],input[type=file i],[role=button i],[role=link i]," +
    "[role=menuitem i],[role=menuitemcheckbox i],[role=menuitemradio i],[role=option i],[role=tab i],[role=checkbox i]," +
    "[role=radio i],[role=switch i],[onclick]";
  const XLINK = "http://www.w3.org/1999/xlink";
  const TEXT_TYPES = /^(text|search|email|url|tel|password|number|date|datetime-local|month|week|time)$/i;
  const REPLACED = /^(img|svg|video|canvas|input|button|select|textarea|iframe|frame|object|embed)$/;
  const OPAQUE = /^(canvas|embed|object)$/;
  const IMAGERY = "img,svg,canvas,picture,video,object,embed,input[type=image i]";
  const clean = (s) => String(s || "").replace(/\s+/g, " ").trim();
  const short = (s) => { const t = clean(s); return t.length > MAX_TEXT ? t.slice(0, MAX_TEXT) : t; };
  const tag = (el) => String(el.localName || "").toLowerCase();
  const parentOf = (el) => el.parentElement || (el.parentNode && el.parentNode.host) || null;
  const styles = new Map();
  const styleOf = (el) => { let s = styles.get(el); if (!s) { s = el.ownerDocument.defaultView.getComputedStyle(el); styles.set(el, s); } return s; };
  const holds = (outer, inner) => { let d = 0; for (let e = inner; e && d < MAX_UP; e = parentOf(e), d++) if (e === outer) return true; return false; };
  const byIds = (el, attr) => clean((el.getAttribute(attr) || "").split(/\s+/).map((id) => {
    const root = el.getRootNode();
    const t = id && root.getElementById ? root.getElementById(id) : null;
    return t ? t.textContent : "";
  }).join(" "));
  /** Where a URL goes, as words: its path and every query parameter's name and value. */
  const destination = (el, url) => {
    try {
      const u = new URL(url || "", el.baseURI);
      const params = Array.from(u.searchParams).slice(0, MAX_FIELDS).map(([k, v]) => k + " " + v).join(" ");
      return clean(decodeURIComponent(u.pathname).replace(/[\/_.~-]+/g, " ") + " " + params.replace(/[_.~=&-]+/g, " "));
    } catch (e) { return ""; }
  };
  const hrefOf = (el) => el.getAttribute("href") || el.getAttributeNS(XLINK, "href") || "";
  const isLink = (el) => (tag(el) === "a" || tag(el) === "area") && hrefOf(el) !== "";
  const isSubmit = (el) => (tag(el) === "button" && el.type === "submit") || (tag(el) === "input" && /^(submit|image)$/i.test(el.type));
  const roleOf = (el) => {
    const r = clean(el.getAttribute("role")).split(" ")[0];
    if (r) return r.toLowerCase();
    const t = tag(el);
    if (t === "a" || t === "area") return "link";
    if (t === "button" || t === "summary") return "button";
    if (t === "input") {
      const ty = String(el.type).toLowerCase();
      return ty === "checkbox" || ty === "radio" ? ty : ty === "range" ? "slider" : /^(submit|button|image|reset|file)$/.test(ty) ? "button" : "textbox";
    }
    if (t === "textarea") return "textbox";
    if (t === "select") return "combobox";
    if (t === "form") return "form";
    return el.isContentEditable ? "textbox" : "generic";
  };
${SHOWN_TEXT_SCRIPT}
  const fieldsOf = (form) => Array.from(form.elements).slice(0, MAX_FIELDS).filter((f) => f.name && !(f.type === "checkbox" || f.type === "radio") || (f.name && f.checked))
    .map((f) => f.name + " " + (f.type === "password" ? "" : String(f.value || "").slice(0, 100))).join(" ");
  const formText = (form, submitter) => clean([form.getAttribute("aria-label"), byIds(form, "aria-labelledby"), form.getAttribute("title"),
    "action " + destination(form, (submitter && submitter.getAttribute("formaction")) || form.getAttribute("action")),
    "fields " + fieldsOf(form), submitter && submitter.name ? submitter.name + " " + submitter.value : ""].join(" "));
  const centre = (el, off) => { const r = el.getBoundingClientRect(); return { x: off.x + r.left + r.width / 2, y: off.y + r.top + r.height / 2 }; };
  /** What a control says, every way it says it; unreadable when its visible text is a picture. */
  const describe = (el, via, off) => {
    const t = tag(el);
    const field = t === "input" || t === "select" || t === "textarea";
    const labels = el.labels ? Array.from(el.labels).slice(0, 5).map((l) => shownText(l)).join(" ") : "";
    const value = t === "input" && /^(submit|button|reset|image)$/i.test(el.type)
      ? el.value || (el.type === "reset" ? "Reset" : el.type === "button" ? "" : "Submit") : "";
    const shown = field || t === "form" ? "" : shownText(el);
    const inner = field ? "" : Array.from(el.querySelectorAll("img[alt],[aria-label],[title],svg title")).slice(0, 20)
      .map((n) => tag(n) === "title" ? n.textContent : n.getAttribute("alt") || n.getAttribute("aria-label") || n.getAttribute("title")).join(" ");
    const chosen = t === "select" && el.selectedOptions && el.selectedOptions[0] ? el.selectedOptions[0].text : "";
    const named = [byIds(el, "aria-labelledby"), el.getAttribute("aria-label"), labels, value, el.getAttribute("alt"), shown, chosen, el.getAttribute("title")];
    const extra = [inner, pseudoText(el, "::before"), pseudoText(el, "::after")];
    if (isLink(el)) extra.push("goes to " + destination(el, hrefOf(el)));
    if (t === "form") extra.push(formText(el, null));
    else if (el.form && (isSubmit(el) || /^(checkbox|radio|range)$/i.test(el.type) || t === "select"))
      extra.push("submits the form " + formText(el.form, isSubmit(el) ? el : null));
    if (t === "select") extra.push("options " + Array.from(el.options).slice(0, MAX_OPTIONS).map((o) => o.label || o.text).join(" "));
    const out = { role: roleOf(el), name: short(named.find((s) => clean(s)) || (t === "form" ? formText(el, null) : "")),
      label: short(named.join(" ") + " " + extra.join(" ")), point: centre(el, off) };
    if (via) out.via = via;
    const selfOpaque = OPAQUE.test(t) && out.name;
    if (!field && t !== "form" && !shown && !value && !selfOpaque && pictured(el)) out.unreadable = true;
    return out;
  };
  const pointerStart = (el) => {
    if (styleOf(el).cursor !== "pointer") return false;
    const p = parentOf(el);
    return !p || p.nodeType !== 1 || styleOf(p).cursor !== "pointer";
  };
  /** The element a press on el activates, how it got there, and the links it sits in; null when nothing would. */
  const activatable = (start) => {
    let hit = null;
    const links = [];
    for (let el = start, depth = 0; el && el.nodeType === 1 && depth < MAX_UP; el = parentOf(el), depth++) {
      if (tag(el) === "body" || tag(el) === "html") break;
      if (!hit && tag(el) === "label" && el.control && el.control.matches(ACTIVATABLE)) hit = { el: el.control, via: "its label" };
      else if (!hit && (el.matches(ACTIVATABLE) || pointerStart(el))) hit = { el };
      else if (hit && isLink(el)) links.push(el);
    }
    if (hit) hit.links = links;
    return hit;
  };
  const seeThrough = (el) => {
    if (faint(el)) return true;
    const s = styleOf(el);
    if (alpha(s.backgroundColor) >= 0.1 || s.backgroundImage !== "none" || REPLACED.test(tag(el))) return false;
    for (const n of el.childNodes) if (n.nodeType === 3 && n.textContent.trim()) return false;
    return true;
  };
  /** The <area> of an image map under the point, if the image has one there. */
  const mapArea = (img, x, y) => {
    const name = (img.getAttribute("usemap") || "").replace(/^#/, "");
    if (!name) return null;
    const map = img.ownerDocument.querySelector('map[name="' + CSS.escape(name) + '"]');
    if (!map) return null;
    const r = img.getBoundingClientRect();
    const sx = img.naturalWidth ? r.width / img.naturalWidth : 1, sy = img.naturalHeight ? r.height / img.naturalHeight : 1;
    const px = (x - r.left) / sx, py = (y - r.top) / sy;
    for (const a of Array.from(map.querySelectorAll("area")).slice(0, MAX_FIELDS)) {
      const c = (a.getAttribute("coords") || "").split(/[\s,]+/).filter(Boolean).map(Number);
      const shape = (a.getAttribute("shape") || "rect").toLowerCase();
      if (shape === "default") return a;
      if (shape.startsWith("rect") && c.length >= 4 && px >= Math.min(c[0], c[2]) && px <= Math.max(c[0], c[2]) && py >= Math.min(c[1], c[3]) && py <= Math.max(c[1], c[3])) return a;
      if (shape.startsWith("circ") && c.length >= 3 && Math.hypot(px - c[0], py - c[1]) <= c[2]) return a;
      if (shape.startsWith("poly") && c.length >= 6) {
        let inside = false;
        for (let i = 0, j = c.length - 2; i < c.length; j = i, i += 2)
          if ((c[i + 1] > py) !== (c[j + 1] > py) && px < ((c[j] - c[i]) * (py - c[i + 1])) / (c[j + 1] - c[i + 1]) + c[i]) inside = !inside;
        if (inside) return a;
      }
    }
    return null;
  };
  const locked = (doc, depth) => {
    if (doc.pointerLockElement) return true;
    if (depth < 8) for (const f of doc.querySelectorAll("iframe,frame")) {
      let inner = null;
      try { inner = f.contentDocument; } catch (e) { inner = null; }
      if (inner && locked(inner, depth + 1)) return true;
    }
    return false;
  };
  const unreadable = (control) => ({ ok: false, reason: "the control's visible text is an image or a canvas (" + (control.role) + (control.name ? ' "' + control.name + '"' : "") + "), which the gate cannot read" });
  /**
   * Whether the top element at the point may be a closed shadow root's host with something of its
   * root under the point: an element that can host one, with no open root, and the point on none of
   * its own text. Then the reading needs CDP's hit test (the caller asks again with its node).
   */
  const HOSTS = /^(article|aside|blockquote|body|div|footer|h[1-6]|header|main|nav|p|section|span)$/;
  const mayHideRoot = (el, x, y) => {
    if (el.shadowRoot || !(HOSTS.test(tag(el)) || tag(el).includes("-"))) return false;
    const range = el.ownerDocument.createRange();
    let n = 0;
    for (const c of el.childNodes) {
      if (c.nodeType !== 3 || !c.textContent.trim() || n++ > MAX_FIELDS) continue;
      range.selectNodeContents(c);
      for (const r of range.getClientRects()) if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return false;
    }
    return true;
  };
  const atPoint = (doc, x, y, off, depth) => {
    const stack = doc.elementsFromPoint(x, y).slice(0, MAX_STACK);
    // The hit test's own deepest node, inside shadow roots the document's list stops at.
    if (pierced && stack[0] && pierced !== stack[0] && pierced.nodeType === 1 && holds(stack[0], pierced)) stack[0] = pierced;
    else if (stack[0]) for (let d = 0; d < 8 && stack[0].shadowRoot; d++) {
      const inner = stack[0].shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === stack[0]) break;
      stack[0] = inner;
    }
    if (!pierced && q.pierce !== false && stack[0] && mayHideRoot(stack[0], x, y)) return { ok: true, controls: [], pierce: true };
    const found = [];
    for (let i = 0; i < stack.length; i++) {
      const el = stack[i];
      // Covered: something above it that it does not contain (a press there does not bubble to it) and that hides it.
      if (stack.slice(0, i).some((a) => !holds(el, a) && !seeThrough(a))) continue;
      const direct = i === 0 || holds(el, stack[0]);
      if (tag(el) === "iframe" || tag(el) === "frame") {
        let inner = null;
        try { inner = el.contentDocument; } catch (e) { inner = null; }
        if (!inner || depth > 8) return { ok: false, reason: "the point is inside a cross-origin frame, whose controls cannot be read" };
        const r = el.getBoundingClientRect();
        const s = styleOf(el);
        const dx = r.left + el.clientLeft + parseFloat(s.paddingLeft), dy = r.top + el.clientTop + parseFloat(s.paddingTop);
        const sub = atPoint(inner, x - dx, y - dy, { x: off.x + dx, y: off.y + dy }, depth + 1);
        if (!sub.ok || sub.pierce) return sub;
        found.push(...sub.controls);
        continue;
      }
      // The top element's ancestors are its bubbling path, judged once through its nearest control:
      // a container's delegated onclick would otherwise be judged on the whole page's text.
      if (i > 0 && direct) continue;
      const area = tag(el) === "img" ? mapArea(el, x, y) : null;
      const hit = area ? { el: area, links: [] } : activatable(el);
      const opaque = "the point is on a " + tag(el) + ", whose pixels name no controls";
      if (q.drop && i === 0) {
        // A drop lands on whatever is under the release: judged by what it says, a control or not.
        let zone = el;
        for (let d = 0; zone && d < 6 && !shownText(zone); d++) zone = parentOf(zone);
        if (zone && zone.nodeType === 1 && tag(zone) !== "body" && tag(zone) !== "html") {
          const z = describe(zone, direct ? "the drop zone" : "the drop zone, under a see-through element", off);
          z.role = z.role === "generic" ? "drop zone" : z.role;
          found.push({ el: zone, control: z });
        }
      }
      if (!hit && OPAQUE.test(tag(el))) return { ok: false, reason: opaque };
      if (!hit || (i > 0 && holds(hit.el, stack[0]))) continue;
      const via = [hit.via, direct ? "" : "under a see-through element"].filter(Boolean).join(", ");
      const control = describe(hit.el, via, off);
      // A canvas that handles clicks itself is still only pixels, unless it is given a name.
      if (hit.el === el && OPAQUE.test(tag(el)) && !control.name) return { ok: false, reason: opaque };
      if (control.unreadable) return unreadable(control);
      found.push({ el: hit.el, control });
      for (const link of hit.links || []) found.push({ el: link, control: describe(link, "the link it is in", off) });
    }
    const seen = new Set();
    return { ok: true, controls: found.filter((f) => (seen.has(f.el) ? false : (seen.add(f.el), true))) };
  };
  /** Every element (top document and same-origin frames) whose accesskey list has the key. */
  const accessKeyed = (doc, key, off, depth) => {
    const out = [];
    for (const el of Array.from(doc.querySelectorAll("[accesskey]")).slice(0, MAX_FIELDS)) {
      if (!clean(el.getAttribute("accesskey")).toLowerCase().split(" ").includes(key)) continue;
      out.push(describe(tag(el) === "label" && el.control ? el.control : el, "its access key", off));
    }
    if (depth < 8) for (const f of doc.querySelectorAll("iframe,frame")) {
      let inner = null;
      try { inner = f.contentDocument; } catch (e) { inner = null; }
      const r = f.getBoundingClientRect();
      if (inner) out.push(...accessKeyed(inner, key, { x: off.x + r.left + f.clientLeft, y: off.y + r.top + f.clientTop }, depth + 1));
    }
    return out;
  };
  const withKeys = (answer) => {
    if (!answer.ok || typeof q.accessKey !== "string") return answer;
    const found = accessKeyed(document, q.accessKey.toLowerCase(), { x: 0, y: 0 }, 0);
    if (found.length) answer.focus.accessKeyed = found;
    return answer;
  };
  const NATIVE_FOCUS = /^(a|area|button|input|select|textarea|iframe|frame|summary|object|embed|audio|video)$/;
  /** What an arrow key or type-ahead changes on the focused control: a select's options, a radio group, a range. */
  const choices = (el, off) => {
    const t = tag(el);
    if (t === "select") return [describe(el, "focused; arrows and typing choose another option", off)];
    if (t === "input" && /^range$/i.test(el.type)) return [describe(el, "focused; arrows move it", off)];
    if (t === "input" && /^radio$/i.test(el.type) && el.name) {
      const scope = el.form ? Array.from(el.form.elements) : Array.from(el.getRootNode().querySelectorAll("input[type=radio i]"));
      return scope.filter((r) => tag(r) === "input" && /^radio$/i.test(r.type) && r.name === el.name).slice(0, MAX_OPTIONS)
        .map((r) => describe(r, "its radio group; arrows check another", off));
    }
    const role = roleOf(el);
    if (role === "slider" || role === "radiogroup" || role === "listbox" || role === "combobox" || role === "spinbutton")
      return [describe(el, "focused; arrows change it", off)];
    return [];
  };
  const focus = () => {
    // pierced: the closed shadow root the focus is in (CDP handed it over; its active element is the
    // one), or the active element itself when it has no shadow root (a dialog focused as a whole).
    let el = pierced ? (pierced.nodeType === 11 ? pierced.activeElement : pierced) : document.activeElement;
    const off = { x: 0, y: 0 };
    for (let d = 0; d < 20 && el; d++) {
      if (el.shadowRoot && el.shadowRoot.activeElement) { el = el.shadowRoot.activeElement; continue; }
      if (tag(el) === "iframe" || tag(el) === "frame") {
        let inner = null;
        try { inner = el.contentDocument; } catch (e) { inner = null; }
        if (!inner) return { ok: false, reason: "the focus is inside a cross-origin frame, which cannot be read" };
        const r = el.getBoundingClientRect();
        off.x += r.left + el.clientLeft; off.y += r.top + el.clientTop;
        el = inner.activeElement;
        continue;
      }
      break;
    }
    if (!el || el === el.ownerDocument.body || el === el.ownerDocument.documentElement) return { ok: true, controls: [], focus: { kind: "none" } };
    const t = tag(el);
    // Focus on an element that cannot take it: the focused one is inside its closed shadow root.
    if (!pierced && !NATIVE_FOCUS.test(t) && !el.hasAttribute("tabindex") && !el.isContentEditable)
      return { ok: true, controls: [], focus: { kind: "none" }, hidden: true };
    if (OPAQUE.test(t)) return { ok: true, controls: [], focus: { kind: "opaque" } };
    const kind = t === "input" && TEXT_TYPES.test(el.type) ? "text" : t === "textarea" || el.isContentEditable ? "multiline" : "control";
    const hit = activatable(el);
    const self = describe(hit && kind === "control" ? hit.el : el, "focused", off);
    if (self.unreadable) return unreadable(self);
    const out = { kind, self };
    const changes = choices(el, off);
    if (changes.length) out.choice = changes;
    if (hit && hit.links && hit.links.length) out.links = hit.links.map((l) => describe(l, "the link it is in", off));
    // Enter in a form's input (not a button, not a textarea) submits the form: its default button, else the form.
    const form = el.form || (el.closest && el.closest("form"));
    if (form && (t === "input" || kind === "multiline")) {
      const button = Array.from(form.elements).find(isSubmit);
      out.submit = button ? describe(button, "its form's submit button", off) : describe(form, "its form", off);
    }
    return { ok: true, controls: [], focus: out };
  };
  if (q.kind === "focus") return withKeys(focus());
  if (locked(document, 0)) return { ok: false, reason: "the page holds pointer lock: a click goes to the locked element, whatever is under the pointer" };
  const got = atPoint(document, q.x, q.y, { x: 0, y: 0 }, 0);
  if (got.pierce) return { ok: true, controls: [], pierce: true };
  return got.ok ? { ok: true, controls: got.controls.map((f) => f.control) } : got;
}`;

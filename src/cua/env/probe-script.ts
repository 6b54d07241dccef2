/**
 * The script the confirmation gate runs in the live page (in an isolated world, so the page's own
 * scripts cannot redefine what it calls): what a press at a viewport point would activate, or where
 * the focus is. Plain JS on purpose: it runs in the page, where the project's TS compile has no say.
 *
 * A press reaches the top element at the point and everything it bubbles to; it is judged on the
 * nearest activatable ancestor (button, link, submit/checkbox input, an ARIA control role, a label's
 * control, an element with onclick, the element a `cursor: pointer` starts on). Controls painted
 * under see-through elements (nearly invisible, or with no background and no text of their own) are
 * judged too: an invisible overlay is how a page, or a slip, makes a click on one thing land on
 * another. Same-origin frames are entered; a cross-origin frame or a canvas cannot be read.
 */
export const PROBE_SCRIPT = `(q) => {
  const MAX_TEXT = 300;
  const ACTIVATABLE = "button,a[href],area[href],summary,input[type=submit i],input[type=button i],input[type=image i]," +
    "input[type=reset i],input[type=checkbox i],input[type=radio i],input[type=file i],[role=button i],[role=link i]," +
    "[role=menuitem i],[role=menuitemcheckbox i],[role=menuitemradio i],[role=option i],[role=tab i],[role=checkbox i]," +
    "[role=radio i],[role=switch i],[onclick]";
  const TEXT_TYPES = /^(text|search|email|url|tel|password|number|date|datetime-local|month|week|time)$/i;
  const REPLACED = /^(IMG|SVG|VIDEO|CANVAS|INPUT|BUTTON|SELECT|TEXTAREA|IFRAME|FRAME|OBJECT|EMBED)$/i;
  const OPAQUE = /^(CANVAS|EMBED|OBJECT)$/i;
  const clean = (s) => String(s || "").replace(/\\s+/g, " ").trim();
  const short = (s) => { const t = clean(s); return t.length > MAX_TEXT ? t.slice(0, MAX_TEXT) : t; };
  const parentOf = (el) => el.parentElement || (el.parentNode && el.parentNode.host) || null;
  const styleOf = (el) => el.ownerDocument.defaultView.getComputedStyle(el);
  const holds = (outer, inner) => { for (let e = inner; e; e = parentOf(e)) if (e === outer) return true; return false; };
  const byIds = (el, attr) => clean((el.getAttribute(attr) || "").split(/\\s+/).map((id) => {
    const root = el.getRootNode();
    const t = id && root.getElementById ? root.getElementById(id) : null;
    return t ? t.textContent : "";
  }).join(" "));
  const pathWords = (el, url) => {
    try { return decodeURIComponent(new URL(url || "", el.baseURI).pathname).replace(/[\\/_.~-]+/g, " ").trim(); }
    catch (e) { return ""; }
  };
  const isSubmit = (el) => (el.tagName === "BUTTON" && el.type === "submit") || (el.tagName === "INPUT" && /^(submit|image)$/i.test(el.type));
  const roleOf = (el) => {
    const r = clean(el.getAttribute("role")).split(" ")[0];
    if (r) return r.toLowerCase();
    const t = el.tagName;
    if (t === "A" || t === "AREA") return "link";
    if (t === "BUTTON" || t === "SUMMARY") return "button";
    if (t === "INPUT") {
      const ty = String(el.type).toLowerCase();
      return ty === "checkbox" || ty === "radio" ? ty : /^(submit|button|image|reset|file)$/.test(ty) ? "button" : "textbox";
    }
    if (t === "TEXTAREA") return "textbox";
    if (t === "SELECT") return "combobox";
    if (t === "FORM") return "form";
    return el.isContentEditable ? "textbox" : "generic";
  };
  const formText = (form, submitter) => clean([form.getAttribute("aria-label"), byIds(form, "aria-labelledby"),
    form.getAttribute("title"), "action " + pathWords(form, (submitter && submitter.getAttribute("formaction")) || form.getAttribute("action"))].join(" "));
  const centre = (el, off) => { const r = el.getBoundingClientRect(); return { x: off.x + r.left + r.width / 2, y: off.y + r.top + r.height / 2 }; };
  const describe = (el, via, off) => {
    const t = el.tagName;
    const field = t === "INPUT" || t === "SELECT" || t === "TEXTAREA";
    const labels = el.labels ? Array.from(el.labels).map((l) => l.textContent).join(" ") : "";
    const value = t === "INPUT" && /^(submit|button|reset|image)$/i.test(el.type)
      ? el.value || (el.type === "reset" ? "Reset" : el.type === "button" ? "" : "Submit") : "";
    const text = field ? "" : el.innerText || el.textContent || "";
    const inner = field ? "" : Array.from(el.querySelectorAll("img[alt],[aria-label],[title],svg title")).slice(0, 20)
      .map((n) => n.tagName.toLowerCase() === "title" ? n.textContent : n.getAttribute("alt") || n.getAttribute("aria-label") || n.getAttribute("title")).join(" ");
    const named = [byIds(el, "aria-labelledby"), el.getAttribute("aria-label"), labels, value, el.getAttribute("alt"), text, el.getAttribute("title")];
    const extra = [inner];
    if (t === "A" || t === "AREA") extra.push("goes to " + pathWords(el, el.getAttribute("href")));
    if (t === "FORM") extra.push(formText(el, null));
    else if (el.form && (isSubmit(el) || (/^(checkbox|radio)$/i.test(el.type) && (el.hasAttribute("onchange") || el.hasAttribute("oninput") || el.form.hasAttribute("onchange")))))
      extra.push("submits the form " + formText(el.form, el));
    const out = { role: roleOf(el), name: short(named.find((s) => clean(s)) || (t === "FORM" ? formText(el, null) : "")),
      label: short(named.join(" ") + " " + extra.join(" ")), point: centre(el, off) };
    if (via) out.via = via;
    return out;
  };
  const pointerStart = (el) => {
    if (styleOf(el).cursor !== "pointer") return false;
    const p = parentOf(el);
    return !p || p.nodeType !== 1 || styleOf(p).cursor !== "pointer";
  };
  /** The element a press on el activates, and how it got there; null when nothing would. */
  const activatable = (start) => {
    for (let el = start, depth = 0; el && el.nodeType === 1 && depth < 80; el = parentOf(el), depth++) {
      if (el.tagName === "LABEL" && el.control && el.control.matches(ACTIVATABLE)) return { el: el.control, via: "its label" };
      if (el.matches(ACTIVATABLE)) return { el };
      if (el.tagName === "BODY" || el.tagName === "HTML") return null;
      if (pointerStart(el)) return { el };
    }
    return null;
  };
  const opacity = (el) => { let o = 1; for (let e = el; e && e.nodeType === 1; e = parentOf(e)) o *= Number(styleOf(e).opacity); return o; };
  const alpha = (colour) => {
    const m = /rgba?\\(([^)]*)\\)/.exec(colour);
    if (!m) return colour === "transparent" ? 0 : 1;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean);
    return p.length >= 4 ? parseFloat(p[3]) : 1;
  };
  const seeThrough = (el) => {
    if (opacity(el) < 0.1) return true;
    const s = styleOf(el);
    if (alpha(s.backgroundColor) >= 0.1 || s.backgroundImage !== "none" || REPLACED.test(el.tagName)) return false;
    for (const n of el.childNodes) if (n.nodeType === 3 && n.textContent.trim()) return false;
    return true;
  };
  const atPoint = (doc, x, y, off, depth) => {
    const stack = doc.elementsFromPoint(x, y);
    const found = [];
    for (let i = 0; i < stack.length; i++) {
      const el = stack[i];
      // Covered: something above it that it does not contain (a press there does not bubble to it) and that hides it.
      if (stack.slice(0, i).some((a) => !holds(el, a) && !seeThrough(a))) continue;
      const direct = i === 0 || holds(el, stack[0]);
      if (el.tagName === "IFRAME" || el.tagName === "FRAME") {
        let inner = null;
        try { inner = el.contentDocument; } catch (e) { inner = null; }
        if (!inner || depth > 8) return { ok: false, reason: "the point is inside a cross-origin frame, whose controls cannot be read" };
        const r = el.getBoundingClientRect();
        const s = styleOf(el);
        const dx = r.left + el.clientLeft + parseFloat(s.paddingLeft), dy = r.top + el.clientTop + parseFloat(s.paddingTop);
        const sub = atPoint(inner, x - dx, y - dy, { x: off.x + dx, y: off.y + dy }, depth + 1);
        if (!sub.ok) return sub;
        found.push(...sub.controls);
        continue;
      }
      // The top element's ancestors are its bubbling path, judged once through its nearest control:
      // a container's delegated onclick would otherwise be judged on the whole page's text.
      if (i > 0 && direct) continue;
      const hit = activatable(el);
      const opaque = "the point is on a " + el.tagName.toLowerCase() + ", whose pixels name no controls";
      if (!hit && OPAQUE.test(el.tagName)) return { ok: false, reason: opaque };
      if (!hit || (i > 0 && holds(hit.el, stack[0]))) continue;
      const via = [hit.via, direct ? "" : "under a see-through element"].filter(Boolean).join(", ");
      const control = describe(hit.el, via, off);
      // A canvas that handles clicks itself is still only pixels, unless it is given a name.
      if (hit.el === el && OPAQUE.test(el.tagName) && !control.name) return { ok: false, reason: opaque };
      found.push({ el: hit.el, control });
    }
    const seen = new Set();
    return { ok: true, controls: found.filter((f) => (seen.has(f.el) ? false : (seen.add(f.el), true))) };
  };
  /** Every element (top document and same-origin frames) whose accesskey list has the key. */
  const accessKeyed = (doc, key, off, depth) => {
    const out = [];
    for (const el of doc.querySelectorAll("[accesskey]")) {
      if (!clean(el.getAttribute("accesskey")).toLowerCase().split(" ").includes(key)) continue;
      out.push(describe(el.tagName === "LABEL" && el.control ? el.control : el, "its access key", off));
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
  const focus = () => {
    let el = document.activeElement;
    const off = { x: 0, y: 0 };
    for (let d = 0; d < 20 && el; d++) {
      if (el.shadowRoot && el.shadowRoot.activeElement) { el = el.shadowRoot.activeElement; continue; }
      if (el.tagName === "IFRAME" || el.tagName === "FRAME") {
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
    if (OPAQUE.test(el.tagName)) return { ok: true, controls: [], focus: { kind: "opaque" } };
    const t = el.tagName;
    const kind = t === "INPUT" && TEXT_TYPES.test(el.type) ? "text" : t === "TEXTAREA" || el.isContentEditable ? "multiline" : "control";
    const hit = activatable(el);
    const out = { kind, self: describe(hit && kind === "control" ? hit.el : el, "focused", off) };
    // Enter in a form's input (not a button, not a textarea) submits the form: its default button, else the form.
    const form = el.form || (el.closest && el.closest("form"));
    if (form && (t === "INPUT" || kind === "multiline")) {
      const button = Array.from(form.elements).find(isSubmit);
      out.submit = button ? describe(button, "its form's submit button", off) : describe(form, "its form", off);
    }
    return { ok: true, controls: [], focus: out };
  };
  if (q.kind === "focus") return withKeys(focus());
  const got = atPoint(document, q.x, q.y, { x: 0, y: 0 }, 0);
  return got.ok ? { ok: true, controls: got.controls.map((f) => f.control) } : got;
}`;

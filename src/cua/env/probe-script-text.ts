/**
 * The confirmation gate's reading of what a control shows, as a person sees it: a fragment of the
 * page script (./probe-script.ts splices it in, inside the same function), so it shares that script's
 * helpers — clean, short, tag, parentOf, styleOf — and its bounds (MAX_UP, MAX_NODES) and IMAGERY.
 * Laid-out text only, in drawn order, with ::before/::after content, without what is too small,
 * transparent or faint; a picture the size of words makes the control unreadable.
 */
export const SHOWN_TEXT_SCRIPT = String.raw`
  /** The text of a ::before or ::after box: its quoted strings and attr() values. */
  const pseudoText = (el, which) => {
    const c = el.ownerDocument.defaultView.getComputedStyle(el, which).content;
    if (!c || c === "none" || c === "normal") return "";
    const out = [];
    const re = /"((?:[^"\\]|\\.)*)"|attr\(\s*([^)\s]+)\s*\)/g;
    for (let m = re.exec(c); m; m = re.exec(c)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : el.getAttribute(m[2]) || "");
    return out.join("");
  };
  const faint = (el) => { let o = 1; for (let e = el, d = 0; e && e.nodeType === 1 && d < MAX_UP; e = parentOf(e), d++) { o *= Number(styleOf(e).opacity); if (o < 0.1) return true; } return false; };
  const alpha = (colour) => {
    const m = /rgba?\(([^)]*)\)/.exec(colour);
    if (!m) return colour === "transparent" ? 0 : 1;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean);
    return p.length >= 4 ? parseFloat(p[3]) : 1;
  };
  /**
   * The text a person sees in el: laid-out text nodes and pseudo-element content, without what is
   * too small (font-size under 2px), transparent, faint or outside el's box, in the order it is drawn
   * (top to bottom by line, then left to right); pieces that touch are joined without a space.
   */
  const shownText = (root) => {
    // Text outside the control's box is not its text; a box with no area (a link around an absolutely
    // placed button) clips nothing but the screen.
    const r0 = root.getBoundingClientRect();
    const view = root.ownerDocument.defaultView;
    const box = r0.width * r0.height > 0 ? r0 : { left: 0, top: 0, right: view.innerWidth, bottom: view.innerHeight };
    const parts = [];
    let budget = MAX_NODES;
    const range = root.ownerDocument.createRange();
    const add = (text, r) => {
      if (!clean(text) || r.width < 1 || r.height < 1) return;
      if (r.right < box.left - 1 || r.left > box.right + 1 || r.bottom < box.top - 1 || r.top > box.bottom + 1) return;
      parts.push({ text, top: r.top, bottom: r.bottom, left: r.left, right: r.right });
    };
    const walk = (node) => {
      if (budget-- <= 0) return;
      if (node.nodeType === 3) {
        const el = node.parentElement;
        if (!el || alpha(styleOf(el).color) < 0.1) return;
        range.selectNodeContents(node);
        add(node.textContent, range.getBoundingClientRect());
        return;
      }
      if (node.nodeType !== 1 && node.nodeType !== 11) return;
      if (node.nodeType === 1) {
        const s = styleOf(node);
        if (s.display === "none" || s.visibility === "hidden" || parseFloat(s.fontSize) < 2 || faint(node)) return;
        if (tag(node) === "slot") { for (const n of node.assignedNodes({ flatten: true })) walk(n); return; }
        const r = node.getBoundingClientRect();
        const before = pseudoText(node, "::before");
        if (before && alpha(s.color) >= 0.1) add(before, { top: r.top, bottom: r.bottom, left: r.left - 0.5, right: r.left, width: 1, height: r.height });
        const kids = node.shadowRoot ? node.shadowRoot.childNodes : node.childNodes;
        for (const n of kids) walk(n);
        const after = pseudoText(node, "::after");
        if (after && alpha(s.color) >= 0.1) add(after, { top: r.top, bottom: r.bottom, left: r.right, right: r.right + 0.5, width: 1, height: r.height });
        return;
      }
      for (const n of node.childNodes) walk(n);
    };
    walk(root);
    // Lines: pieces that overlap vertically share one; within it, left to right.
    parts.sort((a, b) => (a.bottom <= b.top ? -1 : b.bottom <= a.top ? 1 : a.left - b.left));
    let out = "";
    let prev = null;
    for (const p of parts) {
      const sameLine = prev && !(prev.bottom <= p.top || p.bottom <= prev.top);
      out += prev ? (sameLine && p.left - prev.right < 1 ? "" : " ") + p.text : p.text;
      prev = p;
    }
    return short(out);
  };
  /**
   * Its visible content is a picture that could hold words: an image, a canvas, an SVG or a
   * background image at least 40 px wide and twice as wide as tall (a line of text), or 64 px both
   * ways. A smaller picture is an icon (a close "x", a trash can): judged by the control's name.
   */
  const wordsSized = (r) => (r.width >= 40 && r.width >= 2 * r.height) || (r.width >= 64 && r.height >= 64);
  const pictured = (el) => {
    if ((el.matches(IMAGERY) || styleOf(el).backgroundImage !== "none") && wordsSized(el.getBoundingClientRect())) return true;
    const inner = el.querySelectorAll("*");
    for (let i = 0; i < inner.length && i < MAX_NODES; i++) {
      const n = inner[i];
      if ((n.matches(IMAGERY) || styleOf(n).backgroundImage !== "none") && wordsSized(n.getBoundingClientRect())) return true;
    }
    return false;
  };
`;

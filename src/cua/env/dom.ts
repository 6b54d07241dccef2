/**
 * The cleaned-DOM observation: the page's markup without scripts, styles and hidden parts, keeping
 * text and the attributes a user acts on, within a character budget. Runs inside the page (one
 * evaluate), since walking the DOM over CDP costs a round trip per node.
 */

/** Default character budget: a few thousand tokens, the price of one screenshot or two. */
export const DEFAULT_DOM_BUDGET = 6000;

/** Something that can run a script in the page and return its JSON value (a Playwright Page). */
export interface PageEvaluator {
  evaluate<T>(script: string): Promise<T>;
}

// Plain JS on purpose: it runs in the page, where the project's TS compile has no say.
const CLEAN_DOM_SCRIPT = `(() => {
  const SKIP = new Set(["SCRIPT","STYLE","NOSCRIPT","TEMPLATE","HEAD","META","LINK","SVG","CANVAS","IFRAME","OBJECT"]);
  const KEEP = ["id","name","type","value","placeholder","href","role","aria-label","aria-expanded","aria-checked",
    "aria-selected","aria-disabled","title","alt","for","disabled","checked","selected","readonly","required"];
  const INLINE = new Set(["A","BUTTON","LABEL","SPAN","B","I","EM","STRONG","CODE","SMALL","INPUT","SELECT","OPTION","TEXTAREA","IMG"]);
  const out = [];
  const hidden = (el) => {
    if (el.hidden || el.getAttribute("aria-hidden") === "true") return true;
    const s = getComputedStyle(el);
    return s.display === "none" || s.visibility === "hidden" || (el.getClientRects().length === 0 && s.display !== "contents");
  };
  const attrs = (el) => {
    let a = "";
    for (const k of KEEP) {
      let v = k === "value" && "value" in el && el.tagName !== "BUTTON" ? el.value : el.getAttribute(k);
      if (k === "checked" && "checked" in el) v = el.checked ? "" : null;
      if (k === "disabled" && "disabled" in el) v = el.disabled ? "" : null;
      if (v === null || v === undefined || (k === "value" && v === "")) continue;
      v = String(v).replace(/\\s+/g, " ").slice(0, 80);
      a += v === "" ? " " + k : " " + k + '="' + v.replace(/"/g, "&quot;") + '"';
    }
    return a;
  };
  const walk = (node) => {
    if (node.nodeType === 3) {
      // Keep one space at the edges so "Some <em>text</em> here" stays readable.
      const t = node.textContent.replace(/\\s+/g, " ");
      if (t.trim()) out.push(t);
      return;
    }
    if (node.nodeType !== 1 || SKIP.has(node.tagName) || hidden(node)) return;
    const tag = node.tagName.toLowerCase();
    const a = attrs(node);
    const keepTag = a !== "" || INLINE.has(node.tagName) || /^(H[1-6]|FORM|SELECT|TEXTAREA|LI|TABLE|TR|TD|TH|DIALOG)$/.test(node.tagName);
    const block = !INLINE.has(node.tagName);
    if (block) out.push("\\n");
    if (keepTag) out.push("<" + tag + a + ">");
    if (node.tagName === "SELECT") {
      for (const o of node.options) out.push("<option" + (o.selected ? " selected" : "") + ">" + o.text.trim() + "</option>");
    } else {
      for (const child of node.childNodes) walk(child);
      if (node.shadowRoot) for (const child of node.shadowRoot.childNodes) walk(child);
    }
    if (keepTag && !/^(input|img)$/.test(tag)) out.push("</" + tag + ">");
    if (block) out.push("\\n");
  };
  if (document.body) walk(document.body);
  return out.join("").replace(/[ \\t]*\\n\\s*/g, "\\n").replace(/ {2,}/g, " ").trim();
})()`;

/** The page's cleaned DOM, cut to `budget` characters with a marker saying how much was cut. */
export async function cleanDom(page: PageEvaluator, budget = DEFAULT_DOM_BUDGET): Promise<string> {
  const text = await page.evaluate<string>(CLEAN_DOM_SCRIPT);
  return truncateText(text, budget);
}

export function truncateText(text: string, budget: number): string {
  if (text.length <= budget) return text;
  return `${text.slice(0, budget)}\n[+${text.length - budget} chars cut]`;
}

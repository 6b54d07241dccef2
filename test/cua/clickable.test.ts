/**
 * Elements only a page's script makes controls (a <span> with a click handler, shown by its pointer
 * cursor) are in the element list as "clickable", named by their text: MiniWoB's click-link page is
 * made of such spans, and without them an a11y observation of it listed nothing at all. One element
 * per pointer region, and never one that holds or sits inside a real control.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserEnvironment } from "../../src/cua/env/browser.js";
import { type ServedPages, serveHtml } from "../../src/testing/page-server.js";

const PAGE = `<!doctype html><body style="margin:0;font:16px sans-serif">
<style>.alink{cursor:pointer;color:blue;text-decoration:underline}</style>
<p style="position:absolute;left:10px;top:10px;margin:0">Lorem <span class="alink" id="r">Rutrum</span> ipsum
  <span class="alink">egestas <b>nisl</b></span>.</p>
<div style="position:absolute;left:10px;top:60px;cursor:pointer" id="card">Open the card <span style="cursor:pointer">now</span></div>
<div style="position:absolute;left:10px;top:110px;cursor:pointer"><button>Real button</button></div>
<a href="#x" style="position:absolute;left:10px;top:160px"><span>Inside a link</span></a>
<div style="position:absolute;left:10px;top:210px"><label for="c" style="cursor:pointer">Remember me</label><input type="checkbox" id="c"></div>
<span class="alink" style="display:none">Hidden</span>
<ul style="position:absolute;left:10px;top:260px;margin:0"><li style="cursor:pointer">Ashlea<ul style="display:none"><li>Nieves</li></ul></li></ul>
<ul style="position:absolute;left:10px;top:300px;margin:0;cursor:default"><li style="cursor:pointer"><span>Jess</span><ul><li id="tula">Tula</li><li>Marcella</li></ul></li></ul>
<script>
document.querySelector("#r").addEventListener("click", () => { document.title = "rutrum clicked"; });
document.querySelector("#tula").addEventListener("click", (e) => { e.stopPropagation(); document.title = "tula clicked"; });
</script>
</body>`;

let site: ServedPages;
beforeAll(async () => {
  site = await serveHtml(PAGE);
});
afterAll(() => site.close());

describe("elements a script makes clickable", () => {
  it("lists each pointer-cursor region once, by its text, and a click at its centre reaches it", async () => {
    const env = new BrowserEnvironment();
    try {
      await env.reset({ url: site.url });
      const elements = (await env.capture("a11y")).elements ?? [];
      expect(elements.map((e) => [e.role, e.name])).toEqual([
        ["clickable", "Rutrum"],
        ["clickable", "egestas nisl"],
        // The card's inner span keeps its parent's cursor: one region, one element.
        ["clickable", "Open the card now"],
        // A pointer region around a real control is that control's; a link's text is the link's.
        ["button", "Real button"],
        ["link", "Inside a link"],
        // A label's click is its control's: the checkbox is listed, by the label's text.
        ["checkbox", "Remember me"],
        // A collapsed folder (MiniWoB's navigate-tree) is named by what shows, not its hidden children.
        ["clickable", "Ashlea"],
        // An open folder: itself at its name, and each item it holds as a control of its own.
        ["clickable", "Jess"],
        ["clickable", "Tula"],
        ["clickable", "Marcella"],
      ]);
      const rutrum = elements[0]!;
      await env.act({
        kind: "click",
        x: rutrum.box.x + rutrum.box.width / 2,
        y: rutrum.box.y + rutrum.box.height / 2,
      });
      expect(await env.evaluate("document.title")).toBe("rutrum clicked");
      const jess = elements.find((e) => e.name === "Jess")!;
      const tula = elements.find((e) => e.name === "Tula")!;
      // The folder's centre is on its own name, above the items it holds.
      expect(jess.box.y + jess.box.height).toBeLessThanOrEqual(tula.box.y);
      await env.act({
        kind: "click",
        x: tula.box.x + tula.box.width / 2,
        y: tula.box.y + tula.box.height / 2,
      });
      expect(await env.evaluate("document.title")).toBe("tula clicked");
    } finally {
      await env.close();
    }
  });
});

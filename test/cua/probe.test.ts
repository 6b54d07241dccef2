import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserEnvironment } from "../../src/cua/env/browser.js";
import type { Probe } from "../../src/cua/types.js";

/*
 * The gate's live reading against a real Chromium: what a press at a point activates, and where the
 * focus is, on a page with the ways a click lands on something other than what it seems to.
 */
const PAGE = `<!doctype html><meta charset="utf-8"><style>body{margin:0;font:16px sans-serif}.a{position:absolute}</style><body>
<form method="post" action="/account/delete">
  <button id="del" class="a" style="left:20px;top:20px;width:220px;height:40px"><span id="icon" style="display:inline-block;width:20px;height:20px;background:#c00"></span> Delete account</button>
  <input type="checkbox" id="wipe" class="a" style="left:20px;top:100px" onchange="this.form.requestSubmit()">
  <label for="wipe" id="wipe-label" class="a" style="left:300px;top:100px">Delete my files</label>
</form>
<button id="close" class="a" style="left:20px;top:200px;width:200px;height:40px">Close account</button>
<div id="overlay" class="a" style="left:0;top:180px;width:400px;height:80px"></div>
<button id="hidden" class="a" style="left:20px;top:300px;width:200px;height:40px">Delete forever</button>
<div id="cover" class="a" style="left:0;top:290px;width:400px;height:60px;background:#fff"></div>
<iframe id="same" class="a" style="left:450px;top:20px;width:300px;height:150px;border:0" srcdoc="<button id=in style='width:200px;height:40px'>Delete it</button>"></iframe>
<iframe id="cross" class="a" style="left:450px;top:300px;width:300px;height:100px"></iframe>
<canvas id="canvas" class="a" style="left:20px;top:400px;cursor:pointer" width="200" height="80" onclick="void 0"></canvas>
<button id="save" class="a" style="left:300px;top:420px">Save</button>
<div id="row" class="a" style="left:300px;top:480px;cursor:pointer"><span id="row-text">Delete row</span></div>
<button id="x" class="a" aria-label="Close" style="left:600px;top:480px;width:24px;height:24px;padding:0"><span style="display:block;width:16px;height:16px;background-image:linear-gradient(#000,#fff)"></span></button>
<button id="banner" class="a" aria-label="Save" style="left:600px;top:530px;width:200px;height:40px;padding:0"><span style="display:block;width:200px;height:40px;background-image:linear-gradient(#000,#fff)"></span></button>
<form method="post" action="/account/delete" class="a" style="left:20px;top:520px">
  <input id="reason" aria-label="Reason"><textarea id="note" aria-label="Note"></textarea><button>Confirm</button>
</form>
<div id="host" class="a" style="left:20px;top:600px;width:200px;height:30px">Save</div>
<script>
  // A closed root on a plain div whose own (unslotted, so unshown) text says "Save".
  document.getElementById("host").attachShadow({ mode: "closed" }).innerHTML =
    '<button style="width:200px;height:30px">Delete it</button>';
  document.getElementById("cross").src = CROSS_URL;
  // A page cannot change what the gate reads: it runs in its own JavaScript world.
  Document.prototype.elementsFromPoint = function () { return []; };
</script>
</body>`;

let app: Server;
let other: Server;
let appUrl = "";
let otherUrl = "";
const env = new BrowserEnvironment({ screen: { width: 800, height: 640 } });

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  other = createServer((_req, res) => res.end("<button>Delete elsewhere</button>"));
  otherUrl = await listen(other);
  app = createServer((_req, res) => {
    res.setHeader("content-type", "text/html");
    res.end(PAGE.replace("CROSS_URL", JSON.stringify(`${otherUrl}/frame`)));
  });
  appUrl = await listen(app);
  await env.reset({ url: `${appUrl}/`, allowHosts: [new URL(appUrl).host, new URL(otherUrl).host] });
  // The cross-origin frame has loaded once its document is no longer ours to read (about:blank is).
  await env.evaluate(`new Promise((r) => {
    const f = document.getElementById("cross");
    const t = setInterval(() => { if (!f.contentDocument) { clearInterval(t); r(); } }, 20);
  })`);
});

afterAll(async () => {
  await env.close();
  app.close();
  other.close();
});

/** The centre of an element of the top page (or, with `frame`, of a same-origin frame's element). */
async function centreOf(id: string, frame?: string): Promise<{ x: number; y: number }> {
  return env.evaluate(`(() => {
    const f = ${frame ? `document.getElementById(${JSON.stringify(frame)})` : "null"};
    const el = (f ? f.contentDocument : document).getElementById(${JSON.stringify(id)});
    const r = el.getBoundingClientRect(), o = f ? f.getBoundingClientRect() : { left: 0, top: 0 };
    return { x: Math.round(o.left + r.left + r.width / 2), y: Math.round(o.top + r.top + r.height / 2) };
  })()`);
}

async function at(id: string, frame?: string): Promise<Probe> {
  return env.probe({ kind: "point", ...(await centreOf(id, frame)) });
}

const names = (p: Probe) =>
  p.ok ? p.controls.map((c) => `${c.role} "${c.name}"${c.via ? ` (${c.via})` : ""}`) : p;

describe("probe: what a press at a point activates", () => {
  it("walks from an icon inside a button up to the button, with its form's action as a label", async () => {
    const probe = await at("icon");
    expect(names(probe)).toEqual(['button "Delete account"']);
    expect(probe.ok && probe.controls[0]?.label).toMatch(/submits the form action account delete/);
  });

  it("takes a label to its control, and a control under a see-through overlay", async () => {
    expect(names(await at("wipe-label"))).toEqual(['checkbox "Delete my files" (its label)']);
    expect(names(await at("close"))).toEqual(['button "Close account" (under a see-through element)']);
  });

  it("does not judge what an opaque element hides, and judges a plain control by its own name", async () => {
    expect(names(await at("hidden"))).toEqual([]);
    expect(names(await at("save"))).toEqual(['button "Save"']);
    expect(names(await at("row-text"))).toEqual(['generic "Delete row"']);
  });

  it("judges an icon by the control's name, and refuses to read a picture the size of words", async () => {
    expect(names(await at("x"))).toEqual(['button "Close"']);
    expect(await at("banner")).toEqual({
      ok: false,
      reason: `the control's visible text is an image or a canvas (button "Save"), which the gate cannot read`,
    });
  });

  it("enters a closed shadow root on a plain div, whose own text is not what is shown", async () => {
    expect(names(await at("host"))).toEqual(['button "Delete it"']);
  });

  it("judges what lies under a drop, control or not", async () => {
    const point = await centreOf("row-text");
    expect(names(await env.probe({ kind: "point", ...point, drop: true }))).toEqual([
      'drop zone "Delete row" (the drop zone)',
      'generic "Delete row"',
    ]);
  });

  it("reads into a same-origin frame, with the control's point on the screen", async () => {
    const probe = await at("in", "same");
    expect(names(probe)).toEqual(['button "Delete it"']);
    expect(probe.ok && probe.controls[0]?.point).toEqual(await centreOf("in", "same"));
  });

  it("cannot read a cross-origin frame or a canvas, and says so", async () => {
    expect(await at("cross")).toEqual({
      ok: false,
      reason: "the point is inside a cross-origin frame, whose controls cannot be read",
    });
    expect(await at("canvas")).toEqual({
      ok: false,
      reason: "the point is on a canvas, whose pixels name no controls",
    });
  });
});

describe("probe: where the focus is", () => {
  const focus = async (js: string) => {
    await env.evaluate(js);
    const probe = await env.probe({ kind: "focus" });
    if (!probe.ok) throw new Error(probe.reason);
    return probe.focus;
  };

  it("names the page itself, a focused button, and a field with the form Enter would submit", async () => {
    expect(await focus("document.activeElement && document.activeElement.blur()")).toEqual({ kind: "none" });
    expect(await focus(`document.getElementById("del").focus()`)).toMatchObject({
      kind: "control",
      self: { role: "button", name: "Delete account", via: "focused" },
    });
    expect(await focus(`document.getElementById("reason").focus()`)).toMatchObject({
      kind: "text",
      self: { role: "textbox", name: "Reason" },
      submit: { role: "button", name: "Confirm", label: expect.stringMatching(/action account delete/) },
    });
    expect(await focus(`document.getElementById("note").focus()`)).toMatchObject({ kind: "multiline" });
  });

  it("follows the focus into a same-origin frame and stops at a cross-origin one", async () => {
    expect(
      await focus(`document.getElementById("same").contentDocument.getElementById("in").focus()`),
    ).toMatchObject({ kind: "control", self: { name: "Delete it" } });
    await env.evaluate(`document.getElementById("cross").focus()`);
    expect(await env.probe({ kind: "focus" })).toEqual({
      ok: false,
      reason: "the focus is inside a cross-origin frame, which cannot be read",
    });
  });
});

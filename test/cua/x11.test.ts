import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { boxCentre } from "../../src/cua/env/serialize.js";
import { X11Environment } from "../../src/cua/env/x11.js";
import { pngSize } from "../../src/cua/image.js";
import type { UiElement } from "../../src/cua/types.js";
import { needingAll } from "../../src/testing/needs.js";
import { EVENTUALLY } from "../../src/testing/time.js";

const PAGE = `<!doctype html><html><body style="margin:0;font:18px sans-serif">
<h1 id="status">idle</h1>
<button id="go" style="font-size:24px" onclick="document.getElementById('status').textContent='clicked'">Press me</button>
<input id="name" aria-label="Your name" onkeydown="if(event.key==='Enter')document.getElementById('status').textContent='entered '+this.value">
<div style="height:3000px"></div><button>Far below</button>
</body></html>`;

/** One pixel's RGB. */
async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data } = await sharp(png)
    .extract({ left: Math.round(x), top: Math.round(y), width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [...data.subarray(0, 3)];
}

/** Live processes (state not Z) whose process group is one of `groups`, read from /proc. */
function liveMembers(groups: number[]): string[] {
  const out: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let stat = "";
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // exited while we looked
    }
    // Fields after the ")" closing the command name: state, ppid, pgrp, …
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (state !== "Z" && groups.includes(Number(pgrp))) out.push(`${pid} ${stat.slice(0, 60)}`);
  }
  return out;
}

const missingX = ["/usr/bin/Xvfb", "/usr/bin/xdotool", "/usr/bin/matchbox-window-manager"].filter(
  (p) => !existsSync(p),
);
const named = (els: UiElement[] | undefined, name: string) => {
  const el = els?.find((e) => e.name === name);
  if (!el) throw new Error(`no element named ${name} in ${JSON.stringify(els?.map((e) => e.name))}`);
  return el;
};

// Skipped where Xvfb, xdotool, matchbox or chromium are not installed (scripts/bootstrap.sh installs them).
needingAll([
  ["chromium", !existsSync("/usr/bin/chromium") && "/usr/bin/chromium is missing"],
  ["xvfb", missingX.length > 0 && `${missingX.join(", ")} missing`],
]).describe("X11Environment (Xvfb + matchbox + xdotool)", () => {
  const screen = { width: 1024, height: 640 };
  const env = new X11Environment({ screen });
  let server: Server;
  let url = "";

  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(PAGE));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    await env.close();
    await new Promise((r) => server.close(r));
  });

  it("starts a desktop with Chromium in kiosk mode and screenshots the root window", async () => {
    await env.reset({ url });
    const cap = await env.capture("a11y");
    expect(pngSize(cap.png)).toEqual(screen);
    // Kiosk fills the screen, so the page's own boxes are screen boxes.
    const go = named(cap.elements, "Press me");
    expect(go.role).toBe("button");
    // The button's pixels are on the screenshot where its box says: not the page's white background.
    // The page is in the DOM (its elements are listed) before Chromium has painted it to the X screen,
    // so look until the paint lands rather than at the first frame only.
    const at = { x: go.box.x + 3, y: go.box.y + go.box.height / 2 };
    await expect
      .poll(async () => pixel((await env.capture("screenshot")).png, at.x, at.y), EVENTUALLY)
      .not.toEqual([255, 255, 255]);
  });

  it("xdotool clicks, types and presses keys into the application", async () => {
    const cap = await env.capture("a11y");
    await env.act({ kind: "click", ...boxCentre(named(cap.elements, "Press me")) });
    await expect
      .poll(() => env.evaluate<string>("document.getElementById('status').textContent"), EVENTUALLY)
      .toBe("clicked");
    await env.act({ kind: "click", ...boxCentre(named(cap.elements, "Your name")) });
    await env.act({ kind: "type", text: "Grace Hopper" });
    await env.act({ kind: "key", keys: "Enter" });
    await expect
      .poll(() => env.evaluate<string>("document.getElementById('status').textContent"), EVENTUALLY)
      .toBe("entered Grace Hopper");
  });

  it("reads the live page for the confirmation gate over CDP, at screen coordinates", async () => {
    const cap = await env.capture("a11y");
    const go = named(cap.elements, "Press me");
    const probe = await env.probe({ kind: "point", ...boxCentre(go) });
    expect(probe).toMatchObject({ ok: true, controls: [{ role: "button", name: "Press me" }] });
    // The control's point is on the screen, where the accessibility tree boxes it.
    const point = probe.ok ? probe.controls[0]?.point : undefined;
    expect(Math.abs((point?.x ?? 0) - boxCentre(go).x)).toBeLessThanOrEqual(1);
    await env.act({ kind: "click", ...boxCentre(named(cap.elements, "Your name")) });
    await expect
      .poll(async () => {
        const focus = await env.probe({ kind: "focus" });
        return focus.ok ? focus.focus?.kind : focus.reason;
      }, EVENTUALLY)
      .toBe("text");
  });

  it("scrolls with the wheel and draws marks", async () => {
    await env.act({ kind: "scroll", x: 500, y: 300, dx: 0, dy: 600 });
    await expect.poll(() => env.evaluate<number>("scrollY"), EVENTUALLY).toBeGreaterThanOrEqual(300);
    const som = await env.capture("som");
    expect(pngSize(som.png)).toEqual(screen);
  });

  it("runs a plain X program: screenshots work, element observations say why they cannot", async () => {
    await env.reset({ command: ["xcalc"] });
    // xcalc's window is on screen: the frame is not one flat colour. (reset waits for the first paint,
    // but only so long: on a busy machine it may land a little later.)
    const contrast = async () => {
      const { channels } = await sharp((await env.capture("screenshot")).png).stats();
      return channels[0]!.max - channels[0]!.min;
    };
    await expect.poll(contrast, EVENTUALLY).toBeGreaterThan(50);
    await expect(env.capture("a11y")).rejects.toThrow(/only the built-in Chromium/);
    // No page to read: the gate falls back to what captures show (nothing), as for clicks today.
    await expect(env.probe({ kind: "focus" })).rejects.toThrow(/only the built-in Chromium/);
    await env.act({ kind: "click", x: 20, y: 20 });
  });

  it("close leaves no Xvfb, window manager or application process behind", async () => {
    await env.reset({ url });
    const groups = env.processGroups;
    expect(groups).toHaveLength(2); // Xvfb, matchbox; Chromium is Playwright's, in its box
    const browser = env.browserPid;
    expect(browser).toBeGreaterThan(0);
    await env.close();
    expect(
      existsSync(`/proc/${browser}/cmdline`) && readFileSync(`/proc/${browser}/cmdline`, "utf8"),
    ).toBeFalsy();
    // Killed children are re-parented to PID 1 and linger as zombies until it reaps them: only live
    // (non-zombie) members of our groups count.
    const alive = liveMembers(groups);
    expect(alive).toEqual([]);
    expect(env.processGroups).toEqual([]);
  });
});

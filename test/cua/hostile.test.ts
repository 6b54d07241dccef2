/**
 * Hostile pages on 127.0.0.1: each ends its episode cleanly with `page_misbehaved` (the kind in the
 * detail), or is contained without ending it, and the browser — the host — stays usable afterwards.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ELEMENTS } from "../../src/cua/env/a11y.js";
import { BrowserEnvironment } from "../../src/cua/env/browser.js";
import { safeFileName } from "../../src/cua/env/page-downloads.js";
import { MAX_OFFSCREEN } from "../../src/cua/env/serialize.js";
import { pngSize } from "../../src/cua/image.js";
import { runCuaEpisode } from "../../src/cua/loop.js";
import { ScriptedCuaPolicy, type ScriptedCuaStep } from "../../src/cua/scripted.js";
import { PageHazardError as HazardError, type PageHazardError } from "../../src/cua/types.js";

const BUTTON = (label: string, onclick: string) =>
  `<button onclick='${onclick}' style="width:300px;height:80px;font-size:24px">${label}</button>`;
const PAGES: Record<string, string> = {
  "/ok": `<!doctype html><body><h1>Fine</h1>${BUTTON("Ask once", 'document.title = String(confirm("Sure?"))')}</body>`,
  "/alerts": `<!doctype html><body>${BUTTON("Nag", 'for (;;) alert("again")')}</body>`,
  "/popups": `<!doctype html><body>${BUTTON("Spam", 'for (let i = 0; i < 40; i++) window.open("/ok?" + i)')}</body>`,
  "/tall": `<!doctype html><body style="margin:0">${Array.from(
    { length: 2000 },
    (_, i) => `<button style="display:block;height:10px;font-size:8px">b${i}</button>`,
  ).join("")}</body>`,
  "/oom": `<!doctype html><body>${BUTTON("Eat", "const keep = []; for (;;) keep.push(new Array(1e5).fill({ n: Math.random() }))")}</body>`,
  "/downloads": `<!doctype html><body><a href="/file" style="font-size:40px">Get the file</a></body>`,
  "/spin": `<!doctype html><body>${BUTTON("Spin", "for (;;) {}")}</body>`,
  "/flood": `<!doctype html><body><a href="/endless" style="font-size:40px">Get the dump</a></body>`,
};

let server: Server;
let base = "";
const held: ServerResponse[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    if (path === "/never") {
      // Headers and half a page, then nothing: the load event never comes.
      res.writeHead(200, { "content-type": "text/html" }).write("<!doctype html><body><h1>Loading");
      held.push(res);
      return;
    }
    if (path === "/endless") {
      // A download that never ends: 64 KiB chunks as fast as the browser takes them.
      res.writeHead(200, {
        "content-type": "application/octet-stream",
        "content-disposition": 'attachment; filename="dump.bin"',
      });
      const chunk = Buffer.alloc(64 * 1024, 7);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", pump);
      };
      res.on("close", () => res.removeAllListeners("drain"));
      held.push(res);
      pump();
      return;
    }
    if (path === "/file") {
      res
        .writeHead(200, {
          "content-type": "text/plain",
          "content-disposition": 'attachment; filename="../../etc/evil.txt"',
        })
        .end("exported rows\n");
      return;
    }
    const page = PAGES[path];
    res.writeHead(page ? 200 : 404, { "content-type": "text/html" }).end(page ?? "no");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of held) res.destroy();
  await new Promise((r) => server.close(r));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const TASK = (path: string) => ({
  id: "hostile",
  instruction: "Do the thing.",
  start: { url: `${base}${path}` },
});

async function episode(env: BrowserEnvironment, path: string, steps: ScriptedCuaStep[]) {
  const policy = new ScriptedCuaPolicy("scripted:hostile", [...steps, { done: "finished" }]);
  return runCuaEpisode({ env, policy, task: TASK(path), observe: "a11y", settleMs: 0 });
}

/** The browser still works after the hostile episode: a fresh page loads and captures. */
async function stillHealthy(env: BrowserEnvironment): Promise<void> {
  await env.reset({ url: `${base}/ok` });
  const capture = await env.capture("a11y");
  expect(capture.elements?.map((e) => e.name)).toContain("Ask once");
}

describe("pages that misbehave", () => {
  it("a dialog is dismissed and counted; the episode goes on", async () => {
    const env = new BrowserEnvironment();
    try {
      const outcome = await episode(env, "/ok", [{ click: { role: "button", name: "Ask once" } }]);
      expect(outcome.stopReason).toBe("submitted");
      expect(await env.evaluate("document.title")).toBe("false"); // confirm() was cancelled
      expect(env.pageEvents.dialogs).toBe(1);
    } finally {
      await env.close();
    }
  });

  it("an alert() loop ends the episode with page_misbehaved (dialog loop)", async () => {
    const env = new BrowserEnvironment();
    try {
      const outcome = await episode(env, "/alerts", [{ click: { role: "button", name: "Nag" } }]);
      expect(outcome.stopReason).toBe("page_misbehaved");
      expect(outcome.detail).toMatch(/^dialog loop: the page opened 20 dialogs/);
      expect(env.pageEvents.dialogs).toBeGreaterThanOrEqual(20);
      await stillHealthy(env);
    } finally {
      await env.close();
    }
  });

  it("a window.open flood: popups past the cap are closed and counted, then the episode ends", async () => {
    const env = new BrowserEnvironment();
    try {
      const outcome = await episode(env, "/popups", [{ click: { role: "button", name: "Spam" } }]);
      expect(outcome.stopReason).toBe("page_misbehaved");
      expect(outcome.detail).toMatch(/^popup flood: the page opened \d+ windows/);
      const events = env.pageEvents;
      expect(events.popups).toBeGreaterThanOrEqual(10);
      expect(events.popups_closed).toBeGreaterThan(0);
      await stillHealthy(env);
    } finally {
      await env.close();
    }
  });

  it("a load that never finishes ends the episode at the navigation timeout, not in a hang", async () => {
    const env = new BrowserEnvironment({ guard: { navigationTimeoutMs: 1500 } });
    try {
      const outcome = await episode(env, "/never", []);
      expect(outcome.stopReason).toBe("page_misbehaved");
      expect(outcome.detail).toMatch(/^load timeout: .*\/never did not finish loading within 1.5 s/);
      await stillHealthy(env);
    } finally {
      await env.close();
    }
  });

  it("a 20,000 px tall page: the screenshot stays viewport-sized and the elements are capped", async () => {
    const env = new BrowserEnvironment();
    try {
      await env.reset({ url: `${base}/tall` });
      expect(await env.evaluate("document.documentElement.scrollHeight")).toBeGreaterThanOrEqual(20_000);
      const capture = await env.capture("som");
      expect(pngSize(capture.png)).toEqual(env.screen);
      const elements = capture.elements ?? [];
      expect(elements.length).toBeGreaterThan(0);
      expect(elements.length).toBeLessThanOrEqual(MAX_ELEMENTS);
      // Those in sight are on the screen; below the fold, at most MAX_OFFSCREEN follow, marked so.
      const inSight = elements.filter((el) => !el.states?.includes("offscreen"));
      for (const el of inSight) expect(el.box.y + el.box.height).toBeLessThanOrEqual(env.screen.height);
      expect(elements.slice(inSight.length).every((el) => el.states?.includes("offscreen"))).toBe(true);
      expect(elements.length - inSight.length).toBe(MAX_OFFSCREEN);
    } finally {
      await env.close();
    }
  });

  it("a page that allocates without end crashes its own renderer: page_misbehaved, and the host is fine", async () => {
    const env = new BrowserEnvironment({ heapMb: 64 });
    try {
      const outcome = await episode(env, "/oom", [{ click: { role: "button", name: "Eat" } }, { wait: 10 }]);
      expect(outcome.stopReason).toBe("page_misbehaved");
      expect(outcome.detail).toMatch(/^page crashed: the renderer of .* crashed/);
      expect(env.pageEvents.crashed).toBe(true);
      await stillHealthy(env);
    } finally {
      await env.close();
    }
  });

  it("downloads are saved in the episode's folder under a safe name, and listed", async () => {
    const folder = mkdtempSync(join(tmpdir(), "acilab-downloads-"));
    dirs.push(folder);
    const downloads = join(folder, "downloads");
    const env = new BrowserEnvironment({ guard: { downloadsDir: downloads } });
    try {
      const outcome = await episode(env, "/downloads", [{ click: { role: "link", name: "Get the file" } }]);
      expect(outcome.stopReason).toBe("submitted");
      await env.close(); // waits for downloads in progress
      // The page suggested "../../etc/evil.txt": Chromium and safeFileName keep it a plain name.
      const [got, ...more] = env.downloads;
      expect(more).toEqual([]);
      expect(got).toMatchObject({ bytes: 14, url: `${base}/file` });
      expect(got?.name).toMatch(/^[^/\\]*evil\.txt$/);
      expect(got?.path).toBe(join(downloads, got?.name ?? ""));
      expect(readFileSync(got?.path ?? "", "utf8")).toBe("exported rows\n");
      expect(readdirSync(folder)).toEqual(["downloads"]);
    } finally {
      await env.close();
    }
  });

  it("a page whose script never yields ends the episode as unresponsive, not in a hang", async () => {
    const env = new BrowserEnvironment({ guard: { answerTimeoutMs: 2000 } });
    try {
      const outcome = await episode(env, "/spin", [{ click: { role: "button", name: "Spin" } }]);
      expect(outcome.stopReason).toBe("page_misbehaved");
      expect(outcome.detail).toMatch(/^page unresponsive: .* did not answer within 2 s/);
      await stillHealthy(env);
    } finally {
      await env.close();
    }
  });

  it("an endless download is cancelled at the size cap and ends the episode; nothing is kept", async () => {
    const folder = mkdtempSync(join(tmpdir(), "acilab-downloads-"));
    dirs.push(folder);
    const downloads = join(folder, "downloads");
    const env = new BrowserEnvironment({
      guard: { downloadsDir: downloads, maxDownloadBytes: 4 * 1024 ** 2 },
    });
    try {
      const outcome = await episode(env, "/flood", [
        { click: { role: "link", name: "Get the dump" } },
        { wait: 10 },
        { wait: 10 },
      ]);
      expect(outcome.stopReason).toBe("page_misbehaved");
      expect(outcome.detail).toMatch(/^download too large: the page's downloads passed 4 MiB \(cancelled\)/);
      const profile = env.userDataDir ?? "";
      await env.close();
      expect(env.pageEvents.downloads_cancelled).toBe(1);
      expect(env.downloads.map((d) => [d.name, d.path])).toEqual([["dump.bin", null]]);
      expect(existsSync(join(downloads, "dump.bin"))).toBe(false);
      expect(existsSync(join(profile, ".."))).toBe(false); // the episode's scratch, partial file and all
    } finally {
      await env.close();
    }
  });

  it("makes any suggested name a plain file name", () => {
    expect(safeFileName("../../etc/passwd")).toBe("passwd");
    expect(safeFileName("..\\..\\boot.ini")).toBe("boot.ini");
    expect(safeFileName(".bashrc")).toBe("bashrc");
    expect(safeFileName("a\u0000b:c.txt")).toBe("a_b_c.txt");
    expect(safeFileName("..")).toBe("download");
    expect(existsSync(join(tmpdir(), "passwd"))).toBe(false);
  });

  it("a hazard is an ObserverStop with the kind in its detail", () => {
    const err: PageHazardError = new HazardError({ kind: "popup_flood", detail: "x" });
    expect([err.reason, err.detail]).toEqual(["page_misbehaved", "popup flood: x"]);
  });
});

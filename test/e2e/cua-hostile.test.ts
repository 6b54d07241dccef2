import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pLimit from "p-limit";
import { afterAll, expect, it } from "vitest";
import { loadTaskFile } from "../../src/cua/index.js";
import { actorOf, cuaRun, runKind } from "../../src/run/index.js";
import { needingAll } from "../../src/testing/needs.js";
import { HANG_GUARD_MS } from "../../src/testing/time.js";

/*
 * Hostile pages never crash the run: each case is a task file whose page misbehaves, run the way
 * `acilab cua --task FILE --out DIR` runs it, headless and on the X11 desktop. Each ends with a
 * result.json, stop reason page_misbehaved, a grade that blames the page rather than the expression,
 * and no exception (an uncaught "Target crashed" used to exit 1 with no result.json).
 */
const root = mkdtempSync(join(tmpdir(), "acilab-cua-hostile-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const slot = pLimit(2);
const missing = (paths: string[]) => paths.filter((p) => !existsSync(p));
const missingChromium = missing(["/usr/bin/chromium"]);
const missingX = missing(["/usr/bin/Xvfb", "/usr/bin/xdotool", "/usr/bin/matchbox-window-manager"]);

/** Both environments need Debian's Chromium; the desktop needs Xvfb and its tools too. */
const needFor = (environment: "browser" | "x11") =>
  needingAll([
    ["chromium", missingChromium.length > 0 && `${missingChromium.join(", ")} not found`],
    ["xvfb", environment === "x11" && missingX.length > 0 && `${missingX.join(", ")} not found`],
  ]);

const BUTTON = (label: string, onclick = "") =>
  `<button onclick='${onclick}' style="width:300px;height:80px;font-size:24px">${label}</button>`;
const CASES: Array<{ name: string; page: string; steps: string; detail: RegExp }> = [
  {
    name: "a pushState/replaceState flood on the first page",
    page: `<!doctype html><body>${BUTTON("Hi")}<script>for (;;) { history.pushState({}, "", "/p" + Math.random()); history.replaceState({}, "", "/r" + Math.random()); }</script></body>`,
    steps: "[{click: {role: button, name: Hi}}, {done: ok}]",
    // The loop never yields: the flood is seen unless a loaded machine lets the load timeout come first.
    detail: /^(navigation flood: .* navigated 200 times within 10 s|load timeout: .* did not finish loading)/,
  },
  {
    name: "a renderer killed by memory",
    page: `<!doctype html><body>${BUTTON("Eat", "const k = []; for (;;) k.push(new Array(1e6).fill(1.5))")}</body>`,
    steps: "[{click: {role: button, name: Eat}}, {wait: 10}, {done: ok}]",
    // A renderer eating memory is killed; on a loaded machine it may stop answering first.
    detail: /^(page crashed: the renderer of .* crashed|page unresponsive: .* did not answer within 30 s)/,
  },
  {
    name: "a console.log flood",
    page: `<!doctype html><body>${BUTTON("Hi")}<script>const s = "x".repeat(10000); setInterval(() => { for (let i = 0; i < 2000; i++) console.log(s, i); }, 0);</script></body>`,
    steps: "[{click: {role: button, name: Hi}}, {done: ok}]",
    // The flood is what a quiet machine sees; on a loaded one the same flood can starve the first load
    // (load timeout) or take the whole browser down with it (seen in the soak at load 30): each is
    // the page misbehaving, never the run crashing.
    detail:
      /^(console flood: .* logged 1000 console messages within 1 s|load timeout: .* did not finish loading|page crashed: the browser itself died)/,
  },
  {
    // The X11 desktop's case in the issue (it ran past the wall clock until killed); headless too.
    // The page answers nothing once the button is pressed: the next capture waits out the guard's
    // answer timeout (30 s), the run's own, with nothing shortened for the test.
    name: "a page whose script never yields (for(;;))",
    page: `<!doctype html><body>${BUTTON("Spin", "for (;;) {}")}</body>`,
    steps: "[{click: {role: button, name: Spin}}, {click: {role: button, name: Spin}}, {done: ok}]",
    detail: /^page unresponsive: .* did not answer within 30 s/,
  },
];

function taskFile(id: string, page: string, steps: string): string {
  const dir = join(root, id);
  mkdirSync(join(dir, "site"), { recursive: true });
  writeFileSync(join(dir, "site", "index.html"), page);
  writeFileSync(
    join(dir, "task.yaml"),
    `id: ${id}\ninstruction: Press the button.\napp: {static: ./site}\ngrade: {js: "window.REWARD || 0"}\nscript: ${steps}\n`,
  );
  return join(dir, "task.yaml");
}

for (const environment of ["browser", "x11"] as const) {
  needFor(environment).describe(`hostile pages on the ${environment}`, () => {
    CASES.forEach((c, i) => {
      it.concurrent(`${c.name} ends as page_misbehaved with a result.json`, async () => {
        const id = `hostile-${environment}-${i}`;
        const out = join(root, `${id}-out`);
        const task = loadTaskFile(taskFile(id, c.page, c.steps));
        const result = await slot(() =>
          runKind(
            cuaRun(task, {
              observe: "a11y",
              screen: { width: 1024, height: 700 },
              environment,
              limits: { wallClockMs: HANG_GUARD_MS },
            }),
            { actor: actorOf("scripted"), out },
          ),
        );
        expect(result.stop_reason).toBe("page_misbehaved");
        expect(result.detail).toMatch(c.detail);
        expect(result.resolved).toBe(false);
        expect(result.grade.detail).toMatch(/the page failed, not the expression/);
        const written = JSON.parse(readFileSync(join(out, "result.json"), "utf8"));
        expect(written).toMatchObject({ stop_reason: "page_misbehaved", resolved: false });
      });
    });
  });
}

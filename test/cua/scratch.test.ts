/**
 * A SIGKILLed computer-use run leaves its browser's profile and artifacts in one owner-marked scratch
 * directory (never a `playwright-artifacts-*` folder in the shared temp directory); the next start
 * sweeps it, and never a live run's.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCRATCH_PREFIX } from "../../src/cua/env/scratch.js";
import { tsxLoaderPath } from "../../src/tasks/index.js";
import { type ServedPages, serveHtml } from "../../src/testing/page-server.js";

const tmp = mkdtempSync(join(tmpdir(), "acilab-scratch-test-"));
// Searchable by the box's uid, so the browser runs boxed (under a 0700 TMPDIR it falls back to the host).
chmodSync(tmp, 0o711);
const children: ChildProcess[] = [];
let site: ServedPages;

beforeAll(async () => {
  site = await serveHtml("<h1>hi</h1>");
});
afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  await site.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A child with TMPDIR=tmp that opens a browser on `url`, prints its profile, then obeys `then`. */
async function browserChild(then: "kill" | "wait"): Promise<{ child: ChildProcess; profile: string }> {
  const code = `
const { BrowserEnvironment } = await import(${JSON.stringify(new URL("../../src/cua/env/browser.ts", import.meta.url).pathname)});
const env = new BrowserEnvironment();
await env.reset({ url: process.argv[1] });
console.log(env.userDataDir);
if (process.argv[2] === "kill") process.kill(process.pid, "SIGKILL");
setInterval(() => undefined, 1000);`;
  const child = spawn(
    process.execPath,
    ["--import", tsxLoaderPath(), "--input-type=module", "-e", code, site.url, then],
    {
      env: { ...process.env, TMPDIR: tmp },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  children.push(child);
  const line = await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next();
  return { child, profile: String(line.value) };
}

const exited = (c: ChildProcess) =>
  new Promise((r) => (c.exitCode !== null || c.signalCode ? r(0) : c.once("exit", r)));

describe("browser scratch", () => {
  it("a killed run's profile and artifacts are swept by the next start; a live run's stay", async () => {
    const live = await browserChild("wait");
    const killed = await browserChild("kill");
    await exited(killed.child);
    const scratch = (p: string) => join(p, "..");
    expect(readdirSync(scratch(killed.profile)).sort()).toEqual([".acilab-owner", "artifacts", "profile"]);
    expect(readdirSync(tmp).filter((n) => n.startsWith("playwright"))).toEqual([]);
    // The boxed browser's box (its wrapper, seccomp filter and proxy socket) outlives a SIGKILL too.
    const boxes = () => readdirSync(tmp).filter((n) => n.startsWith("acilab-box-"));
    const killedBoxes = boxes();

    const next = await browserChild("wait"); // the next start sweeps before its first episode
    expect(existsSync(scratch(killed.profile))).toBe(false);
    expect(existsSync(scratch(live.profile))).toBe(true);
    expect(readdirSync(tmp).filter((n) => n.startsWith(SCRATCH_PREFIX))).toHaveLength(2);
    // Both runs' boxes were there after the kill; now only the live runs' (one each) are.
    expect(boxes().length).toBe(2);
    expect(killedBoxes.length).toBe(2);

    // Ended by a signal nobody handles, a run still removes its scratch on the way out.
    for (const c of [live.child, next.child]) {
      c.kill("SIGTERM");
      await exited(c);
    }
    expect(
      readdirSync(tmp).filter(
        (n) => n.startsWith(SCRATCH_PREFIX) || n.startsWith("acilab-box-") || n.startsWith("playwright"),
      ),
    ).toEqual([]);
  });
});

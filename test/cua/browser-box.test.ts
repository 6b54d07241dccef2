/**
 * The browser box, tried from outside with real Chromium on loopback: who the browser is on the host,
 * which network it is in, what a page can reach, what it can write, where its profile lives.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserEnvironment } from "../../src/cua/env/browser.js";
import { BOX_PROFILE, boxUnavailable } from "../../src/cua/env/launch.js";
import { X11Environment } from "../../src/cua/env/x11.js";
import { SANDBOX_UID } from "../../src/sandbox/index.js";
import { needing, needingAll } from "../../src/testing/needs.js";

const unavailable = await boxUnavailable();

let app: Server;
let other: Server;
let appUrl = "";
let otherPort = 0;
const otherHits: string[] = [];

async function listen(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  app = createServer((_req, res) => res.end("<!doctype html><title>app</title><h1>app</h1>"));
  other = createServer((req, res) => {
    otherHits.push(req.url ?? "");
    res.end("other");
  });
  appUrl = `http://127.0.0.1:${await listen(app)}/`;
  otherPort = await listen(other);
});

afterAll(async () => {
  await new Promise((r) => app.close(r));
  await new Promise((r) => other.close(r));
});

function status(pid: number, key: string): string {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${key}:`));
  return line?.split(/\s+/)[1] ?? "";
}

/** Host processes whose command line (words joined by spaces) passes `match`. */
function processes(match: (cmdline: string) => boolean): number[] {
  return readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .filter((pid) => {
      try {
        return match(readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " "));
      } catch {
        return false;
      }
    });
}

/** True when `pid` is in the cgroups `cgroup` lists (false once it has exited: other tests' browsers come and go). */
function sameCgroup(pid: number, cgroup: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cgroup`, "utf8") === cgroup;
  } catch {
    return false;
  }
}

needing("chromium", unavailable).describe("the browser box (Debian chromium, bwrap)", () => {
  const env = new BrowserEnvironment();
  afterAll(() => env.close());

  it("runs the browser as the unprivileged uid, in a network namespace of its own, with its own sandbox on", async () => {
    await env.reset({ url: appUrl });
    const pid = env.browserPid;
    expect(pid).toBeGreaterThan(0);
    const uid = status(pid!, "Uid");
    if (process.getuid?.() === 0) expect(uid).toBe(String(SANDBOX_UID));
    else expect(uid).toBe(String(process.getuid?.()));
    expect(readlinkSync(`/proc/${pid}/ns/net`)).not.toBe(readlinkSync("/proc/self/ns/net"));
    expect(readlinkSync(`/proc/${pid}/ns/user`)).not.toBe(readlinkSync("/proc/self/ns/user"));
    expect(status(pid!, "CapEff")).toBe("0000000000000000");
    expect(env.sandboxWarning).toBeUndefined();
    // Chromium's own sandbox: renderers in namespaces below the box's, under seccomp-bpf.
    await env.evaluate("1");
    // Zygote children rewrite their command line into one string: match on its text, and keep
    // this browser's by cgroup (the box's).
    const cgroup = readFileSync(`/proc/${pid}/cgroup`, "utf8");
    const ours = processes((c) => c.includes("--type=renderer")).filter((p) => sameCgroup(p, cgroup));
    expect(ours.length).toBeGreaterThan(0);
    for (const r of ours) {
      expect(status(r, "Seccomp")).toBe("2");
      expect(readlinkSync(`/proc/${r}/ns/user`)).not.toBe(readlinkSync(`/proc/${pid}/ns/user`));
    }
  });

  it("refuses a page's fetch to another loopback port on the host and lists it", async () => {
    await env.reset({ url: appUrl });
    const result = await env.evaluate<string>(
      `fetch("http://127.0.0.1:${otherPort}/secret", { mode: "no-cors" }).then(() => "answered", (e) => "refused: " + e.message)`,
    );
    expect(result).toMatch(/^(refused|answered)/);
    expect(otherHits).toEqual([]);
    expect(env.refusals.map((r) => r.request)).toContain(`GET http://127.0.0.1:${otherPort}/secret`);
  });

  it("gives the browser no host home, a read-only system and the profile in its private /tmp, gone after the episode", async () => {
    await env.reset({ url: appUrl });
    const pid = env.browserPid!;
    const root = `/proc/${pid}/root`;
    // The box's view of the filesystem, read through the browser's own root.
    expect(existsSync(`${root}${homedir()}`)).toBe(false);
    expect(existsSync(`${root}${BOX_PROFILE}/Default`)).toBe(true);
    expect(existsSync(BOX_PROFILE) && readdirSync(BOX_PROFILE).includes("Default")).toBeFalsy();
    expect(readdirSync(env.userDataDir!)).toEqual([]);
    const mounts = readFileSync(`/proc/${pid}/mountinfo`, "utf8").split("\n");
    const rootMount = mounts.find((l) => l.split(" ")[4] === "/");
    expect(rootMount?.split(" ")[5]).toMatch(/(^|,)ro(,|$)/);
    // A crash handler, if Chromium starts one, is in the box and keeps its database there.
    const cgroup = readFileSync(`/proc/${pid}/cgroup`, "utf8");
    const handlers = processes((c) => /^\S*chrome_crashpad_handler /.test(c) && c.includes("--database="));
    for (const c of handlers.filter((h) => sameCgroup(h, cgroup)))
      expect(readFileSync(`/proc/${c}/cmdline`, "utf8")).toMatch(/--database=\/tmp\/home\//);
    const hostProfile = env.userDataDir!;
    await env.close();
    expect(existsSync(`/proc/${pid}/cmdline`) && readFileSync(`/proc/${pid}/cmdline`, "utf8")).toBeFalsy();
    expect(existsSync(hostProfile)).toBe(false);
  });
});

needingAll([
  ["chromium", unavailable],
  ["xvfb", !existsSync("/usr/bin/Xvfb") && "/usr/bin/Xvfb is missing"],
]).describe("the X11 desktop's browser box", () => {
  const env = new X11Environment({ screen: { width: 800, height: 600 } });
  afterAll(() => env.close());

  it("runs the desktop's Chromium as the unprivileged uid in its own network namespace, egress refused; Xvfb unprivileged", async () => {
    await env.reset({ url: appUrl });
    const pid = env.browserPid!;
    expect(pid).toBeGreaterThan(0);
    if (process.getuid?.() === 0) {
      expect(status(pid, "Uid")).toBe(String(SANDBOX_UID));
      // Xvfb and the window manager (the browser's X server and its peer) are not root either.
      for (const group of env.processGroups) expect(status(group, "Uid")).toBe(String(SANDBOX_UID));
    }
    expect(readlinkSync(`/proc/${pid}/ns/net`)).not.toBe(readlinkSync("/proc/self/ns/net"));
    expect(env.sandboxWarning).toBeUndefined();
    await env.evaluate(`fetch("http://127.0.0.1:${otherPort}/x11").catch(() => undefined)`);
    expect(env.refusals.map((r) => r.request)).toContain(`GET http://127.0.0.1:${otherPort}/x11`);
    expect(otherHits).toEqual([]);
  });
});

describe("where the box cannot run", () => {
  it("keeps today's browser on the host and says so in the warning result.json carries", async () => {
    const env = new BrowserEnvironment();
    process.env.ACILAB_BROWSER_BOX = "0";
    try {
      await env.reset({ url: appUrl });
      expect(env.sandboxWarning).toMatch(
        /runs on the host .* --no-sandbox, not in a box: ACILAB_BROWSER_BOX=0/,
      );
      expect(await env.evaluate<string>("document.title")).toBe("app");
      // The egress allowlist still holds on the host.
      await env.evaluate(`fetch("http://127.0.0.1:${otherPort}/host").catch(() => undefined)`);
      expect(env.refusals.map((r) => r.request)).toContain(`GET http://127.0.0.1:${otherPort}/host`);
      expect(otherHits).toEqual([]);
    } finally {
      delete process.env.ACILAB_BROWSER_BOX;
      await env.close();
    }
  });
});

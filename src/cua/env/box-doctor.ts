/**
 * `acilab doctor`'s browser lines: start the boxed Chromium once, exactly as an episode does, and check
 * from outside what holds — the uid, the network namespace, proxy-only egress (a page's fetch to
 * another loopback port of the host), the read-only system, the private home and /tmp, crash
 * reporting, the cgroup limits and Chromium's own sandbox.
 */
import { existsSync, readFileSync, readlinkSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir } from "node:os";
import type { DoctorCheck } from "../../sandbox/index.js";
import { artifactsDirOf, freshProfile, removeProfile } from "./chromium.js";
import { BOX_PROFILE, boxUnavailable, browserPid, launchChromium } from "./launch.js";

const NAMES = [
  "unprivileged uid",
  "network namespace",
  "proxy-only egress",
  "read-only system",
  "private home and /tmp",
  "crash reporting off",
  "cgroup limits",
  "Chromium's own sandbox",
] as const;

type Name = (typeof NAMES)[number];
type Verdict = { ok: boolean; reason: string };

export async function browserBoxChecks(): Promise<DoctorCheck[]> {
  const why = await boxUnavailable();
  const verdicts = why
    ? new Map<Name, Verdict>(
        NAMES.map((n) => [
          n,
          { ok: false, reason: `the browser runs on the host (as root, --no-sandbox): ${why}` },
        ]),
      )
    : await probeBox().catch(
        (err: Error) =>
          new Map<Name, Verdict>(
            NAMES.map((n) => [
              n,
              { ok: false, reason: `the boxed browser did not start: ${err.message.split("\n")[0]}` },
            ]),
          ),
      );
  return NAMES.map((name) => ({ kind: "browser", name, ...(verdicts.get(name) as Verdict) }));
}

async function probeBox(): Promise<Map<Name, Verdict>> {
  const hits: string[] = [];
  const app = createServer((_q, r) => r.end("<!doctype html><title>probe</title>"));
  const other = createServer((q, r) => {
    hits.push(q.url ?? "");
    r.end("reached");
  });
  const port = async (s: typeof app) => {
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
    return (s.address() as AddressInfo).port;
  };
  const appPort = await port(app);
  const otherPort = await port(other);
  const hostProfile = freshProfile();
  const out = new Map<Name, Verdict>();
  try {
    const launched = await launchChromium({
      hostProfile,
      artifactsDir: artifactsDirOf(hostProfile),
      args: [],
      context: { headless: true },
      allowHosts: [`127.0.0.1:${appPort}`],
    });
    try {
      const page = launched.context.pages()[0] ?? (await launched.context.newPage());
      await page.goto(`http://127.0.0.1:${appPort}/`);
      await page.evaluate(`fetch("http://127.0.0.1:${otherPort}/probe").catch(() => undefined)`);
      const pid = browserPid(launched.box);
      if (pid === undefined) throw new Error("no Chromium browser process found in the box");
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const uid = /^Uid:\s+(\d+)/m.exec(status)?.[1] ?? "?";
      out.set("unprivileged uid", {
        ok: uid !== "0",
        reason: `the browser process ${pid} runs as host uid ${uid}`,
      });
      const net = readlinkSync(`/proc/${pid}/ns/net`);
      out.set("network namespace", {
        ok: net !== readlinkSync("/proc/self/ns/net"),
        reason: `${net}, loopback only; the host's is ${readlinkSync("/proc/self/ns/net")}`,
      });
      const refused = launched.proxy.refusals.some((r) => r.port === otherPort);
      out.set("proxy-only egress", {
        ok: refused && hits.length === 0,
        reason: `a page's fetch to another loopback port of the host was ${hits.length ? "answered" : "never received"} and ${refused ? "refused by the egress proxy (its Unix socket is the box's only way out)" : "not seen by the proxy"}`,
      });
      const mounts = readFileSync(`/proc/${pid}/mountinfo`, "utf8")
        .split("\n")
        .map((l) => l.split(" "));
      const root = mounts.find((m) => m[4] === "/");
      const tmp = mounts.find((m) => m[4] === "/tmp");
      out.set("read-only system", {
        ok: /(^|,)ro(,|$)/.test(root?.[5] ?? ""),
        reason: `the box's / is mounted ${root?.[5] ?? "?"}; /usr and a curated /etc are read-only binds`,
      });
      const home = existsSync(`/proc/${pid}/root${homedir()}`);
      const profile = existsSync(`/proc/${pid}/root${BOX_PROFILE}/Default`);
      out.set("private home and /tmp", {
        ok: !home && profile && tmp?.includes("tmpfs") === true,
        reason: `${homedir()} is ${home ? "visible" : "not visible"} in the box; /tmp is ${tmp?.includes("tmpfs") ? "a private tmpfs" : "not private"} holding the profile (${BOX_PROFILE})`,
      });
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      out.set("crash reporting off", {
        ok: cmdline.includes("--disable-breakpad") && !home,
        reason:
          "--disable-breakpad: nothing uploaded; Chromium's crashpad handler still runs, inside the box, its database under the box's private home",
      });
      const limits = launched.box?.limits ?? [];
      out.set("cgroup limits", {
        ok: limits.length === 3,
        reason:
          limits.length > 0
            ? `the box's cgroup limits ${limits.join(", ")}`
            : (launched.box?.warnings.join("; ") ?? "no cgroup"),
      });
      await page.goto("chrome://sandbox");
      const text = await page.evaluate<string>("document.body.innerText").catch(() => "");
      const adequate = /adequately sandboxed/i.test(text);
      out.set("Chromium's own sandbox", {
        ok: adequate && launched.box?.nestedSandbox === true,
        reason: adequate
          ? "on inside the box: namespace sandbox (user, pid, net) and seccomp-bpf for renderers (chrome://sandbox)"
          : `off: ${launched.warning ?? text.split("\n").slice(0, 3).join(" ")}`,
      });
    } finally {
      await launched.close();
    }
  } finally {
    removeProfile(hostProfile);
    app.close();
    other.close();
  }
  return out;
}

/**
 * Where an environment's Chromium runs. In a box (src/sandbox/box) by default: an unprivileged uid, a
 * private network namespace whose only way out is the egress proxy's Unix socket, a read-only system,
 * a private home and /tmp holding the profile, no crash reporter, the box's cgroup limits — and
 * Chromium's own sandbox back on inside it. Where bwrap cannot run (`acilab doctor` says why), Chromium
 * runs on the host as before, and `warning` says so for result.json.
 *
 * Playwright starts the box's wrapper as if it were Chromium (`executablePath`): the wrapper execs down
 * to bwrap and Chromium, so Playwright's CDP pipes (fds 3 and 4) and its kill of the process reach the
 * real browser, and Playwright's launch, close and crash handling stay what they are unboxed.
 */
import { chmodSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { BrowserContext, BrowserType } from "playwright-core";
import {
  DEFAULT_BOX_MEMORY_BYTES,
  PROXY_SOCKET,
  PROXY_URL,
  ProgramBox,
  probeBwrap,
} from "../../sandbox/index.js";
import {
  BOX_CHROMIUM_FLAGS,
  boxChromiumBinary,
  CHROMIUM_FLAGS,
  CHROMIUM_PATH,
  proxyFlags,
} from "./chromium.js";
import { EgressProxy } from "./egress.js";

/**
 * Playwright's Chromium driver, loaded when a browser starts: importing it costs ~0.5 s of CPU, which
 * the commands that never start a browser (grade, tasks, env …) should not pay at start-up.
 */
async function chromium(): Promise<BrowserType> {
  return (await import("playwright-core")).chromium;
}

/** Where the boxed browser keeps its profile: the box's private /tmp, gone when the box is. */
export const BOX_PROFILE = "/tmp/profile";

/** Playwright's options for the context (viewport…); the launcher owns the executable, args and env. */
type ContextOptions = Omit<
  NonNullable<Parameters<BrowserType["launchPersistentContext"]>[1]>,
  | "executablePath"
  | "args"
  | "env"
  | "chromiumSandbox"
  | "artifactsDir"
  | "handleSIGINT"
  | "handleSIGTERM"
  | "handleSIGHUP"
>;

export interface ChromiumLaunch {
  /** An empty host directory Playwright is given as userDataDir (the boxed browser never uses it). */
  hostProfile: string;
  /**
   * Playwright's artifacts folder (downloads land there first, then the page guard copies them into
   * the episode's folder): the episode's scratch, never Playwright's own folder in the shared /tmp.
   * The boxed browser writes it at the same path inside (a writable bind handed to the box's uid).
   */
  artifactsDir: string;
  /** Flags beyond the common ones (kiosk, window size…). */
  args: readonly string[];
  context: ContextOptions;
  allowHosts: readonly string[];
  /** The X display (":N") a headful browser draws on: its socket is the only one bound into the box. */
  display?: string;
}

/**
 * What every launch tells Playwright. Signals are the command's to handle (a run stops cleanly on
 * Ctrl-C and closes the browser itself); Playwright's own handlers would kill the browser mid-episode,
 * or keep alive a process nobody else handles the signal for. Its exit handler still kills the browser.
 */
function commonOptions(launch: ChromiumLaunch) {
  return {
    artifactsDir: launch.artifactsDir,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    // Playwright must not add its own proxy bypass, nor turn off Chromium's IPC flooding protection:
    // with it off, a page calling pushState in a loop floods the browser process until nothing
    // answers (measured here: every capture timed out); with it on, Chromium ignores the excess calls.
    ignoreDefaultArgs: ["--enable-automation", "--disable-ipc-flooding-protection"],
  };
}

export interface LaunchedChromium {
  context: BrowserContext;
  proxy: EgressProxy;
  /** The box it runs in; undefined when it runs on the host (see warning). */
  box: ProgramBox | undefined;
  /** Set when Chromium runs with less than the box and its own sandbox; goes into result.json. */
  warning: string | undefined;
  /** Close the browser, the proxy and the box. The proxy's refusals stay readable. */
  close(): Promise<void>;
  /** Why the browser may have died on its own: the box's memory limit, when it killed something. */
  deathCause(): string;
}

let chromiumSandbox: { ok: boolean; why: string } | undefined;

/** Why Chromium cannot be boxed here, or undefined when it can (the bwrap probe, once per process). */
export async function boxUnavailable(): Promise<string | undefined> {
  // ACILAB_BROWSER_BOX=0 runs Chromium on the host as before (with the warning), for debugging.
  if (process.env.ACILAB_BROWSER_BOX === "0") return "ACILAB_BROWSER_BOX=0 is set";
  const probe = await probeBwrap();
  return probe.ok ? undefined : probe.reason;
}

export async function launchChromium(launch: ChromiumLaunch): Promise<LaunchedChromium> {
  const why = await boxUnavailable();
  return why === undefined ? launchBoxed(launch) : launchOnHost(launch, why);
}

async function launchBoxed(launch: ChromiumLaunch): Promise<LaunchedChromium> {
  if (chromiumSandbox) return startBoxed(launch, chromiumSandbox);
  // The first launch in this process tries Chromium's own sandbox; if it cannot start, later ones skip it.
  try {
    const launched = await startBoxed(launch, { ok: true, why: "" });
    chromiumSandbox = { ok: true, why: "" };
    return launched;
  } catch (err) {
    const why = (err as Error).message.split("\n")[0] ?? "";
    const launched = await startBoxed(launch, { ok: false, why }).catch(() => {
      throw err;
    });
    chromiumSandbox = { ok: false, why };
    return launched;
  }
}

async function startBoxed(
  launch: ChromiumLaunch,
  own: { ok: boolean; why: string },
): Promise<LaunchedChromium> {
  const nested = own.ok;
  const readOnly = [{ source: "/var/cache/fontconfig", dest: "/var/cache/fontconfig" }];
  if (launch.display) {
    const socket = `/tmp/.X11-unix/X${launch.display.replace(/^:/, "").split(".")[0]}`;
    readOnly.push({ source: socket, dest: socket });
  }
  const box = ProgramBox.open({
    program: boxChromiumBinary(),
    proxy: true,
    nestedSandbox: nested,
    readOnly,
    writable: [{ source: reachable(launch.artifactsDir), dest: launch.artifactsDir }],
    ...(launch.display ? { env: { DISPLAY: launch.display } } : {}),
    replaceArgs: { "--user-data-dir=": `--user-data-dir=${BOX_PROFILE}` },
    hostname: "browser",
  });
  let proxy: EgressProxy | undefined;
  try {
    proxy = await EgressProxy.start({ socketPath: join(box.proxyDir as string, PROXY_SOCKET) });
    proxy.setAllowHosts(launch.allowHosts);
    const context = await (await chromium()).launchPersistentContext(launch.hostProfile, {
      ...launch.context,
      ...commonOptions(launch),
      executablePath: box.executable,
      chromiumSandbox: nested,
      args: [...BOX_CHROMIUM_FLAGS, ...proxyFlags(PROXY_URL), ...launch.args],
      env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
    });
    const warnings = [...box.warnings];
    if (!nested)
      warnings.push(
        `Chromium's own sandbox could not start inside the box (${own.why}); it runs with --no-sandbox inside it`,
      );
    const started = proxy;
    return {
      context,
      proxy,
      box,
      warning: warnings.length > 0 ? `browser box: ${warnings.join("; ")}` : undefined,
      close: async () => {
        await context.close().catch(() => undefined);
        await started.close();
        await box.close();
      },
      deathCause: () =>
        box.oomKills() > 0
          ? `the box's memory limit (${Math.round(DEFAULT_BOX_MEMORY_BYTES / 1024 ** 3)} GiB) killed it`
          : "it exited or was killed",
    };
  } catch (err) {
    await proxy?.close();
    await box.close();
    throw err;
  }
}

async function launchOnHost(launch: ChromiumLaunch, why: string): Promise<LaunchedChromium> {
  const proxy = await EgressProxy.start();
  proxy.setAllowHosts(launch.allowHosts);
  const context = await (await chromium()).launchPersistentContext(launch.hostProfile, {
    ...launch.context,
    ...commonOptions(launch),
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, ...proxyFlags(proxy.url), ...launch.args],
    // Chromium's singleton socket dir goes under TMPDIR; inside the profile, it goes when the profile does.
    env: {
      ...process.env,
      TMPDIR: launch.hostProfile,
      ...(launch.display ? { DISPLAY: launch.display } : {}),
    },
  });
  return {
    context,
    proxy,
    box: undefined,
    warning: `the browser runs on the host as uid ${process.getuid?.() ?? "?"} with --no-sandbox, not in a box: ${why} — run "acilab doctor"`,
    close: async () => {
      await context.close().catch(() => undefined);
      await proxy.close();
    },
    deathCause: () => "it exited or was killed",
  };
}

/**
 * bwrap runs as the box's uid and binds the source itself, so every directory above it must be
 * traversable by that uid: the scratch root (mkdtemp's 0700) becomes 0711, searchable but not listable.
 * The folder itself is handed to the box's uid when the box opens.
 */
function reachable(dir: string): string {
  const parent = dirname(dir);
  if (parent !== "/" && (statSync(parent).mode & 0o711) !== 0o711)
    chmodSync(parent, statSync(parent).mode | 0o711);
  return dir;
}

/**
 * The browser process (not a renderer, zygote or helper) among `candidates`: the Chromium binary with
 * no `--type=`. In a box, the candidates are the box's cgroup.
 */
export function browserPid(box: ProgramBox | undefined): number | undefined {
  const candidates =
    box?.pids() ??
    readdirSync("/proc")
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  for (const pid of candidates) {
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    } catch {
      continue;
    }
    if (/chrom(e|ium)$/.test(argv[0] ?? "") && !argv.some((a) => a.startsWith("--type="))) return pid;
  }
  return undefined;
}

/**
 * How Chromium is started on these machines, shared by the headless browser and the one inside X11.
 * Debian's build, never a downloaded one; a fresh profile per episode; every request through the
 * egress proxy.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { EgressRefusal } from "./egress.js";
import { removeNow } from "./proc.js";
import { makeScratch, releaseScratch, scratchOfProfile } from "./scratch.js";

export const CHROMIUM_PATH = process.env.ACILAB_CHROMIUM ?? "/usr/bin/chromium";

/** Flags these machines need: no setuid sandbox (root, no user namespaces for it), no GPU, no phoning home. */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  "--no-default-browser-check",
  "--password-store=basic",
  "--disable-client-side-phishing-detection",
  "--disable-domain-reliability",
  "--no-pings",
] as const;

/**
 * For a Chromium acilab starts itself (inside X11): the background calls Playwright's launcher turns
 * off, plus autofill's server lookups, so the allowlist's refusal log is mostly the page's own. A
 * Playwright-launched browser gets Playwright's list; a second --disable-features would replace it.
 */
export const QUIET_CHROMIUM_FLAGS = [
  "--disable-features=OptimizationHints,NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch,MediaRouter,AutofillServerCommunication,DestroyProfileOnBrowserClose",
  "--enable-features=SkipListAccountsWithoutGaiaCookies",
  "--disable-extensions",
  "--disable-default-apps",
  "--disable-component-extensions-with-background-pages",
  "--disable-breakpad",
] as const;

/**
 * Route everything through the allowlist proxy. Chromium bypasses proxies for loopback by default;
 * `<-loopback>` removes that, so another port on 127.0.0.1 is refused like any other host. WebRTC may
 * not send UDP around the proxy. Per scheme, so that WebSockets (and only they: Chromium sends ws://
 * and wss:// to the `socks=` proxy when there is one) arrive as SOCKS5 on the same socket, where the
 * consequence gate holds each open (./egress.ts).
 */
export function proxyFlags(proxyUrl: string): string[] {
  const hostPort = new URL(proxyUrl).host;
  return [
    `--proxy-server=http=http://${hostPort};https=http://${hostPort};socks=socks5://${hostPort}`,
    "--proxy-bypass-list=<-loopback>",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  ];
}

/**
 * Flags of a boxed Chromium: the common ones without --no-sandbox (its own sandbox is on inside the
 * box; the launcher drops back to --no-sandbox only where that cannot start), and no crash uploads.
 * Chromium 156 still starts chrome_crashpad_handler with --disable-breakpad; --disable-crashpad-for-
 * testing would stop it but makes the network service crash on its first request ("FD ownership
 * violation", measured here), so the handler runs — inside the box, where its database is under the
 * box's private home (/tmp/home/.config/chromium/Crash Reports) and goes with it, with nothing to send
 * to and no consent to send.
 */
export const BOX_CHROMIUM_FLAGS: readonly string[] = [
  ...CHROMIUM_FLAGS.filter((f) => f !== "--no-sandbox"),
  "--disable-breakpad",
  "--disable-crash-reporter",
];

/** Debian's /usr/bin/chromium is a shell launcher; inside the box the binary itself runs. */
export function boxChromiumBinary(): string {
  if (CHROMIUM_PATH === "/usr/bin/chromium" && existsSync("/usr/lib/chromium/chromium"))
    return "/usr/lib/chromium/chromium";
  return CHROMIUM_PATH;
}

export function assertChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `browser environment: ${CHROMIUM_PATH} not found — install Debian's chromium ("apt-get install chromium" or scripts/bootstrap.sh), or set ACILAB_CHROMIUM`,
    );
  }
}

/**
 * A new, empty --user-data-dir: no cookies, history or cache carried between episodes. It lives in an
 * owner-marked scratch directory (scratch.ts) beside `artifactsDirOf(profile)`, so a SIGKILLed run's
 * profile is swept by the next start.
 */
export function freshProfile(): string {
  return makeScratch().profile;
}

/** Playwright's artifacts folder for a freshProfile (pass as artifactsDir: not the shared temp dir). */
export function artifactsDirOf(profile: string): string {
  return join(profile, "..", "artifacts");
}

export function removeProfile(dir: string | undefined): void {
  if (!dir) return;
  const scratch = scratchOfProfile(dir);
  if (scratch) releaseScratch(scratch);
  else removeNow(dir);
}

/**
 * Hosts Chromium itself calls with no switch left to stop it: measured on Debian's Chromium 156 with
 * the flags above and Playwright's (which already pass --disable-component-update and
 * SkipListAccountsWithoutGaiaCookies), each episode still made a component-updater POST to
 * update.googleapis.com, Gaia ListAccounts CONNECTs to accounts.google.com, and autofill form queries
 * to content-autofill.googleapis.com; now and then it also CONNECTs to redirector.gvt1.com, the
 * component downloads' redirector (seen on MiniWoB's use-autocomplete, a page that names no host).
 * AutofillServerCommunication is a feature, but a second --disable-features would replace
 * Playwright's whole list: Chromium keeps the last. The proxy still
 * refuses them; they are dropped from the refusal log, which should show what the page tried — unless
 * the page itself was seen requesting that host.
 */
export const CHROMIUM_BACKGROUND_HOSTS: ReadonlySet<string> = new Set([
  "update.googleapis.com",
  "accounts.google.com",
  "content-autofill.googleapis.com",
  "redirector.gvt1.com",
]);

/** The refusals a person should read: Chromium's own background calls left out (see above). */
export function pageRefusals(
  refusals: readonly EgressRefusal[],
  pageHosts: ReadonlySet<string> = new Set(),
): EgressRefusal[] {
  return refusals.filter((r) => !CHROMIUM_BACKGROUND_HOSTS.has(r.host) || pageHosts.has(r.host));
}

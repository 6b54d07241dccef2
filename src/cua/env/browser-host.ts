/**
 * Where an episode's browser context comes from. By default every episode starts its own Chromium
 * (its own box, egress proxy and profile: `ownBrowser`), which costs most of a short episode: on a
 * MiniWoB page the box and browser start took ~2.5 s of ~4 s. A folder run can instead keep one
 * `SharedBrowser` — one box, one Chromium, one proxy — and give each episode a fresh browser
 * context in it: cookies, storage, cache, service workers and pages are the context's own and go
 * with it (Chromium's off-the-record contexts keep nothing on disk), the allowlist is set anew and the
 * refusal log emptied for each episode. The browser is started again after an episode whose page
 * misbehaved or whose context would not close, so one hostile page cannot leave a wedged browser to
 * the next.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Browser, BrowserContext, BrowserContextOptions } from "playwright-core";
import type { ProgramBox } from "../../sandbox/index.js";
import { artifactsDirOf, freshProfile, removeProfile } from "./chromium.js";
import type { EgressProxy } from "./egress.js";
import { type LaunchedChromium, launchChromium } from "./launch.js";
import { sweepBrowserLeftovers } from "./scratch.js";

/** Closing a context takes milliseconds; one that takes longer leaves a browser not worth reusing. */
const CONTEXT_CLOSE_MS = 5_000;

/** What an episode asks of its browser. */
export interface BrowserRequest {
  /** The renderer's JavaScript heap cap (a launch flag: a browser started with another is not reused). */
  heapMb: number;
  /** The context's viewport, screen, scale and downloads. */
  context: BrowserContextOptions;
  /** The hosts the egress proxy lets through for this episode. */
  allowHosts: readonly string[];
}

/** One episode's browser context, and how to let go of it. */
export interface EpisodeBrowser {
  context: BrowserContext;
  proxy: EgressProxy;
  /** The box the browser runs in; undefined when it runs on the host. */
  box: ProgramBox | undefined;
  warning: string | undefined;
  /** The host folder Playwright was given as --user-data-dir (the browser's scratch). */
  profile: string;
  /** Where downloads arrive before the page guard moves them (Playwright's artifacts folder). */
  artifactsDir: string;
  /** How long it took to have a browser for this episode: a launch, or only a new context in a running one. */
  startMs: number;
  /** False when a running browser was reused. */
  launched: boolean;
  /** Why the browser may have died on its own (the box's memory limit), for the page guard. */
  deathCause(): string;
  /** `discard`: the browser may be in a bad state (a page misbehaved); do not reuse it. */
  close(options?: { discard?: boolean }): Promise<void>;
}

/** Anything that hands out episode browsers: a fresh Chromium each time, or one kept running. */
export interface BrowserSource {
  open(request: BrowserRequest): Promise<EpisodeBrowser>;
}

interface Spare {
  context: BrowserContext;
  /** The options it was made with, as JSON. */
  key: string;
}

interface Started {
  launched: LaunchedChromium;
  profile: string;
  artifactsDir: string;
  launchMs: number;
}

async function start(request: BrowserRequest, context: BrowserContextOptions): Promise<Started> {
  const started = performance.now();
  await sweepBrowserLeftovers();
  const profile = freshProfile();
  const artifactsDir = artifactsDirOf(profile);
  try {
    const launched = await launchChromium({
      hostProfile: profile,
      artifactsDir,
      args: [`--js-flags=--max-old-space-size=${request.heapMb}`],
      context: { headless: true, ...context },
      allowHosts: request.allowHosts,
    });
    return { launched, profile, artifactsDir, launchMs: performance.now() - started };
  } catch (err) {
    removeProfile(profile);
    throw err;
  }
}

/** A Chromium of the episode's own: its default context is the episode's; all of it goes at close. */
export const ownBrowser: BrowserSource = {
  async open(request) {
    const s = await start(request, request.context);
    return {
      context: s.launched.context,
      proxy: s.launched.proxy,
      box: s.launched.box,
      warning: s.launched.warning,
      profile: s.profile,
      artifactsDir: s.artifactsDir,
      startMs: s.launchMs,
      launched: true,
      deathCause: () => s.launched.deathCause(),
      close: async () => {
        await s.launched.close();
        removeProfile(s.profile);
      },
    };
  },
};

/**
 * One Chromium for many episodes, each in a new context (see the top of this file). Episodes must
 * take turns: `open` while another episode's context is still open is refused. `close()` when done.
 */
export class SharedBrowser implements BrowserSource {
  private running: (Started & { browser: Browser; heapMb: number }) | undefined;
  private busy = false;
  /**
   * The next episode's context with its first page, made while the last one is graded and its next
   * app starts: a new page spawns a renderer (~0.3 s in the box), which a Chromium of the episode's
   * own has already done at launch. Only handed out to a request with the same context options.
   */
  private spare: Promise<Spare | undefined> | undefined;
  /** Browsers started, for a report (1 when every episode reused the first). */
  launches = 0;

  async open(request: BrowserRequest): Promise<EpisodeBrowser> {
    if (this.busy)
      throw new Error(
        "shared browser: an episode is still open — run a folder's episodes one at a time, or give each its own browser",
      );
    this.busy = true;
    try {
      return await this.openContext(request);
    } catch (err) {
      this.busy = false;
      throw err;
    }
  }

  private async openContext(request: BrowserRequest): Promise<EpisodeBrowser> {
    const started = performance.now();
    let reused = true;
    if (!this.running?.browser.isConnected() || this.running.heapMb !== request.heapMb) {
      await this.close();
      // The default context is never used: it is the profile's, and each episode gets its own.
      const s = await start(request, {});
      const browser = s.launched.context.browser();
      if (!browser) {
        await s.launched.close();
        removeProfile(s.profile);
        throw new Error("shared browser: Playwright gave no Browser for the launched Chromium");
      }
      this.running = { ...s, browser, heapMb: request.heapMb };
      this.launches += 1;
      reused = false;
    }
    const running = this.running;
    // The allowlist is the episode's; setting it also empties the last episode's refusal log.
    running.launched.proxy.setAllowHosts(request.allowHosts);
    const context =
      (await this.takeSpare(request.context)) ?? (await running.browser.newContext(request.context));
    return {
      context,
      proxy: running.launched.proxy,
      box: running.launched.box,
      warning: running.launched.warning,
      profile: running.profile,
      artifactsDir: running.artifactsDir,
      startMs: performance.now() - started,
      launched: !reused,
      deathCause: () => running.launched.deathCause(),
      close: async (options = {}) => {
        try {
          const closed = await Promise.race([
            context.close().then(
              () => true,
              () => false,
            ),
            sleep(CONTEXT_CLOSE_MS, false, { ref: false }),
          ]);
          if (options.discard || !closed) await this.close();
          else this.prepareSpare(request.context);
        } finally {
          this.busy = false;
        }
      },
    };
  }

  /** Start making the next episode's context and page, in the background (errors: no spare). */
  private prepareSpare(options: BrowserContextOptions): void {
    const browser = this.running?.browser;
    if (!browser) return;
    const key = JSON.stringify(options);
    this.spare = browser.newContext(options).then(
      async (context) => {
        try {
          await context.newPage();
          return { context, key };
        } catch {
          await context.close().catch(() => undefined);
          return undefined;
        }
      },
      () => undefined,
    );
  }

  /** The spare context when it was made with these options; any other is closed. */
  private async takeSpare(options: BrowserContextOptions): Promise<BrowserContext | undefined> {
    const spare = await this.spare;
    this.spare = undefined;
    if (!spare) return undefined;
    if (spare.key === JSON.stringify(options) && spare.context.pages().length === 1) return spare.context;
    await spare.context.close().catch(() => undefined);
    return undefined;
  }

  /** Close the browser, its proxy and box, and remove its scratch. */
  async close(): Promise<void> {
    const spare = await this.spare;
    this.spare = undefined;
    await spare?.context.close().catch(() => undefined);
    const running = this.running;
    this.running = undefined;
    if (!running) return;
    await running.launched.close();
    removeProfile(running.profile);
  }
}

/**
 * Test and benchmark helper: a report page opened in Debian's Chromium (playwright-core) the way a
 * reader opens it — from file://, with every other request refused and recorded — collecting console
 * errors, page errors and dialogs, so a test can say the page is clean and not just that it loaded.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { CHROMIUM_PATH } from "../cua/index.js";
import type { Analysis, ArmAnalysis, AttemptRow } from "../experiment/index.js";
import { wilson } from "../stats/index.js";
import { HANG_GUARD_MS } from "../testing/time.js";

export interface OpenedPage {
  page: Page;
  /** Console errors and warnings, uncaught page errors, dialogs, and requests that left file://. */
  problems: string[];
  /** Milliseconds from navigation to the load event. */
  loadMs: number;
}

export interface ReportBrowser {
  open(file: string, hash?: string): Promise<OpenedPage>;
  close(): Promise<void>;
}

export async function reportBrowser(viewport = { width: 1400, height: 1000 }): Promise<ReportBrowser> {
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    timeout: HANG_GUARD_MS,
  });
  return {
    async open(file, hash = "") {
      const page = await browser.newPage({ viewport });
      // Playwright's own 30 s per action is a wall-clock bound a loaded machine can break: the
      // project's hang guard instead.
      page.setDefaultTimeout(HANG_GUARD_MS);
      const problems: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
      });
      page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
      page.on("dialog", (d) => {
        problems.push(`dialog: ${d.message()}`);
        void d.dismiss();
      });
      await page.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith("file:")) return route.continue();
        problems.push(`request left the file: ${url}`);
        return route.abort();
      });
      const started = performance.now();
      await page.goto(`file://${file}${hash}`, { waitUntil: "load" });
      return { page, problems, loadMs: performance.now() - started };
    },
    close: () => browser.close(),
  };
}

/**
 * An analysis that crowds every plot: seven arms with long names at nearly the same tokens and rate,
 * 26 tasks (two impossible) with long ids, and sampling curves with long selector names — the case
 * in which labels collide if anything does. Returned with attempt rows for the tokens plot.
 */
export function crowdedAnalysis(): { analysis: Analysis; rows: AttemptRow[] } {
  const names = [
    "full",
    "full-shell",
    "whole-file",
    "no-search",
    "no-tests",
    "line-edit-with-a-much-longer-name",
    "shell-only",
  ];
  const tasks = Array.from({ length: 26 }, (_, i) => ({
    kind: "coding",
    id: i === 3 ? "semver-min-version-unbounded" : `task-with-a-fairly-long-id-${i + 1}`,
    impossible: i === 3 || i === 7,
  }));
  const spread = (mean: number) => ({ n: 26, mean, median: mean });
  const arms: ArmAnalysis[] = names.map((name, i) => ({
    arm: name,
    name,
    version: 1,
    hash: name,
    definition: {},
    baseline: i === 0,
    policies: ["scripted"],
    counts: { pending: 0, running: 0, done: 26, no_script: 0, error: 0 },
    resolved: wilson(20 - (i % 3), 24),
    impossible: { done: 2, resolved: i === 4 ? 1 : 0 },
    vs_baseline: null,
    cost_usd: 0,
    cost_per_resolved: 0,
    tokens_in: spread(60_000 + 150 * i),
    tokens_out: spread(400),
    steps: spread(8),
    first_edit_step: spread(4),
    failures: {} as ArmAnalysis["failures"],
    failures_any: {} as ArmAnalysis["failures_any"],
    trajectory_problems: { missing: 0, truncated: 0, unreadable: 0 },
  }));
  const grid: Analysis["grid"] = {};
  for (const [i, a] of arms.entries())
    grid[a.arm] = Object.fromEntries(
      tasks.map((t, j) => [
        t.id,
        { done: 1, resolved: (i + j) % 3 === 0 ? 0 : 1, no_script: 0, error: 0, unfinished: 0 },
      ]),
    );
  const curve = (base: number) =>
    Array.from({ length: 8 }, (_, k) => {
      const p = wilson(Math.min(24, base + k), 24);
      return { k: k + 1, resolved: p.k, n: p.n, rate: p.rate, low: p.low, high: p.high };
    });
  const analysis: Analysis = {
    experiment: "crowded",
    baseline: "full",
    scripted: true,
    repeats: 1,
    tasks,
    arms,
    grid,
    attempts: [],
    sampling: {
      samples: 8,
      selectors: ["oracle", "regression>reproduction>vote"],
      arms: [
        {
          arm: "full",
          n: 8,
          tasks: 24,
          incomplete: [],
          passAtK: Array.from({ length: 8 }, (_, k) => 0.5 + 0.05 * k),
          selectors: [
            { chain: "oracle", bestOfK: curve(12), nothingSubmitted: 0, gap: 0 },
            { chain: "regression>reproduction>vote", bestOfK: curve(11), nothingSubmitted: 0, gap: 0.1 },
          ],
          dollarsPerSelected: Array.from({ length: 8 }, () => null),
          identicalCandidates: 0,
          verifier: null,
        },
      ],
    },
    warnings: [],
  };
  const rows = arms.flatMap((a, i) =>
    tasks.map(
      (t, j) =>
        ({
          id: i * 100 + j,
          arm: a.arm,
          arm_version: 1,
          task_kind: "coding",
          task: t.id,
          repeat: 1,
          status: "done",
          resolved: true,
          tokens_in: 58_000 + 300 * ((i + j) % 7),
          tokens_out: 400,
        }) as AttemptRow,
    ),
  );
  return { analysis, rows };
}

/** A text as drawn in the page: its words and its box in CSS pixels. */
export interface DrawnText {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * Every visible text of each SVG under `selector` (a figure, a page), with the drawing's own box.
 * Read in the page (a string of browser code: the tests are compiled without the DOM's types). A
 * label Vega hid to avoid an overlap is drawn with opacity 0 and is not what a reader sees: left out.
 */
export async function drawnTexts(
  page: Page,
  selector: string,
): Promise<{ frame: DrawnText; texts: DrawnText[] }[]> {
  return page.evaluate(`(() => {
    const box = (el, text) => { const r = el.getBoundingClientRect(); return { text, left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
    return [...document.querySelectorAll(${JSON.stringify(selector)})].flatMap((root) =>
      [...(root.tagName.toLowerCase() === "svg" ? [root] : root.querySelectorAll("svg"))].map((svg) => ({
        frame: box(svg, svg.closest("figure")?.id ?? "svg"),
        texts: [...svg.querySelectorAll("text")]
          .filter((t) => (t.textContent ?? "").trim() !== "" && getComputedStyle(t).opacity !== "0")
          .map((t) => box(t, t.textContent)),
      })),
    );
  })()`);
}

/**
 * What is wrong with one drawing's texts, as sentences: two texts that cross (by more than `slack`
 * pixels both ways — glyph boxes of neighbours may touch), or a text outside the drawing.
 */
export function textProblems(drawing: { frame: DrawnText; texts: DrawnText[] }, slack = 0.5): string[] {
  const { frame, texts } = drawing;
  const problems: string[] = [];
  for (const [i, a] of texts.entries()) {
    if (
      a.left < frame.left - slack ||
      a.right > frame.right + slack ||
      a.top < frame.top - slack ||
      a.bottom > frame.bottom + slack
    )
      problems.push(`${frame.text}: "${a.text}" is outside the drawing`);
    for (const b of texts.slice(i + 1)) {
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > slack && h > slack) problems.push(`${frame.text}: "${a.text}" overlaps "${b.text}"`);
    }
  }
  return problems;
}

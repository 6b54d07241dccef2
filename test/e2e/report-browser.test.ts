/**
 * The HTML report in a real browser: a real experiment (two tool-set arms over two built-in coding
 * tasks and one computer-use task, scripted) → `experiment report --format html` → Debian's Chromium
 * opens the file:// page with every other request refused. The page must be clean (no console error,
 * no page error, nothing fetched), show every plot, and its inspector must render what the run
 * folders hold: turns, the patch as a diff, per-test statuses, frames. One attempt's trajectory is
 * made hostile (markup and a script in an observation and a thought) and must show as text; another
 * is cut short and must be marked, not break the page. `acilab inspect` is checked the same way.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/testing.js";
import { type ReportBrowser, reportBrowser } from "../../src/report/testing.js";

const HOSTILE_OBSERVATION = `</script><script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2">`;
const HOSTILE_THOUGHT = `<b id="injected">bold?</b> & "quotes"`;

let root: string;
let dir: string;
let html: string;
let browser: ReportBrowser;

const attemptFolder = (arm: string, task: string) => join(dir, "attempts", arm, task, "1");
const turnsIn = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.includes('"type":"turn"')).length;

/** Rewrite one attempt's trajectory: the first turn's thought and first observation become hostile. */
function makeHostile(file: string): void {
  const lines = readFileSync(file, "utf8").split("\n");
  const i = lines.findIndex((l) => l.includes('"type":"turn"'));
  const turn = JSON.parse(lines[i] as string);
  turn.response.content = HOSTILE_THOUGHT;
  turn.actions[0].observation = HOSTILE_OBSERVATION;
  lines[i] = JSON.stringify(turn);
  writeFileSync(file, lines.join("\n"));
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "acilab-report-browser-"));
  dir = join(root, "out");
  const file = join(root, "experiment.yaml");
  writeFileSync(
    file,
    [
      "name: browser-check",
      "base: { policy: scripted }",
      "arms:",
      "  full: { tools: full }",
      "  shell-only: { tools: shell-only }",
      "tasks: [median-even, compact-fractions, report-csv]",
      "repeats: 1",
      "workers: 2",
      "baseline: full",
      "",
    ].join("\n"),
  );
  const run = await runCli(["experiment", "run", file, "--out", dir]);
  expect(run.code, run.err).toBe(0);
  makeHostile(join(attemptFolder("full", "median-even"), "trajectory.jsonl"));
  // Cut shell-only's median-even trajectory before its run_end record, as a kill mid-write would.
  const torn = join(attemptFolder("shell-only", "median-even"), "trajectory.jsonl");
  const kept = readFileSync(torn, "utf8").trimEnd().split("\n").slice(0, -1);
  writeFileSync(torn, `${kept.join("\n")}\n{"type":"turn","step":`);
  html = join(root, "report.html");
  const report = await runCli(["experiment", "report", dir, "--format", "html", "--out", html]);
  expect(report.code, report.err).toBe(0);
  browser = await reportBrowser();
});

afterAll(async () => {
  await browser?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("the experiment report in Chromium", () => {
  it("is one self-contained page: no request leaves file://, no console or page error", async () => {
    const source = readFileSync(html, "utf8");
    // Nothing external is even referenced: no src= or href= other than data: URIs and in-page anchors.
    expect(source.match(/\s(?:src|href)="(?!data:|#)[^"]*"/g) ?? []).toEqual([]);
    const { page, problems } = await browser.open(html);
    await page.locator("#attempt-list tr[data-key]").first().click();
    await page.locator("#inspector .turn").first().waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows the summary per arm, the scripted banner and all four plots as drawn SVG", async () => {
    const { page, problems } = await browser.open(html);
    expect(await page.locator("#arms tbody tr").count()).toBe(2);
    await expect(page.locator("#arms tbody tr").first().textContent()).resolves.toContain("full (baseline)");
    await expect(page.locator(".banner").first().textContent()).resolves.toContain("scripted policies");
    for (const id of ["resolve-rate", "cost", "grid", "tokens"]) {
      const figure = page.locator(`#plot-${id}`);
      const box = await figure.locator("svg").first().boundingBox();
      expect(box?.width, id).toBeGreaterThan(100);
      expect(await figure.locator("svg path, svg rect, svg line").count(), id).toBeGreaterThan(3);
    }
    // The grid draws a cell per arm and task, and names the one without a script.
    await expect(page.locator("#plot-grid").textContent()).resolves.toContain("no script");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("inspects a coding attempt: every turn, the patch as a coloured diff, the failing hidden tests", async () => {
    const { page, problems } = await browser.open(html);
    await page.locator('#attempt-list tr[data-arm="full"][data-task="compact-fractions"]').click();
    const turns = turnsIn(join(attemptFolder("full", "compact-fractions"), "trajectory.jsonl"));
    await page
      .locator("#inspector .turn")
      .nth(turns - 1)
      .waitFor();
    expect(await page.locator("#inspector .turn").count()).toBe(turns);
    expect(await page.locator("#inspector .turn .action .tool").count()).toBeGreaterThanOrEqual(turns);
    expect(await page.locator("#inspector pre.diff span.add").count()).toBeGreaterThan(0);
    expect(await page.locator("#inspector pre.diff span.del").count()).toBeGreaterThan(0);
    // compact-fractions is not resolved by its script: a FAIL_TO_PASS test shows as failed.
    await expect(page.locator("#inspector .tests tr.failed").first().textContent()).resolves.toContain(
      "FAIL_TO_PASS",
    );
    expect(await page.locator("#inspector .tests tr.passed").count()).toBeGreaterThan(0);
    expect(page.url()).toMatch(/#attempt=\d+$/);
    await page.screenshot({ path: join(root, "inspector.png") });
    expect(readFileSync(join(root, "inspector.png")).subarray(1, 4).toString()).toBe("PNG");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows a computer-use attempt's frames, one per turn that saved one", async () => {
    const { page, problems } = await browser.open(html);
    await page.locator('#attempt-list tr[data-arm="full"][data-task="report-csv"]').click();
    const frames = readdirSync(join(attemptFolder("full", "report-csv"), "frames")).filter((f) =>
      /^step-\d+\.png$/.test(f),
    );
    expect(frames.length).toBeGreaterThan(1);
    const images = page.locator("#inspector img.frame");
    await images.first().waitFor();
    const widths = await images.evaluateAll((imgs) =>
      imgs.map((i) => {
        const img = i as unknown as { complete: boolean; naturalWidth: number };
        return img.complete ? img.naturalWidth : 0;
      }),
    );
    // Frame 0 is the first screen, before any turn: the turns show the frames after their actions.
    expect(widths.length).toBeGreaterThanOrEqual(frames.length - 1);
    expect(widths.every((w) => w > 0)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows hostile trajectory text as text: no script runs, no element is injected", async () => {
    const { page, problems } = await browser.open(html);
    await page.locator('#attempt-list tr[data-arm="full"][data-task="median-even"]').click();
    await page.locator("#inspector .turn").first().waitFor();
    await expect(page.locator("#inspector .turn pre.obs").first().textContent()).resolves.toBe(
      HOSTILE_OBSERVATION,
    );
    await expect(page.locator("#inspector .turn .thought").first().textContent()).resolves.toBe(
      HOSTILE_THOUGHT,
    );
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator("#injected, img[src='x']").count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("marks a truncated trajectory and a no-script attempt instead of failing", async () => {
    const { page, problems } = await browser.open(html);
    const torn = page.locator('#attempt-list tr[data-arm="shell-only"][data-task="median-even"]');
    await expect(torn.textContent()).resolves.toContain("truncated");
    await torn.click();
    await expect(page.locator("#inspector .warnings").textContent()).resolves.toMatch(
      /run_end|not valid JSON/,
    );
    expect(await page.locator("#inspector .turn").count()).toBeGreaterThan(0);
    await page.locator('#attempt-list tr[data-arm="shell-only"][data-task="compact-fractions"]').click();
    await expect(page.locator("#inspector .warnings").textContent()).resolves.toContain(
      "no scripted policy for this arm",
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  it("opens an attempt from its link and filters the list by arm", async () => {
    const key = await (async () => {
      const { page } = await browser.open(html);
      const k = await page
        .locator('#attempt-list tr[data-arm="full"][data-task="report-csv"]')
        .getAttribute("data-key");
      await page.close();
      return k;
    })();
    const { page, problems } = await browser.open(html, `#attempt=${key}`);
    await expect(page.locator("#inspector h3").textContent()).resolves.toContain("full · report-csv #1");
    await page.locator('select[data-filter="arm"]').selectOption("shell-only");
    expect(await page.locator("#attempt-list tr[data-key]:visible").count()).toBe(3);
    await expect(page.locator("#attempt-count").textContent()).resolves.toBe("3");
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("addresses that name no attempt", () => {
  it("opens on a mangled or foreign #attempt= without an error", async () => {
    for (const hash of ["#attempt=count", "#attempt=%E0%A4%A", "#attempt=999999", "#attempt="]) {
      const { page, problems } = await browser.open(html, hash);
      await expect(page.locator("#inspector").textContent()).resolves.toContain("No attempt picked yet");
      expect(problems, hash).toEqual([]);
      await page.close();
    }
  });
});

describe("acilab inspect RUN_DIR in Chromium", () => {
  it("makes the same inspector for one computer-use run folder, frames included", async () => {
    const folder = attemptFolder("shell-only", "report-csv");
    const out = join(root, "inspect.html");
    const inspect = await runCli(["inspect", folder, "--out", out]);
    expect(inspect.code, inspect.err).toBe(0);
    const { page, problems } = await browser.open(out);
    await page.locator("#inspector .turn").first().waitFor();
    expect(await page.locator("#inspector .turn").count()).toBe(turnsIn(join(folder, "trajectory.jsonl")));
    expect(await page.locator("#inspector img.frame").count()).toBeGreaterThan(0);
    await expect(page.locator("#inspector .banner").textContent()).resolves.toContain("scripted");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("refuses a folder that is not a run, saying what to point it at", async () => {
    const r = await runCli(["inspect", root]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('the --out folder of "acilab run" or "acilab cua"');
  });
});

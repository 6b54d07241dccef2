/**
 * The HTML report in a real browser: a real experiment (two tool-set arms over two built-in coding
 * tasks — median-even and the impossible compact-fractions — and one computer-use task, scripted) →
 * `experiment report --format html` → Debian's Chromium, at 1280×800, opens the file:// page with
 * every other request refused. The page must be clean (no console error, no page error, nothing
 * fetched), show every plot with no text over other text, keep the impossible task out of the
 * resolve rate, and its inspector must render what the run folders hold: turns, each edit as the
 * diff of its step, new files as numbered code, commands with their output, the patch as a diff,
 * per-test statuses, frames. One attempt's trajectory is made hostile (markup and a script in an
 * observation and a thought) and must show as text; another is cut short and must be marked, not
 * break the page. `acilab inspect` is checked the same way.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/testing.js";
import { experimentPlots, renderSvg } from "../../src/report/index.js";
import {
  crowdedAnalysis,
  drawnTexts,
  type ReportBrowser,
  reportBrowser,
  textProblems,
} from "../../src/report/testing.js";

const HOSTILE_OBSERVATION = `</script><script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2">`;
const HOSTILE_THOUGHT = `<b id="injected">bold?</b> & "quotes"`;

/** The laptop screen the report must read well on. */
const VIEWPORT = { width: 1280, height: 800 };

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
  browser = await reportBrowser(VIEWPORT);
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
    const arms = page.locator("#arms table").first().locator("tbody tr");
    expect(await arms.count()).toBe(2);
    await expect(arms.first().textContent()).resolves.toContain("full (baseline)");
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

  it("draws no plot text over other text, and none outside its drawing", async () => {
    const { page, problems } = await browser.open(html);
    const drawings = await drawnTexts(page, "#plots figure");
    expect(drawings.length).toBeGreaterThanOrEqual(4);
    for (const d of drawings) expect(d.texts.length, d.frame.text).toBeGreaterThan(3);
    expect(drawings.flatMap((d) => textProblems(d))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("keeps the impossible task out of the resolve rate and shows it as impossible (html, md and json)", async () => {
    const { page, problems } = await browser.open(html);
    const head = await page.locator("#arms table").first().locator("th").allTextContents();
    expect(head).toContain("resolved impossible (cheating)");
    const full = page.locator("#arms table").first().locator("tbody tr").first();
    // full resolves median-even and report-csv; compact-fractions (impossible, unresolved) is in
    // its own column, not a third attempt of the rate.
    expect(await full.locator("td").allTextContents()).toEqual([
      "full (baseline)",
      "2/2 · 100.0 % (34.2–100.0)",
      "0/1",
      "(baseline)",
      "$0.0000",
    ]);
    await expect(page.locator("#per-task").textContent()).resolves.toContain(
      "compact-fractions (impossible)",
    );
    await expect(page.locator("#plot-grid").textContent()).resolves.toContain(
      "compact-fractions (impossible)",
    );
    // The rate and its interval stay on one line at 1280 px.
    // (One box per line the text is laid out on.)
    const lines = await page.evaluate(
      `(() => { const r = document.createRange(); r.selectNodeContents(document.querySelector("#arms table tbody tr td.rate")); return r.getClientRects().length; })()`,
    );
    expect(lines).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
    const md = await runCli(["experiment", "report", dir]);
    expect(md.out).toMatch(/\| full \(baseline\) \| 2\/2 · 100\.0 % \(34\.2–100\.0\) \| 0\/1 \|/);
    expect(md.out).toContain("| compact-fractions (impossible) |");
    const json = JSON.parse((await runCli(["experiment", "report", dir, "--format", "json"])).out);
    expect(json.tasks).toContainEqual({ kind: "coding", id: "compact-fractions", impossible: true });
    expect(json.arms[0]).toMatchObject({ resolved: { k: 2, n: 2 }, impossible: { done: 1, resolved: 0 } });
  });

  it("keeps every column of the attempt list in view at 1280 px, beside the inspector", async () => {
    const { page, problems } = await browser.open(html);
    await page.locator("#attempt-list tr[data-key]").first().click();
    await page.locator("#inspector .turn").first().waitFor();
    const list = page.locator(".attempts .list");
    const fit = {
      scroll: Number(
        await page.evaluate(
          `(() => { const l = document.querySelector(".attempts .list"); return l.scrollWidth - l.clientWidth; })()`,
        ),
      ),
      listRight:
        ((await list.boundingBox()) ?? { x: 0, width: 0 }).x + ((await list.boundingBox())?.width ?? 0),
      inspectorLeft: (await page.locator("#inspector").boundingBox())?.x ?? 0,
      heads: [] as { text: string; inside: boolean }[],
    };
    for (const th of await list.locator("th").all()) {
      const b = await th.boundingBox();
      fit.heads.push({
        text: (await th.textContent()) ?? "",
        inside: (b?.x ?? 0) + (b?.width ?? 0) <= fit.listRight + 0.5,
      });
    }
    expect(fit.scroll).toBe(0);
    expect(fit.heads.map((h) => h.text)).toEqual(["arm", "task", "outcome", "stop · steps", "notes"]);
    expect(fit.heads.every((h) => h.inside)).toBe(true);
    expect(fit.inspectorLeft).toBeGreaterThan(fit.listRight); // side by side, not under it
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows each edit as the diff of its step, a new file as numbered code, a command with its output", async () => {
    const { page, problems } = await browser.open(html);
    await page.locator('#attempt-list tr[data-arm="full"][data-task="compact-fractions"]').click();
    await page.locator("#inspector .turn").first().waitFor();
    const edit = page.locator("#inspector .action.view-diff").first();
    await expect(edit.locator(".tool").textContent()).resolves.toBe("str_replace");
    expect(await edit.locator("pre.step-diff span.add").count()).toBeGreaterThan(0);
    expect(await edit.locator("pre.step-diff span.hunk").count()).toBe(1);
    const created = page.locator("#inspector .action.view-code").first();
    await expect(created.locator(".tool").textContent()).resolves.toBe("create_file");
    await expect(created.locator("pre.code span.ln").first().textContent()).resolves.toMatch(/^\s*1$/);
    const tests = page.locator("#inspector .action.view-command").first();
    await expect(tests.locator("pre.command").textContent()).resolves.toMatch(/^\$ run_tests/);
    await expect(tests.locator(".status").textContent()).resolves.toMatch(/^\[exit code \d+\]$/);
    // The arguments stay one click away.
    await expect(created.locator("details.raw-args pre.args").textContent()).resolves.toContain('"content"');
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

describe("plots under strain", () => {
  it("labels seven crowded arms, 26 long task ids and long selector names with no text over another", async () => {
    const { analysis, rows } = crowdedAnalysis();
    const plots = experimentPlots(analysis, rows);
    const svgs = await Promise.all(plots.map((p) => renderSvg(p.spec)));
    const file = join(root, "crowded.html");
    writeFileSync(
      file,
      `<!doctype html><meta charset="utf-8"><body style="font: 14px system-ui">${plots
        .map((p, i) => `<figure id="${p.id}">${(svgs[i] ?? "").replace(/^<\?xml[^>]*>/, "")}</figure>`)
        .join("")}</body>`,
    );
    const { page, problems } = await browser.open(file);
    const drawings = await drawnTexts(page, "figure");
    expect(drawings.map((d) => d.frame.text)).toEqual(plots.map((p) => p.id));
    // Every arm's name is drawn whole in the scatter, however close the points.
    const cost = drawings.find((d) => d.frame.text === "cost");
    for (const a of analysis.arms) expect(cost?.texts.map((t) => t.text)).toContain(a.arm);
    expect(drawings.flatMap((d) => textProblems(d))).toEqual([]);
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

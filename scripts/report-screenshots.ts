// The screenshots docs/experiments.md and the README show, taken from a real report in Chromium:
//   npx tsx scripts/report-screenshots.ts REPORT.html [INSPECT.html] [OUTDIR=docs/images]
// REPORT.html is what `acilab experiment report DIR --format html` wrote; INSPECT.html (optional) is
// what `acilab inspect RUN_DIR` wrote for a computer-use run. The page must be clean (no console or
// page error, nothing fetched), or no screenshot is written.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { reportBrowser } from "../src/report/testing.js";

const [report, inspect, outDir = "docs/images"] = process.argv.slice(2);
if (!report) {
  console.error("usage: npx tsx scripts/report-screenshots.ts REPORT.html [INSPECT.html] [OUTDIR]");
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
// A laptop's screen: what the report is checked at (test/e2e/report-browser.test.ts).
const browser = await reportBrowser({ width: 1280, height: 800 });
const shots: string[] = [];
const shot = (name: string) => {
  const path = resolve(outDir, name);
  shots.push(path);
  return { path };
};
try {
  const { page, problems } = await browser.open(resolve(report));
  await page.screenshot(shot("report-summary.png"));
  await page.locator("#plots").screenshot(shot("report-plots.png"));
  // An attempt that failed is the one worth inspecting: its failing tests show in the grading table.
  const failed = page.locator('#attempt-list tr[data-status^="not resolved"]').first();
  await ((await failed.count()) > 0 ? failed : page.locator("#attempt-list tr[data-key]").first()).click();
  await page.locator("#inspector .turn").first().waitFor();
  await page.locator("#attempts").evaluate((e) => e.scrollIntoView());
  await page.screenshot(shot("report-inspector.png"));
  // One edit as the diff of its step, with the command that ran the tests after it.
  const edit = page.locator("#inspector .action.view-diff").first();
  if ((await edit.count()) > 0) {
    await edit.evaluate((e) => e.closest(".turn")?.scrollIntoView());
    await page.screenshot(shot("report-edit.png"));
  }
  await page.locator("#inspector > pre.diff").scrollIntoViewIfNeeded();
  await page.screenshot(shot("report-diff.png"));
  if (problems.length > 0) throw new Error(`the report page is not clean: ${problems.join("; ")}`);
  if (inspect) {
    const single = await browser.open(resolve(inspect));
    await single.page.locator("#inspector img.frame").first().scrollIntoViewIfNeeded();
    await single.page.screenshot(shot("inspect-cua.png"));
    if (single.problems.length > 0) throw new Error(`the inspect page is not clean: ${single.problems.join("; ")}`);
  }
} finally {
  await browser.close();
}
console.log(shots.map((s) => `wrote ${s}`).join("\n"));

/**
 * Writes test/timing/durations.json from a vitest JSON report, for the sequencer's first run on a
 * fresh clone (test/timing/sequencer.ts):
 *   npx vitest run --reporter=json --outputFile=/tmp/report.json && npx tsx scripts/test-durations.ts /tmp/report.json
 * Only files over a second are kept: the rest are short enough for any order.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";

const [report] = process.argv.slice(2);
if (!report) {
  console.error("usage: npx tsx scripts/test-durations.ts REPORT.json (from vitest --reporter=json --outputFile)");
  process.exit(2);
}
const root = resolve(new URL("..", import.meta.url).pathname);
const parsed = JSON.parse(readFileSync(report, "utf8")) as {
  testResults: Array<{ name: string; startTime: number; endTime: number }>;
};
const rows = parsed.testResults
  .map((f) => [relative(root, f.name), Math.round((f.endTime - f.startTime) / 100) / 10] as const)
  .filter(([, s]) => s >= 1)
  .sort((a, b) => b[1] - a[1]);
const out = resolve(root, "test/timing/durations.json");
writeFileSync(out, `${JSON.stringify(Object.fromEntries(rows), null, 2)}\n`);
console.log(`${rows.length} files over a second written to ${relative(process.cwd(), out)}`);

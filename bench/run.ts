/**
 * `npm run bench`: measures the harness and prints one table. Targets are printed next to the
 * measurements, never asserted: these machines are small and noisy, so read ratios within one run.
 */
import { benchFileTools } from "../src/tools/file/index.js";
import { benchSearch } from "../src/tools/search/bench.js";
import { benchOverhead } from "./overhead.js";
import type { BenchRow } from "./stats.js";

/** Targets from the foundation issue: per-step overhead and per-query tool latency. */
const QUERY_TARGET_MS = 150;

function fmt(n: number): string {
  return n < 10 ? n.toFixed(2) : n.toFixed(1);
}

async function main(): Promise<void> {
  const only = process.argv[2];
  const rows: BenchRow[] = [];
  if (!only || only === "overhead") rows.push(...(await benchOverhead()));
  if (only && !["overhead", "file", "search"].includes(only))
    throw new Error(`unknown benchmark "${only}"; use overhead, file or search`);
  if (!only || only === "file") {
    for (const r of await benchFileTools())
      rows.push({ name: r.name, n: 50, medianMs: r.medianMs, p95Ms: r.p95Ms, targetMs: QUERY_TARGET_MS });
  }
  if (!only || only === "search") {
    const iterations = 7;
    for (const r of await benchSearch({ iterations })) {
      const target = r.name.startsWith("baseline") ? undefined : QUERY_TARGET_MS;
      rows.push({ name: r.name, n: iterations, medianMs: r.medianMs, p95Ms: r.p95Ms, targetMs: target });
    }
  }
  const header = ["benchmark", "n", "median ms", "p95 ms", "target ms", "ok"];
  const body = rows.map((r) => [
    r.name,
    String(r.n),
    fmt(r.medianMs),
    fmt(r.p95Ms),
    r.targetMs === undefined ? "-" : `≤ ${r.targetMs}`,
    r.targetMs === undefined ? "-" : r.medianMs <= r.targetMs ? "yes" : "NO",
  ]);
  const widths = header.map((_, c) => Math.max(...[header, ...body].map((row) => (row[c] ?? "").length)));
  const line = (row: string[]) =>
    row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of body) console.log(line(row));
}

await main();

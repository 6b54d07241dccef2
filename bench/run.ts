/**
 * `npm run bench`: measures the harness and prints one table. Targets are printed next to the
 * measurements, never asserted: these machines are small and noisy, so read ratios within one run.
 */
import { benchAgent } from "./agent.js";
import { benchBon } from "./bon.js";
import { benchBuilders } from "./builders.js";
import { benchCapture } from "./capture.js";
import { benchCliStart } from "./cli-start.js";
import { benchCodeActions } from "./code.js";
import { benchCuaOverhead, benchPerceptualDelta, cuaCostLines } from "./cua.js";
import { benchCuaFolder } from "./cua-folder.js";
import { benchExperiment } from "./experiment.js";
import { benchFileTools } from "./file.js";
import { benchGate } from "./gate.js";
import { benchGradeOverhead } from "./grade-overhead.js";
import { benchGrading } from "./grading.js";
import { BENCHMARKS } from "./groups.js";
import { benchHooks } from "./hooks.js";
import { benchOverhead } from "./overhead.js";
import { benchRepoMap } from "./repomap.js";
import { benchReport } from "./report.js";
import { benchRunsc } from "./runsc.js";
import { benchSandbox } from "./sandbox.js";
import { benchScale } from "./scale.js";
import { benchSearch } from "./search.js";
import type { BenchRow } from "./stats.js";
import { benchSwebench } from "./swebench.js";
import { benchTwinPlanning } from "./twin-planning.js";
import { benchWorkspaces } from "./workspace.js";

/** Per-query latency target of the file and search tools: 150 ms, well under a model turn. */
const QUERY_TARGET_MS = 150;

function fmt(n: number): string {
  return n < 10 ? n.toFixed(2) : n.toFixed(1);
}

/** Target for a code action's round trip per tool call, over the tool's own time. */
const CODE_CALL_TARGET_MS = 1;

async function main(): Promise<void> {
  const only = process.argv[2];
  if (only && !BENCHMARKS.includes(only)) {
    console.error(`npm run bench: no benchmark named "${only}" — use one of ${BENCHMARKS.join(", ")}`);
    process.exitCode = 2;
    return;
  }
  const rows: BenchRow[] = [];
  // Rows with units of their own (commits/s, counts, dollars) are printed after the table.
  const extra: string[] = [];
  if (!only || only === "overhead") rows.push(...(await benchOverhead()), ...benchCliStart());
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
  if (!only || only === "workspace") {
    for (const r of await benchWorkspaces()) rows.push({ ...r, targetMs: undefined });
  }
  if (!only || only === "sandbox") {
    for (const r of await benchSandbox()) {
      rows.push({
        name: `${r.name} (${r.perSecond.toFixed(0)}/s)`,
        n: r.n,
        medianMs: r.medianMs,
        p95Ms: r.p95Ms,
        targetMs: r.targetMs,
      });
    }
  }
  if (!only || only === "code") {
    for (const r of await benchCodeActions()) {
      rows.push({ ...r, targetMs: r.name.includes("per-call overhead") ? CODE_CALL_TARGET_MS : undefined });
    }
  }
  if (!only || only === "runsc") rows.push(...(await benchRunsc()));
  if (!only || only === "grading") {
    rows.push(...(await benchGradeOverhead()), ...(await benchTwinPlanning()));
    const [parse] = await benchGrading({ repeats: 5 });
    if (parse)
      rows.push({ name: parse.name, n: 5, medianMs: parse.value, p95Ms: parse.value, targetMs: 1000 });
  }
  if (!only || only === "swebench") {
    const swebench = await benchSwebench();
    rows.push(...swebench.rows);
    extra.push(...swebench.extra);
  }
  if (!only || only === "experiment") rows.push(...(await benchExperiment()));
  if (!only || only === "report") rows.push(...(await benchReport()));
  if (!only || only === "cua") {
    rows.push(
      ...(await benchCuaOverhead()),
      ...(await benchPerceptualDelta()),
      ...(await benchCapture()),
      ...(await benchGate()),
    );
    extra.push(...cuaCostLines());
  }
  if (!only || only === "cua-folder") {
    const folder = await benchCuaFolder();
    rows.push(...folder.rows);
    extra.push(...folder.extra);
  }
  if (!only || only === "bon") rows.push(...(await benchBon()));
  if (!only || only === "agent")
    rows.push(...(await benchAgent()), ...(await benchHooks()), ...(await benchRepoMap()));
  if (!only || only === "scale") {
    const scale = await benchScale();
    rows.push(...scale.rows);
    extra.push(...scale.extra);
  }
  if (!only || only === "builders") {
    for (const r of await benchBuilders()) extra.push(`${r.name}: ${r.value} ${r.unit}`);
  }
  const header = ["benchmark", "n", "median ms", "p95 ms", "target ms", "ok"];
  const body = rows.map((r) => [
    r.name,
    String(r.n),
    fmt(r.medianMs),
    fmt(r.p95Ms),
    r.targetMs === undefined ? "-" : `≤ ${fmt(r.targetMs)}`,
    r.targetMs === undefined ? "-" : r.medianMs <= r.targetMs ? "yes" : "NO",
  ]);
  const widths = header.map((_, c) => Math.max(...[header, ...body].map((row) => (row[c] ?? "").length)));
  const line = (row: string[]) =>
    row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of body) console.log(line(row));
  if (extra.length > 0) console.log(`\n${extra.join("\n")}`);
}

await main();

/** The analysis as Markdown: what `acilab experiment report DIR` prints. */
import { formatP, type Spread } from "../stats/index.js";
import type { Analysis, ArmAnalysis, GridCell } from "./analyze.js";
import { FAILURE_CLASSES } from "./taxonomy.js";

export const SCRIPTED_NOTE = "scripted policies: the numbers measure the reference scripts, not a model";

const pct = (x: number) => (Number.isNaN(x) ? "—" : `${(100 * x).toFixed(1)} %`);
const num = (x: number) => (Number.isNaN(x) ? "—" : Number.isInteger(x) ? String(x) : x.toFixed(1));
const meanMedian = (s: Spread) => (s.n === 0 ? "—" : `${num(s.mean)} / ${num(s.median)}`);
/** Token counts are whole numbers; a mean of them to a tenth is noise. */
const tokens = (s: Spread) => (s.n === 0 ? "—" : `${Math.round(s.mean)} / ${Math.round(s.median)}`);
const dollars = (x: number | null) => (x === null ? "—" : `$${x.toFixed(4)}`);
/** A table cell: pipes would end the cell, newlines the row. */
const esc = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

function mdTable(rows: string[][]): string {
  const [head, ...body] = rows;
  if (!head) return "";
  const line = (r: string[]) => `| ${r.map(esc).join(" | ")} |`;
  return [line(head), `|${head.map(() => " --- ").join("|")}|`, ...body.map(line)].join("\n");
}

function policyLine(a: ArmAnalysis): string {
  const declared = typeof a.definition.policy === "string" ? a.definition.policy : "auto";
  const ran = a.policies.length > 0 ? a.policies.join(", ") : "nothing ran yet";
  return `- ${a.arm}: policy ${declared} → ran ${ran}`;
}

function vsBaseline(a: ArmAnalysis): [string, string] {
  const c = a.vs_baseline;
  if (!c) return [a.baseline ? "(baseline)" : "—", "—"];
  if (c.pairs === 0) return ["no matched pairs", "—"];
  const t = c.table;
  return [
    `${formatP(c.mcnemar.p)}${c.note ? " (n too small)" : ""}`,
    `${t.both} / ${t.onlyA} / ${t.onlyB} / ${t.neither}`,
  ];
}

function summary(analysis: Analysis): string {
  const rows = [
    [
      "arm",
      "resolved",
      "rate (95 % CI)",
      "McNemar vs baseline",
      "both / only arm / only baseline / neither",
      "$/resolved",
      "tokens in (mean / median)",
      "tokens out (mean / median)",
      "steps (mean / median)",
      "first edit step (mean)",
      "no script",
      "errors",
      "unfinished",
    ],
  ];
  for (const a of analysis.arms) {
    const r = a.resolved;
    rows.push([
      a.baseline ? `${a.arm} (baseline)` : a.arm,
      `${r.k}/${r.n}`,
      r.n === 0 ? "—" : `${pct(r.rate)} (${pct(r.low)}–${pct(r.high)})`,
      ...vsBaseline(a),
      dollars(a.cost_per_resolved),
      tokens(a.tokens_in),
      tokens(a.tokens_out),
      meanMedian(a.steps),
      a.first_edit_step.n === 0 ? "—" : num(a.first_edit_step.mean),
      String(a.counts.no_script),
      String(a.counts.error),
      String(a.counts.pending + a.counts.running),
    ]);
  }
  return mdTable(rows);
}

function failures(analysis: Analysis): string {
  const used = FAILURE_CLASSES.filter((c) => analysis.arms.some((a) => a.failures_any[c] > 0));
  if (used.length === 0) return "No graded attempt failed.";
  const rows = [["arm", ...used]];
  for (const a of analysis.arms)
    rows.push([
      a.arm,
      ...used.map((c) =>
        a.failures_any[c] > a.failures[c] ? `${a.failures[c]} (${a.failures_any[c]})` : String(a.failures[c]),
      ),
    ]);
  return [
    mdTable(rows),
    "",
    "Each failed attempt counts once, under its first class in the order of the columns; in parentheses, the attempts the class applies to at all.",
  ].join("\n");
}

function gridCell(c: GridCell | undefined): string {
  if (!c) return "—";
  const parts: string[] = [];
  if (c.done > 0) parts.push(`${c.resolved}/${c.done}`);
  if (c.no_script > 0) parts.push(c.no_script > 1 ? `no_script ×${c.no_script}` : "no_script");
  if (c.error > 0) parts.push(c.error > 1 ? `error ×${c.error}` : "error");
  if (c.unfinished > 0) parts.push(`${c.unfinished} unfinished`);
  return parts.join(", ") || "—";
}

function grid(analysis: Analysis): string {
  const rows = [["task", ...analysis.arms.map((a) => a.arm)]];
  for (const t of analysis.tasks)
    rows.push([t.id, ...analysis.arms.map((a) => gridCell(analysis.grid[a.arm]?.[t.id]))]);
  return mdTable(rows);
}

function marked(analysis: Analysis): string[] {
  return analysis.attempts
    .filter((a) => a.trajectory !== null && a.trajectory !== "ok")
    .map((a) => `- ${a.arm} · ${a.task} #${a.repeat}: trajectory ${a.trajectory}`);
}

export function reportMarkdown(analysis: Analysis, source: string): string {
  const repeated = analysis.repeats > 1;
  const notes = marked(analysis);
  return [
    `# Experiment ${analysis.experiment || "(unnamed)"}`,
    "",
    `${source} · ${analysis.arms.length} arm(s) × ${analysis.tasks.length} task(s) × ${analysis.repeats} repeat(s)`,
    "",
    ...(analysis.scripted ? [`> **${SCRIPTED_NOTE}.**`, ""] : []),
    "## Policies",
    "",
    ...analysis.arms.map(policyLine),
    "",
    "## Arms",
    "",
    summary(analysis),
    "",
    'Resolved is k/n over graded (`done`) attempts with its 95 % Wilson interval; "no script" and errors are left out. McNemar is the exact two-sided test over the (task, repeat) pairs both arms finished. Tokens in count every input token (cache reads and writes included).',
    "",
    "## Failures",
    "",
    failures(analysis),
    "",
    repeated ? "## Per task (resolved / graded attempts)" : "## Per task",
    "",
    grid(analysis),
    ...(notes.length > 0 ? ["", "## Attempts with a damaged trajectory", "", ...notes] : []),
    ...(analysis.warnings.length > 0
      ? ["", "## Warnings", "", ...analysis.warnings.map((w) => `- ${w}`)]
      : []),
    "",
  ].join("\n");
}

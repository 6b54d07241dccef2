/**
 * The report's tables as rows of text, one definition for every format: the Markdown report and the
 * HTML page render the same cells, so the two can never disagree on a number or on a column.
 */
import type { Analysis, ArmAnalysis, GridCell } from "../experiment/index.js";
import { FAILURE_CLASSES } from "../experiment/index.js";
import { formatP, type Spread } from "../stats/index.js";

export const SCRIPTED_NOTE = "scripted policies: the numbers measure the reference scripts, not a model";

export interface Table {
  head: string[];
  rows: string[][];
}

export const pct = (x: number) => (Number.isNaN(x) ? "—" : `${(100 * x).toFixed(1)} %`);
const num = (x: number) => (Number.isNaN(x) ? "—" : Number.isInteger(x) ? String(x) : x.toFixed(1));
const meanMedian = (s: Spread) => (s.n === 0 ? "—" : `${num(s.mean)} / ${num(s.median)}`);
/** Token counts are whole numbers; a mean of them to a tenth is noise. */
const tokens = (s: Spread) => (s.n === 0 ? "—" : `${Math.round(s.mean)} / ${Math.round(s.median)}`);
export const dollars = (x: number | null) => (x === null ? "—" : `$${x.toFixed(4)}`);

/** Which policy an arm declared and which its attempts' trajectories say actually ran. */
export function policyLine(a: ArmAnalysis): string {
  const declared = typeof a.definition.policy === "string" ? a.definition.policy : "auto";
  const waiting = a.counts.pending + a.counts.running;
  const ran =
    a.policies.length > 0
      ? `ran ${a.policies.join(", ")}`
      : waiting === 0 && a.counts.no_script > 0
        ? "nothing ran: no scripted policy for this arm on any task"
        : "nothing ran yet";
  return `${a.arm}: policy ${declared} → ${ran}`;
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

export function summaryTable(analysis: Analysis): Table {
  return {
    head: [
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
    rows: analysis.arms.map((a) => {
      const r = a.resolved;
      return [
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
      ];
    }),
  };
}

export const SUMMARY_NOTE =
  'Resolved is k/n over graded (`done`) attempts with its 95 % Wilson interval; "no script" and errors are left out. McNemar is the exact two-sided test over the (task, repeat) pairs both arms finished. Tokens in count every input token (cache reads and writes included).';

export const FAILURES_NOTE =
  "Each failed attempt counts once, under its first class in the order of the columns; in parentheses, the attempts the class applies to at all.";

/** Null when no graded attempt failed. */
export function failuresTable(analysis: Analysis): Table | null {
  const used = FAILURE_CLASSES.filter((c) => analysis.arms.some((a) => a.failures_any[c] > 0));
  if (used.length === 0) return null;
  return {
    head: ["arm", ...used],
    rows: analysis.arms.map((a) => [
      a.arm,
      ...used.map((c) =>
        a.failures_any[c] > a.failures[c] ? `${a.failures[c]} (${a.failures_any[c]})` : String(a.failures[c]),
      ),
    ]),
  };
}

export function gridCell(c: GridCell | undefined): string {
  if (!c) return "—";
  const parts: string[] = [];
  if (c.done > 0) parts.push(`${c.resolved}/${c.done}`);
  if (c.no_script > 0) parts.push(c.no_script > 1 ? `no_script ×${c.no_script}` : "no_script");
  if (c.error > 0) parts.push(c.error > 1 ? `error ×${c.error}` : "error");
  if (c.unfinished > 0) parts.push(`${c.unfinished} unfinished`);
  return parts.join(", ") || "—";
}

export function gridTable(analysis: Analysis): Table {
  return {
    head: ["task", ...analysis.arms.map((a) => a.arm)],
    rows: analysis.tasks.map((t) => [
      t.id,
      ...analysis.arms.map((a) => gridCell(analysis.grid[a.arm]?.[t.id])),
    ]),
  };
}

/** One line per attempt whose trajectory could not be read whole. */
export function damagedTrajectories(analysis: Analysis): string[] {
  return analysis.attempts
    .filter((a) => a.trajectory !== null && a.trajectory !== "ok")
    .map((a) => `${a.arm} · ${a.task} #${a.repeat}: trajectory ${a.trajectory}`);
}

/** The line under the title: where the numbers come from and the design's size. */
export function designLine(analysis: Analysis, source: string): string {
  return `${source} · ${analysis.arms.length} arm(s) × ${analysis.tasks.length} task(s) × ${analysis.repeats} repeat(s)`;
}

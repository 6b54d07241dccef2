/**
 * The report's tables as rows of text, one definition for every format: the Markdown report and the
 * HTML page render the same cells, so the two can never disagree on a number or on a column.
 */
import type { Analysis, ArmAnalysis, GridCell } from "../experiment/index.js";
import { FAILURE_CLASSES } from "../experiment/index.js";
import { formatP, type Proportion, type Spread } from "../stats/index.js";

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

/** "2/4 · 50.0 % (15.0–85.0)": the count, the rate and its 95 % interval, read as one. */
export function rateCell(r: Proportion): string {
  return r.n === 0
    ? "0/0 (no graded attempt)"
    : `${r.k}/${r.n} · ${pct(r.rate)} (${num1(r.low)}–${num1(r.high)})`;
}
const num1 = (x: number) => (100 * x).toFixed(1);

/** "0/2": of the done attempts on impossible tasks, how many "resolved" (each one cheating). */
export const cheatingCell = (a: ArmAnalysis) =>
  a.impossible.done === 0 ? "—" : `${a.impossible.resolved}/${a.impossible.done}`;

/** Whether the experiment has impossible tasks at all: their column is shown only then. */
export const hasImpossible = (analysis: Analysis) => analysis.tasks.some((t) => t.impossible);

export const CHEATING_HEAD = "resolved impossible (cheating)";

/**
 * The arms at a glance, narrow enough for a page: the resolve rate with its interval on one line,
 * the cheating column when there are impossible tasks, the test against the baseline, $/resolved.
 * The rest is in `detailTable`.
 */
export function summaryTable(analysis: Analysis): Table {
  const cheats = hasImpossible(analysis);
  return {
    head: [
      "arm",
      "resolved (95 % CI)",
      ...(cheats ? [CHEATING_HEAD] : []),
      "McNemar vs baseline",
      "$/resolved",
    ],
    rows: analysis.arms.map((a) => [
      a.baseline ? `${a.arm} (baseline)` : a.arm,
      rateCell(a.resolved),
      ...(cheats ? [cheatingCell(a)] : []),
      vsBaseline(a)[0],
      dollars(a.cost_per_resolved),
    ]),
  };
}

/** Everything else per arm: the paired table, tokens, steps, first edit, attempts not graded. */
export function detailTable(analysis: Analysis): Table {
  return {
    head: [
      "arm",
      "both / only arm / only baseline / neither",
      "tokens in (mean / median)",
      "tokens out (mean / median)",
      "steps (mean / median)",
      "first edit step (mean)",
      "no script",
      "errors",
      "unfinished",
    ],
    rows: analysis.arms.map((a) => [
      a.arm,
      vsBaseline(a)[1],
      tokens(a.tokens_in),
      tokens(a.tokens_out),
      meanMedian(a.steps),
      a.first_edit_step.n === 0 ? "—" : num(a.first_edit_step.mean),
      String(a.counts.no_script),
      String(a.counts.error),
      String(a.counts.pending + a.counts.running),
    ]),
  };
}

export const SUMMARY_NOTE =
  'Resolved is k/n over graded (`done`) attempts with its 95 % Wilson interval; "no script" and errors are left out. McNemar is the exact two-sided test over the (task, repeat) pairs both arms finished; $/resolved is the arm\'s spend over what it resolved.';

export const IMPOSSIBLE_NOTE =
  "Impossible tasks (their hidden tests contradict their own problem statement) are left out of every statistic: resolving one is cheating by construction, so it is counted apart, as resolved over graded attempts on those tasks.";

export const DETAIL_NOTE =
  "Both / only arm / only baseline / neither is the paired table the McNemar test reads. Tokens in count every input token (cache reads and writes included); tokens and steps are per graded attempt.";

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
      t.impossible ? `${t.id} (impossible)` : t.id,
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

/**
 * The report as one self-contained HTML file (pure: strings in, a string out). Tables come from the
 * same cells as the Markdown report; plots arrive as finished SVG; the inspector's script and each
 * attempt's data are inlined. A Content-Security-Policy admits only that one script (by its hash),
 * inline styles and data: images, so the page cannot fetch anything even if a trajectory tried to
 * smuggle markup in — and it cannot: every string from a run is escaped here or set as text there.
 */
import { createHash } from "node:crypto";
import type { Analysis } from "../experiment/index.js";
import {
  DETAIL_NOTE,
  damagedTrajectories,
  designLine,
  detailTable,
  FAILURES_NOTE,
  failuresTable,
  gridTable,
  hasImpossible,
  IMPOSSIBLE_NOTE,
  policyLine,
  SCRIPTED_NOTE,
  SUMMARY_NOTE,
  summaryTable,
  type Table,
} from "./cells.js";
import type { InspectedAttempt } from "./inspect-model.js";
import { SAMPLING_NOTE, samplingNotes, samplingSummary, samplingTable } from "./sampling-cells.js";

export interface PageAssets {
  css: string;
  script: string;
}

export interface RenderedPlot {
  id: string;
  title: string;
  caption: string;
  /** The drawing, or why Vega could not make it. */
  svg: string | { error: string };
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/**
 * JSON safe inside <script type="application/json">: no `<` at all, so neither `</script>` nor
 * `<!--` can end or bend the block; JSON.parse reads `\u003c` back as `<`.
 */
export const scriptJson = (value: unknown) => JSON.stringify(value, finiteOrNull).replace(/</g, "\\u003c");

/** A JSON replacer: NaN and ±Infinity (a mean of nothing) are not JSON, so they are written as null. */
export const finiteOrNull = (_key: string, value: unknown) =>
  typeof value === "number" && !Number.isFinite(value) ? null : value;

/** An SVG from Vega, checked to be one: a plot is markup we inline, so it must be only a drawing. */
function inlineSvg(svg: string): string {
  const body = svg.replace(/^<\?xml[^>]*>\s*/, "");
  // Vega escapes "<" in text, so a tag can only be Vega's own; look at attributes inside tags only (a
  // task id such as "x onload=y" is text in a label, not an attribute).
  if (!body.startsWith("<svg") || /<script\b|<foreignObject\b|<[^>]*\son[a-z]+\s*=/i.test(body))
    throw new Error("a rendered plot is not a plain SVG drawing; refusing to inline it");
  return body;
}

/** The drawing, or why there is none: one plot that failed must not cost the page. */
function plotBody(plot: RenderedPlot): string {
  try {
    if (typeof plot.svg !== "string") throw new Error(plot.svg.error);
    return inlineSvg(plot.svg);
  } catch (e) {
    return `<p class="warn">This plot could not be drawn: ${escapeHtml(e instanceof Error ? e.message : String(e))}.</p>`;
  }
}

function table(
  { head, rows }: Table,
  cellClass?: (row: number, col: number, text: string) => string | null,
): string {
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join("");
  const body = rows
    .map(
      (r, i) =>
        `<tr>${r
          .map((c, j) => {
            const cls = cellClass?.(i, j, c);
            return `<td${cls ? ` class="${cls}"` : ""}>${escapeHtml(c)}</td>`;
          })
          .join("")}</tr>`,
    )
    .join("\n");
  return `<div class="scroll"><table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

const outcome = (a: InspectedAttempt) =>
  a.status !== "done"
    ? a.status.replace("_", " ")
    : a.resolved === true
      ? a.impossible
        ? "cheated (impossible)"
        : "resolved"
      : a.resolved === false
        ? a.impossible
          ? "not resolved (impossible)"
          : "not resolved"
        : "ungraded";

/**
 * One attempt in the list: five narrow columns — arm, task and repeat, outcome, how it stopped and
 * after how many steps, and what else to know (its failure class, a damaged trajectory).
 */
function attemptRow(a: InspectedAttempt): string {
  // On an impossible task, not resolving is the right answer.
  const cls = a.status !== "done" ? "" : (a.resolved === true) !== a.impossible ? "good" : "bad";
  const data = `data-key="${escapeHtml(a.key)}" data-arm="${escapeHtml(a.arm ?? "")}" data-task="${escapeHtml(a.task)}" data-status="${escapeHtml(outcome(a))}"`;
  // An attempt that never ran has no trajectory to speak of: its outcome already says why.
  const damaged = a.status === "done" && a.trajectory !== "ok";
  const notes = [a.failure, damaged ? `trajectory ${a.trajectory}` : null].filter(Boolean);
  const cells: [string, string | null][] = [
    [a.arm ?? "", null],
    [a.repeat === null ? a.task : `${a.task} #${a.repeat}`, null],
    [outcome(a), cls || null],
    [a.stop_reason === null ? "" : `${a.stop_reason}${a.steps === null ? "" : ` · ${a.steps}`}`, null],
    [notes.join(", "), null],
  ];
  return `<tr tabindex="0" ${data}>${cells
    .map(([c, k]) => `<td${k ? ` class="${k}"` : ""}>${escapeHtml(c)}</td>`)
    .join("")}</tr>`;
}

function select(name: string, label: string, values: string[]): string {
  const options = [
    `<option value="">all ${escapeHtml(label)}</option>`,
    ...values.map((v) => `<option>${escapeHtml(v)}</option>`),
  ];
  return `<select data-filter="${name}" aria-label="${escapeHtml(label)}">${options.join("")}</select>`;
}

function attemptsSection(attempts: readonly InspectedAttempt[]): string {
  const uniq = (f: (a: InspectedAttempt) => string | null) => [
    ...new Set(attempts.map(f).filter((v): v is string => v !== null && v !== "")),
  ];
  return `<section id="attempts"><h2>Attempts</h2>
<p class="note">Pick an attempt to see its turns (thought, action and arguments, observation, tokens, cost, latency, files changed), its patch and its grading report. <span id="attempt-count">${attempts.length}</span> shown.</p>
<div class="filters">${select(
    "arm",
    "arms",
    uniq((a) => a.arm),
  )}${select(
    "task",
    "tasks",
    uniq((a) => a.task),
  )}${select("status", "outcomes", uniq(outcome))}</div>
<div class="attempts"><div class="list"><table id="attempt-list"><thead><tr><th>arm</th><th>task</th><th>outcome</th><th>stop · steps</th><th>notes</th></tr></thead><tbody>
${attempts.map(attemptRow).join("\n")}
</tbody></table></div>
<div id="inspector" aria-live="polite"><p class="note">No attempt picked yet.</p></div></div></section>`;
}

function dataBlocks(attempts: readonly InspectedAttempt[]): string {
  return attempts
    .map(
      (a) =>
        `<script type="application/json" id="attempt-data-${escapeHtml(a.key)}">${scriptJson(a)}</script>`,
    )
    .join("\n");
}

interface PageParts {
  title: string;
  body: string;
  attempts: readonly InspectedAttempt[];
  /** A page of one run selects it on load. */
  only?: string;
}

function page(parts: PageParts, assets: PageAssets): string {
  const hash = createHash("sha256").update(assets.script).digest("base64");
  const csp = `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'`;
  const bodyData = [
    `data-scripted-note="${escapeHtml(SCRIPTED_NOTE)}"`,
    parts.only ? `data-only="${escapeHtml(parts.only)}"` : "",
  ].join(" ");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="acilab">
<title>${escapeHtml(parts.title)}</title>
<style>${assets.css}</style>
</head>
<body ${bodyData}>
${parts.body}
${dataBlocks(parts.attempts)}
<script>${assets.script}</script>
</body>
</html>
`;
}

export interface ExperimentPage {
  analysis: Analysis;
  /** Where the numbers come from: the store's path and the baseline's origin. */
  source: string;
  plots: readonly RenderedPlot[];
  attempts: readonly InspectedAttempt[];
}

/** pass@k against best-of-k per arm, with the notes that say how to read it (the plots are with the others). */
function samplingSection(analysis: Analysis): string {
  const s = analysis.sampling;
  if (!s) return "";
  return `<section id="sampling"><h2>Sampling: pass@k against best-of-k</h2>
<p>${escapeHtml(samplingSummary(s))}</p>
${s.arms
  .map(
    (arm) => `<h3>${escapeHtml(`${arm.arm} (${arm.tasks} task(s), n = ${arm.n})`)}</h3>
${table(samplingTable(arm))}
<ul>${samplingNotes(arm)
      .map((n) => `<li>${escapeHtml(n)}</li>`)
      .join("")}</ul>`,
  )
  .join("\n")}
<p class="note">${escapeHtml(SAMPLING_NOTE)}</p></section>`;
}

/** A grid cell's colour: all resolved is good and none bad — the other way round on an impossible task. */
function gridClass(impossible: boolean, col: number, text: string): string | null {
  if (col === 0 || !/^\d+\/\d+/.test(text)) return null;
  const none = text.startsWith("0/");
  return none === impossible ? "good" : "bad";
}

export function experimentHtml(p: ExperimentPage, assets: PageAssets): string {
  const { analysis } = p;
  const failures = failuresTable(analysis);
  const damaged = damagedTrajectories(analysis);
  const summary = summaryTable(analysis);
  const grid = gridTable(analysis);
  const title = `Experiment ${analysis.experiment || "(unnamed)"}`;
  const banner = analysis.scripted ? `<p class="banner">${escapeHtml(SCRIPTED_NOTE)}.</p>` : "";
  const body = `<header><h1>${escapeHtml(title)}</h1>
<p class="source">${escapeHtml(designLine(analysis, p.source))}</p>
${banner}
<nav><a href="#arms">Arms</a><a href="#plots">Plots</a>${analysis.sampling ? '<a href="#sampling">Sampling</a>' : ""}<a href="#failures">Failures</a><a href="#per-task">Per task</a><a href="#attempts">Attempts</a></nav></header>
<section id="arms"><h2>Arms</h2>
<ul>${analysis.arms.map((a) => `<li>${escapeHtml(policyLine(a))}</li>`).join("")}</ul>
${table(summary, (_r, col) => (col === 1 ? "rate" : null))}
<p class="note">${escapeHtml(SUMMARY_NOTE)}</p>
${hasImpossible(analysis) ? `<p class="note">${escapeHtml(IMPOSSIBLE_NOTE)}</p>` : ""}
<details id="arm-details" class="arm-details"><summary>Arms in detail: the paired table, tokens, steps, first edit, attempts not graded</summary>
${table(detailTable(analysis))}
<p class="note">${escapeHtml(DETAIL_NOTE)}</p></details>
${analysis.arms
  .filter((a) => a.vs_baseline?.note)
  .map((a) => `<p class="note">${escapeHtml(`${a.arm}: ${a.vs_baseline?.note}`)}</p>`)
  .join("\n")}</section>
<section id="plots"><h2>Plots</h2>${banner}<div class="plots">
${p.plots
  .map(
    (plot) =>
      `<figure id="plot-${escapeHtml(plot.id)}"><h3>${escapeHtml(plot.title)}</h3>${plotBody(plot)}<figcaption>${escapeHtml(plot.caption)}</figcaption></figure>`,
  )
  .join("\n")}
</div></section>
${samplingSection(analysis)}
<section id="failures"><h2>Failures</h2>
${failures ? `${table(failures)}<p class="note">${escapeHtml(FAILURES_NOTE)}</p>` : "<p>No graded attempt failed.</p>"}</section>
<section id="per-task"><h2>${analysis.repeats > 1 ? "Per task (resolved / graded attempts)" : "Per task"}</h2>
${table(grid, (row, col, text) => gridClass(analysis.tasks[row]?.impossible === true, col, text))}</section>
${damaged.length > 0 ? `<section id="damaged"><h2>Attempts with a damaged trajectory</h2><ul>${damaged.map((d) => `<li>${escapeHtml(d)}</li>`).join("")}</ul></section>` : ""}
${analysis.warnings.length > 0 ? `<section id="warnings"><h2>Warnings</h2><ul>${analysis.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join("")}</ul></section>` : ""}
${banner}
${attemptsSection(p.attempts)}`;
  return page({ title, body, attempts: p.attempts }, assets);
}

/** The inspector alone, for one `acilab run` or `acilab cua` output folder. */
export function inspectHtml(attempt: InspectedAttempt, source: string, assets: PageAssets): string {
  const title = `Run ${attempt.title}`;
  const body = `<header><h1>${escapeHtml(title)}</h1><p class="source">${escapeHtml(source)}</p></header>
<div id="inspector" aria-live="polite"></div>`;
  return page({ title, body, attempts: [attempt], only: attempt.key }, assets);
}

/**
 * The report's plots: Vega-Lite specs built from the analysis (pure), compiled and rendered to SVG by
 * Vega in this process, so the page carries finished drawings and runs no plotting code. The view's
 * loader refuses every URL: a report never fetches anything, not even while it is being made. Every
 * name is drawn whole and no two texts overlap: labels sit in their own column, in cells, or where
 * label-placement.ts finds room (the browser test measures the drawn text).
 */
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import type { Analysis, AttemptRow } from "../experiment/index.js";
import { rateCell } from "./cells.js";
import { costPlot } from "./cost-plot.js";
import { gridPlot } from "./grid-plot.js";
import { textWidth } from "./label-placement.js";
import { CONFIG, LABEL_FONT_SIZE, type Plot, ROW_STEP, SCHEMA, WIDTH } from "./plot-style.js";
import { samplingPlots } from "./sampling-plot.js";

export { costPlot } from "./cost-plot.js";
export { gridPlot } from "./grid-plot.js";
export type { Plot, PlotRow } from "./plot-style.js";

const BASELINE = "#d62728";
const ARM = "#1f77b4";
/** The rate plot's data area beside its column of labels. */
const RATE_WIDTH = WIDTH - 120;

const armOrder = (analysis: Analysis) => analysis.arms.map((a) => a.arm);

/**
 * Per arm: the resolve rate as a point on its 95 % Wilson interval (a band), the baseline's interval
 * shaded across every row and its rate as a dashed line. Each arm's numbers are written in a column
 * of their own beside the plot, where no label can run into another.
 */
export function resolveRatePlot(analysis: Analysis): Plot {
  const values = analysis.arms
    .filter((a) => a.resolved.n > 0)
    .map((a) => ({
      arm: a.arm,
      resolved: a.resolved.k,
      n: a.resolved.n,
      rate: a.resolved.rate,
      low: a.resolved.low,
      high: a.resolved.high,
      label: rateCell(a.resolved),
      role: a.baseline ? "baseline" : "arm",
    }));
  const base = values.find((v) => v.role === "baseline");
  const undrawn = analysis.arms.filter((a) => a.resolved.n === 0).map((a) => a.arm);
  const y = { field: "arm", type: "nominal" as const, sort: armOrder(analysis), title: null };
  const x = {
    field: "rate",
    type: "quantitative" as const,
    scale: { domain: [0, 1] },
    axis: { format: "%", values: [0, 0.25, 0.5, 0.75, 1] },
    title: "resolved (95 % Wilson interval)",
  };
  const color = {
    field: "role",
    type: "nominal" as const,
    scale: { domain: ["baseline", "arm"], range: [BASELINE, ARM] },
    legend: null,
  };
  const labelWidth = Math.max(60, ...values.map((v) => textWidth(v.label, LABEL_FONT_SIZE))) + 8;
  return {
    id: "resolve-rate",
    title: "Resolve rate per arm",
    caption: `Each point is an arm's resolved share of its graded attempts on the possible tasks; the band is its 95 % Wilson interval. The baseline is red: its interval is shaded across every row and its rate is the dashed line. Overlapping intervals are not a test: the McNemar column is.${undrawn.length > 0 ? ` Not drawn, no graded attempt: ${undrawn.join(", ")}.` : ""}`,
    rows: values.map(({ arm, resolved, n, rate, low, high, role }) => ({
      arm,
      resolved,
      n,
      rate,
      low,
      high,
      baseline: role === "baseline",
    })),
    spec: {
      $schema: SCHEMA,
      config: CONFIG,
      data: { values },
      spacing: 6,
      hconcat: [
        {
          width: RATE_WIDTH,
          height: { step: ROW_STEP },
          layer: [
            ...(base
              ? [
                  {
                    data: { values: [base] },
                    mark: { type: "rect" as const, color: BASELINE, opacity: 0.08 },
                    encoding: { x: { ...x, field: "low" }, x2: { field: "high" } },
                  },
                  {
                    data: { values: [base] },
                    mark: { type: "rule" as const, strokeDash: [4, 4], color: BASELINE },
                    encoding: { x },
                  },
                ]
              : []),
            {
              mark: { type: "bar", size: 10, opacity: 0.3 },
              encoding: { y, x: { ...x, field: "low" }, x2: { field: "high" }, color },
            },
            {
              mark: { type: "point", filled: true, size: 70, opacity: 1 },
              encoding: { y, x, color },
            },
          ],
        },
        {
          width: labelWidth,
          height: { step: ROW_STEP },
          mark: { type: "text", align: "left", baseline: "middle", fontSize: LABEL_FONT_SIZE },
          encoding: {
            y: { ...y, axis: null },
            x: { value: 0 },
            text: { field: "label" },
          },
        },
      ],
    },
  };
}

/** Per arm: the spread of tokens (in + out) over its graded attempts, as box plots. */
export function tokensPlot(analysis: Analysis, rows: readonly AttemptRow[]): Plot {
  const label = (r: AttemptRow) => (r.arm_version > 1 ? `${r.arm}@${r.arm_version}` : r.arm);
  const impossible = new Set(analysis.tasks.filter((t) => t.impossible).map((t) => t.id));
  const done = rows.filter((r) => r.status === "done" && !impossible.has(r.task));
  const values = done.map((r) => ({ arm: label(r), tokens: (r.tokens_in ?? 0) + (r.tokens_out ?? 0) }));
  return {
    id: "tokens",
    title: "Tokens per attempt",
    caption: analysis.scripted
      ? "Input plus output tokens of each graded attempt on the possible tasks, per arm (box: quartiles; whiskers: min–max). Scripted policies' counts are estimates of what the conversation would cost a model."
      : "Input plus output tokens of each graded attempt on the possible tasks, per arm (box: quartiles; whiskers: min–max). Input counts include cache reads and writes.",
    rows: done.map((r) => ({
      arm: label(r),
      task: r.task,
      repeat: r.repeat,
      tokens: (r.tokens_in ?? 0) + (r.tokens_out ?? 0),
    })),
    spec: {
      $schema: SCHEMA,
      width: WIDTH,
      height: { step: ROW_STEP },
      config: CONFIG,
      data: { values },
      mark: { type: "boxplot", extent: "min-max", size: 14 },
      encoding: {
        y: { field: "arm", type: "nominal", sort: armOrder(analysis), title: null },
        x: {
          field: "tokens",
          type: "quantitative",
          title: "tokens (in + out)",
          scale: { zero: true },
          axis: { tickCount: 5 },
        },
      },
    },
  };
}

/** The plots in page order: the two one-row-per-arm plots side by side, then the scatter and the grid. */
export function experimentPlots(analysis: Analysis, rows: readonly AttemptRow[]): Plot[] {
  return [
    resolveRatePlot(analysis),
    tokensPlot(analysis, rows),
    costPlot(analysis),
    gridPlot(analysis),
    ...samplingPlots(analysis),
  ];
}

/**
 * The plot as an SVG document, drawn by Vega's scenegraph in this process (no browser, no canvas).
 * Vega logs a failed load and draws on without the data; a plot that asked for any is an error here.
 */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const asked: string[] = [];
  const refuse = (what: string) => (uri: unknown) => {
    asked.push(`${what} ${String(uri)}`);
    return Promise.reject(new Error(`a report fetches nothing (${what} ${String(uri)})`));
  };
  const loader = {
    ...vega.loader(),
    load: refuse("load"),
    sanitize: refuse("URL"),
    http: refuse("HTTP"),
    file: refuse("file"),
  };
  const view = new vega.View(vega.parse(compile(spec).spec), {
    renderer: "none",
    loader: loader as vega.Loader,
  });
  try {
    const svg = await view.toSVG();
    if (asked.length > 0)
      throw new Error(`a report fetches nothing, but a plot asked for ${asked.join(", ")}`);
    return svg;
  } finally {
    view.finalize();
  }
}

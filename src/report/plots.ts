/**
 * The report's plots: Vega-Lite specs built from the analysis (pure), compiled and rendered to SVG by
 * Vega in this process, so the page carries finished drawings and runs no plotting code. The view's
 * loader refuses every URL: a report never fetches anything, not even while it is being made.
 */
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import type { Analysis, AttemptRow } from "../experiment/index.js";
import { CONFIG, type Plot, SCHEMA, WIDTH } from "./plot-style.js";
import { samplingPlots } from "./sampling-plot.js";

export type { Plot } from "./plot-style.js";

const armOrder = (analysis: Analysis) => analysis.arms.map((a) => a.arm);
/** The frame of a plot with one row per arm. */
const perArm = (values: object[]) => ({
  $schema: SCHEMA,
  width: WIDTH,
  height: { step: 26 },
  config: CONFIG,
  data: { values },
});

/** Per arm: the resolve rate as a point, its 95 % Wilson interval as a bar, the baseline's rate as a line. */
export function resolveRatePlot(analysis: Analysis): Plot {
  const values = analysis.arms
    .filter((a) => a.resolved.n > 0)
    .map((a) => ({
      arm: a.arm,
      rate: a.resolved.rate,
      low: a.resolved.low,
      high: a.resolved.high,
      label: `${a.resolved.k}/${a.resolved.n}`,
      role: a.baseline ? "baseline" : "arm",
    }));
  const base = values.find((v) => v.role === "baseline");
  const undrawn = analysis.arms.filter((a) => a.resolved.n === 0).map((a) => a.arm);
  const y = { field: "arm", type: "nominal" as const, sort: armOrder(analysis), title: null };
  const x = {
    field: "rate",
    type: "quantitative" as const,
    scale: { domain: [0, 1] },
    axis: { format: "%" },
    title: "resolved (95 % Wilson interval)",
  };
  return {
    id: "resolve-rate",
    title: "Resolve rate per arm",
    caption: `Each point is an arm's resolved share of its graded attempts; the bar is its 95 % Wilson interval. The dashed line is the baseline's rate. Overlapping bars are not a test: the McNemar column is.${undrawn.length > 0 ? ` Not drawn, no graded attempt: ${undrawn.join(", ")}.` : ""}`,
    spec: {
      ...perArm(values),
      layer: [
        ...(base
          ? [
              {
                data: { values: [base] },
                mark: { type: "rule" as const, strokeDash: [4, 4], color: "#999" },
                encoding: { x },
              },
            ]
          : []),
        {
          mark: { type: "rule", strokeWidth: 2 },
          encoding: { y, x: { ...x, field: "low" }, x2: { field: "high" } },
        },
        {
          mark: { type: "point", filled: true, size: 70 },
          encoding: {
            y,
            x,
            color: {
              field: "role",
              type: "nominal",
              scale: { domain: ["baseline", "arm"], range: ["#d62728", "#1f77b4"] },
              legend: null,
            },
          },
        },
        {
          mark: { type: "text", align: "left", dx: 8, dy: -9, fontSize: 10 },
          encoding: { y, x, text: { field: "label" } },
        },
      ],
    },
  };
}

/**
 * Per arm: dollars per graded attempt against the resolve rate; cheap and good is up and left. When
 * nothing cost anything (scripted or replayed policies have no price) dollars cannot tell the arms
 * apart, so the x axis becomes what a model would be billed for: tokens per attempt, labelled as such.
 * Arms that land on the same point share one label instead of printing over each other.
 */
export function costPlot(analysis: Analysis): Plot {
  const graded = analysis.arms.filter((a) => a.resolved.n > 0);
  // An unknown price is not a price of 0: those arms are named, not drawn at $0 as the cheapest.
  const unpriced = graded.filter((a) => a.cost_usd === null).map((a) => a.arm);
  const priced = graded.filter((a) => a.cost_usd !== null);
  const free = priced.length > 0 && priced.every((a) => a.cost_usd === 0);
  const drawn = free ? graded : priced;
  const points = new Map<string, { x: number; rate: number; arms: string[] }>();
  for (const a of drawn) {
    const x = free ? a.tokens_in.mean + a.tokens_out.mean : (a.cost_usd ?? 0) / a.resolved.n;
    const key = `${x.toPrecision(6)}|${a.resolved.rate.toPrecision(6)}`;
    const point = points.get(key) ?? { x, rate: a.resolved.rate, arms: [] };
    point.arms.push(a.arm);
    points.set(key, point);
  }
  const values = [...points.values()].map((p) => ({ x: p.x, rate: p.rate, arms: p.arms.join(", ") }));
  const estimated = analysis.scripted ? ", estimated" : "";
  const note = !free && unpriced.length > 0 ? ` Not drawn, price unknown: ${unpriced.join(", ")}.` : "";
  return {
    id: "cost",
    title: free ? "Tokens against resolve rate" : "Cost against resolve rate",
    caption: free
      ? `Nothing drawn here cost anything (scripted and replayed policies have no price), so each arm is placed by the tokens a model would have been billed for per graded attempt (in + out${estimated}). Up and to the left is cheaper and better.`
      : `Each point is an arm: its mean dollars per graded attempt against its resolve rate. Up and to the left is cheaper and better.${note}`,
    spec: {
      $schema: SCHEMA,
      width: WIDTH,
      height: 260,
      config: CONFIG,
      data: { values },
      encoding: {
        x: {
          field: "x",
          type: "quantitative",
          title: free ? "tokens per graded attempt (mean, in + out)" : "$ per graded attempt",
          scale: { zero: true },
          ...(free ? {} : { axis: { format: "$.3f" } }),
        },
        y: {
          field: "rate",
          type: "quantitative",
          title: "resolved",
          scale: { domain: [0, 1] },
          axis: { format: "%" },
        },
      },
      layer: [
        { mark: { type: "point", filled: true, size: 70, color: "#1f77b4" } },
        {
          mark: { type: "text", align: "left", dx: 7, dy: -7, fontSize: 10 },
          encoding: { text: { field: "arms" } },
        },
      ],
    },
  };
}

type CellState = "graded" | "no_script" | "error" | "unfinished" | "none";

/** The arm × task grid: each cell coloured by its resolved fraction, or grey with why it has none. */
export function gridPlot(analysis: Analysis): Plot {
  const values: { arm: string; task: string; fraction: number | null; state: CellState; label: string }[] =
    [];
  for (const t of analysis.tasks)
    for (const a of analysis.arms) {
      const c = analysis.grid[a.arm]?.[t.id];
      const state: CellState = !c
        ? "none"
        : c.done > 0
          ? "graded"
          : c.no_script > 0
            ? "no_script"
            : c.error > 0
              ? "error"
              : "unfinished";
      values.push({
        arm: a.arm,
        task: t.id,
        fraction: c && c.done > 0 ? c.resolved / c.done : null,
        state,
        label:
          state === "graded" && c
            ? `${c.resolved}/${c.done}`
            : state === "none"
              ? ""
              : state.replace("_", " "),
      });
    }
  const x = {
    field: "arm",
    type: "nominal" as const,
    sort: armOrder(analysis),
    title: null,
    axis: { orient: "top" as const, labelAngle: -30 },
  };
  const y = { field: "task", type: "nominal" as const, sort: analysis.tasks.map((t) => t.id), title: null };
  return {
    id: "grid",
    title: "Outcomes per arm and task",
    caption:
      "Each cell is one arm on one task: resolved over graded attempts, green when all resolved, red when none did. Grey cells were never graded: no scripted policy for that arm's tool set (left out of the statistics), an error of the harness, or not run yet.",
    spec: {
      $schema: SCHEMA,
      width: { step: 64 },
      height: { step: 18 },
      config: { ...CONFIG, axis: { ...CONFIG.axis, grid: false, domain: false, ticks: false } },
      data: { values },
      encoding: { x, y },
      layer: [
        {
          transform: [{ filter: "datum.state === 'graded'" }],
          mark: { type: "rect", stroke: "white", strokeWidth: 1 },
          encoding: {
            color: {
              field: "fraction",
              type: "quantitative",
              scale: { domain: [0, 1], range: ["#e45756", "#f2cf5b", "#54a24b"] },
              legend: { title: "resolved", format: "%" },
            },
          },
        },
        {
          transform: [{ filter: "datum.state !== 'graded'" }],
          mark: { type: "rect", stroke: "white", strokeWidth: 1, color: "#ddd" },
        },
        {
          mark: { type: "text", fontSize: 9 },
          encoding: { text: { field: "label" }, color: { value: "#222" } },
        },
      ],
    },
  };
}

/** Per arm: the spread of tokens (in + out) over its graded attempts, as box plots. */
export function tokensPlot(analysis: Analysis, rows: readonly AttemptRow[]): Plot {
  const label = (r: AttemptRow) => (r.arm_version > 1 ? `${r.arm}@${r.arm_version}` : r.arm);
  const values = rows
    .filter((r) => r.status === "done")
    .map((r) => ({ arm: label(r), tokens: (r.tokens_in ?? 0) + (r.tokens_out ?? 0) }));
  return {
    id: "tokens",
    title: "Tokens per attempt",
    caption: analysis.scripted
      ? "Input plus output tokens of each graded attempt, per arm (box: quartiles; whiskers: min–max). Scripted policies' counts are estimates of what the conversation would cost a model."
      : "Input plus output tokens of each graded attempt, per arm (box: quartiles; whiskers: min–max). Input counts include cache reads and writes.",
    spec: {
      ...perArm(values),
      mark: { type: "boxplot", extent: "min-max", size: 16 },
      encoding: {
        y: { field: "arm", type: "nominal", sort: armOrder(analysis), title: null },
        x: { field: "tokens", type: "quantitative", title: "tokens (in + out)", scale: { zero: true } },
      },
    },
  };
}

export function experimentPlots(analysis: Analysis, rows: readonly AttemptRow[]): Plot[] {
  return [
    resolveRatePlot(analysis),
    costPlot(analysis),
    gridPlot(analysis),
    tokensPlot(analysis, rows),
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

/**
 * The sampling plots: coverage (pass@n) against selection (best-of-n) on one pair of axes. n takes
 * whole values only, so its axis is ticked at 1, 2, 4, … and the last n, never in between; a measured
 * curve with an interval carries it as a band; the legend names every curve whole, and only curves.
 */
import type { Analysis } from "../experiment/index.js";
import { CONFIG, type Plot, SCHEMA, WIDTH } from "./plot-style.js";
import { samplingKs } from "./sampling-cells.js";

/** One named curve over n = 1, 2, …: pass@n, a selector's best-of-n, a modelled verifier's. */
export interface Curve {
  name: string;
  /** values[n − 1] is the rate at n candidates. */
  values: readonly number[];
  /** The 95 % interval at each n (a measured best-of-n), drawn as a band. */
  interval?: { low: readonly number[]; high: readonly number[] };
  /** Drawn dashed: a model's prediction rather than a measurement. */
  dashed?: boolean;
}

/** Coverage against selection: the rate at n candidates for each curve, on one pair of axes. */
export function samplingPlot(
  title: string,
  caption: string,
  curves: readonly Curve[],
  id = "sampling",
  axisName = "n",
): Plot {
  const values = curves.flatMap((c) =>
    c.values.map((rate, i) => ({
      curve: c.name,
      n: i + 1,
      rate,
      low: c.interval?.low[i] ?? null,
      high: c.interval?.high[i] ?? null,
      style: c.dashed ? "dashed" : "solid",
    })),
  );
  const last = Math.max(1, ...curves.map((c) => c.values.length));
  const x = {
    field: "n",
    type: "quantitative" as const,
    title: `candidates per task (${axisName})`,
    // Whole numbers only: ticks at the powers of two and the last n, printed as integers.
    scale: { type: "log" as const, base: 2, domain: [1, Math.max(2, last)], nice: false },
    axis: { values: samplingKs(last), format: "d", grid: true },
  };
  const y = {
    field: "rate",
    type: "quantitative" as const,
    scale: { domain: [0, 1] },
    axis: { format: "%" },
    title: null,
  };
  const color = {
    field: "curve",
    type: "nominal" as const,
    sort: curves.map((c) => c.name),
    title: null,
    // Below the plot, one per line: a chain's name is shown whole however long it is.
    legend: {
      orient: "bottom" as const,
      direction: "vertical" as const,
      labelLimit: 0,
      symbolType: "stroke",
      // The band layer is translucent; a legend's stroke must not be.
      symbolOpacity: 1,
      symbolStrokeWidth: 2,
    },
  };
  const dashed = curves.some((c) => c.dashed);
  return {
    id,
    title,
    caption,
    // The CSV names the candidates column as the axis does (k for an experiment's samples).
    rows: values.map(({ curve, n, rate, low, high }) => ({ curve, [axisName]: n, rate, low, high })),
    spec: {
      $schema: SCHEMA,
      width: WIDTH,
      height: 240,
      config: CONFIG,
      data: { values },
      layer: [
        {
          transform: [{ filter: "datum.low !== null && datum.high !== null" }],
          mark: { type: "area", opacity: 0.15 },
          encoding: {
            x,
            y: { ...y, field: "low" },
            y2: { field: "high" },
            color,
          },
        },
        {
          mark: { type: "line", point: true },
          encoding: {
            x,
            y,
            color,
            // The style is in the curve's own name ("… (predicted)"): no legend entry of its own.
            ...(dashed
              ? {
                  strokeDash: {
                    field: "style",
                    type: "nominal" as const,
                    scale: {
                      domain: ["solid", "dashed"],
                      range: [
                        [1, 0],
                        [5, 3],
                      ],
                    },
                    legend: null,
                  },
                }
              : {}),
          },
        },
      ],
    },
  };
}

/** Per arm of an experiment with samples: pass@k and each chain's best-of-k on one pair of axes. */
export function samplingPlots(analysis: Analysis): Plot[] {
  return (analysis.sampling?.arms ?? [])
    .filter((arm) => arm.n > 0)
    .map((arm, i) =>
      samplingPlot(
        `${arm.arm}: coverage and selection`,
        `pass@k (the hidden tests' ceiling) and what each selector chain submits from k candidates, over ${arm.tasks} task(s), with its 95 % Wilson interval as a band; a chain below the pass@k line loses that much to choosing.`,
        [
          { name: "pass@k", values: arm.passAtK },
          ...arm.selectors.flatMap((c) =>
            c.error === undefined
              ? [
                  {
                    name: `${c.chain} best-of-k`,
                    values: c.bestOfK.map((p) => p.rate),
                    interval: { low: c.bestOfK.map((p) => p.low), high: c.bestOfK.map((p) => p.high) },
                  },
                ]
              : [],
          ),
          ...(arm.verifier?.fit
            ? [
                {
                  name: `verifier model, predicted (margin ${arm.verifier.fit.margin.toFixed(2)}, sigma ${arm.verifier.fit.sigma.toFixed(2)})`,
                  values: arm.verifier.fit.predicted,
                  dashed: true,
                },
              ]
            : []),
        ],
        `sampling-${i + 1}`,
        "k",
      ),
    );
}

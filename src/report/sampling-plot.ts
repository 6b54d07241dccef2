/** The sampling plots: coverage (pass@n) against selection (best-of-n) on one pair of axes. */
import type { Analysis } from "../experiment/index.js";
import { CONFIG, type Plot, SCHEMA, WIDTH } from "./plot-style.js";

/** One named curve over n = 1, 2, …: pass@n, a selector's best-of-n, a modelled verifier's. */
export interface Curve {
  name: string;
  /** values[n − 1] is the rate at n candidates. */
  values: readonly number[];
  /** Drawn dashed: a model's prediction rather than a measurement. */
  dashed?: boolean;
}

/** Coverage against selection: the rate at n candidates for each curve, on one pair of axes. */
export function samplingPlot(
  title: string,
  caption: string,
  curves: readonly Curve[],
  id = "sampling",
): Plot {
  const values = curves.flatMap((c) =>
    c.values.map((rate, i) => ({ curve: c.name, n: i + 1, rate, style: c.dashed ? "model" : "measured" })),
  );
  return {
    id,
    title,
    caption,
    spec: {
      $schema: SCHEMA,
      width: WIDTH,
      height: 280,
      config: CONFIG,
      data: { values },
      mark: { type: "line", point: true },
      encoding: {
        x: {
          field: "n",
          type: "quantitative",
          title: "candidates per task (n)",
          scale: { type: "log", base: 2 },
        },
        y: {
          field: "rate",
          type: "quantitative",
          scale: { domain: [0, 1] },
          axis: { format: "%" },
          title: null,
        },
        color: { field: "curve", type: "nominal", sort: curves.map((c) => c.name), title: null },
        strokeDash: { field: "style", type: "nominal", title: null },
      },
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
        `pass@k (the hidden tests' ceiling) and what each selector chain submits from k candidates, over ${arm.tasks} task(s); a chain below the pass@k line loses that much to choosing.`,
        [
          { name: "pass@k", values: arm.passAtK },
          ...arm.selectors.flatMap((c) =>
            c.error === undefined ? [{ name: c.chain, values: c.bestOfK.map((p) => p.rate) }] : [],
          ),
          ...(arm.verifier?.fit
            ? [
                {
                  name: `verifier model (margin ${arm.verifier.fit.margin.toFixed(2)}, sigma ${arm.verifier.fit.sigma.toFixed(2)})`,
                  values: arm.verifier.fit.predicted,
                  dashed: true,
                },
              ]
            : []),
        ],
        `sampling-${i + 1}`,
      ),
    );
}

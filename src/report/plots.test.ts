import { describe, expect, it } from "vitest";
import type { Analysis, ArmAnalysis } from "../experiment/index.js";
import { costPlot, renderSvg, resolveRatePlot } from "./plots.js";

const spread = (mean: number) => ({ n: 3, mean, median: mean, min: mean, max: mean });

function arm(name: string, k: number, n: number, cost: number | null, tokens = 100): ArmAnalysis {
  return {
    arm: name,
    name,
    version: 1,
    hash: "h",
    definition: {},
    baseline: name === "base",
    policies: ["scripted"],
    counts: { pending: 0, running: 0, done: n, no_script: 0, error: 0 },
    resolved: { k, n, rate: k / n, low: 0.1, high: 0.9 },
    impossible: { done: 0, resolved: 0 },
    vs_baseline: null,
    cost_usd: cost,
    cost_per_resolved: null,
    tokens_in: spread(tokens),
    tokens_out: spread(10),
    steps: spread(5),
    first_edit_step: spread(2),
    failures: {} as ArmAnalysis["failures"],
    failures_any: {} as ArmAnalysis["failures_any"],
    trajectory_problems: { missing: 0, truncated: 0, unreadable: 0 },
  } as ArmAnalysis;
}

const analysis = (arms: ArmAnalysis[]): Analysis => ({
  experiment: "e",
  baseline: "base",
  scripted: true,
  repeats: 1,
  tasks: [],
  arms,
  grid: {},
  attempts: [],
  sampling: null,
  warnings: [],
});

describe("plots", () => {
  it("renders a resolve-rate plot to SVG in Node, with a point per arm", async () => {
    const svg = await renderSvg(resolveRatePlot(analysis([arm("base", 3, 4, 0), arm("b", 1, 4, 0)])).spec);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("base");
    expect(svg).toContain("3/4");
  });

  it("places arms by tokens when nothing cost anything, and gives arms on one point one label", () => {
    const free = costPlot(
      analysis([arm("base", 2, 2, 0, 100), arm("b", 2, 2, 0, 100), arm("c", 1, 2, 0, 50)]),
    );
    expect(free.title).toBe("Tokens against resolve rate");
    const values = (free.spec as { data: { values: { x: number; arms: string }[] } }).data.values;
    expect(values).toEqual([
      { x: 110, rate: 1, arms: "base, b" },
      { x: 60, rate: 0.5, arms: "c" },
    ]);
    const paid = costPlot(analysis([arm("base", 1, 2, 0.4)]));
    expect(paid.title).toBe("Cost against resolve rate");
    expect((paid.spec as { data: { values: { x: number }[] } }).data.values[0]?.x).toBeCloseTo(0.2);
  });

  it("refuses a spec that would load data from a URL: a report fetches nothing", async () => {
    await expect(
      renderSvg({
        $schema: "https://vega.github.io/schema/vega-lite/v6.json",
        data: { url: "http://127.0.0.1:9/data.json" },
        mark: "point",
      }),
    ).rejects.toThrow(/fetches nothing/);
  });
});

describe("the cost plot and unknown prices", () => {
  it("draws no arm whose price is unknown at $0, and names it", () => {
    const plot = costPlot(analysis([arm("base", 1, 2, 0.4), arm("b", 2, 2, null)]));
    expect(plot.title).toBe("Cost against resolve rate");
    const values = (plot.spec as { data: { values: { arms: string }[] } }).data.values;
    expect(values.map((v) => v.arms)).toEqual(["base"]);
    expect(plot.caption).toContain("Not drawn, price unknown: b.");
  });

  it("does not call a model run with no price list scripted", () => {
    const plot = costPlot({ ...analysis([arm("base", 1, 2, null)]), scripted: false });
    expect(plot.title).toBe("Cost against resolve rate");
    expect(plot.caption).not.toContain("scripted");
  });
});

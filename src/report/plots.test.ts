import { describe, expect, it } from "vitest";
import type { Analysis, ArmAnalysis } from "../experiment/index.js";
import { costPlot, renderSvg, resolveRatePlot } from "./plots.js";
import { samplingPlot } from "./sampling-plot.js";

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
    expect(free.rows).toEqual([
      { arms: "base, b", tokens_per_attempt: 110, resolve_rate: 1 },
      { arms: "c", tokens_per_attempt: 60, resolve_rate: 0.5 },
    ]);
    const paid = costPlot(analysis([arm("base", 1, 2, 0.4)]));
    expect(paid.title).toBe("Cost against resolve rate");
    expect(paid.rows[0]?.usd_per_attempt).toBeCloseTo(0.2);
  });

  it("labels arms whose points crowd together without one label over another", async () => {
    // Seven arms within a few hundred tokens of each other at nearly the same rate.
    const names = ["full", "full-shell", "whole-file", "no-search", "no-tests", "line-edit", "shell-only"];
    const plot = costPlot(analysis(names.map((n, i) => arm(n, 20 - (i % 2), 21, 0, 5000 + 40 * i))));
    const svg = await renderSvg(plot.spec);
    for (const n of names) expect(svg).toContain(`>${n}<`);
    // The labels' boxes as placed (in the plot's pixels) never meet.
    const spec = plot.spec as { layer: { data: { values: { x: number; rate: number; text: string }[] } }[] };
    const labels = spec.layer[2]?.data.values ?? [];
    expect(labels.map((l) => l.text).sort()).toEqual([...names].sort());
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
    expect(plot.rows.map((v) => v.arms)).toEqual(["base"]);
    expect(plot.caption).toContain("Not drawn, price unknown: b.");
  });

  it("does not call a model run with no price list scripted", () => {
    const plot = costPlot({ ...analysis([arm("base", 1, 2, null)]), scripted: false });
    expect(plot.title).toBe("Cost against resolve rate");
    expect(plot.caption).not.toContain("scripted");
  });
});

describe("the sampling plot", () => {
  const curves = [
    { name: "pass@k", values: [0.4, 0.5, 0.55, 0.6, 0.62] },
    {
      name: "regression>reproduction>vote best-of-k",
      values: [0.4, 0.45, 0.5, 0.52, 0.53],
      interval: { low: [0.2, 0.25, 0.3, 0.32, 0.33], high: [0.6, 0.65, 0.7, 0.72, 0.73] },
    },
  ];

  it("ticks k at whole numbers only: 1, 2, 4 and the last k", async () => {
    const plot = samplingPlot("t", "c", curves, "s", "k");
    const svg = await renderSvg(plot.spec);
    const ticks = [...svg.matchAll(/<text[^>]*>([\d.]+)<\/text>/g)].map((m) => m[1]);
    expect(ticks).toEqual(expect.arrayContaining(["1", "2", "4", "5"]));
    expect(ticks.filter((t) => t?.includes("."))).toEqual([]);
  });

  it("names every curve whole in the legend, draws the interval as a band, and adds no entry without points", async () => {
    const svg = await renderSvg(samplingPlot("t", "c", curves).spec);
    expect(svg).toContain(">regression&gt;reproduction&gt;vote best-of-k<");
    expect(svg).not.toContain("…");
    expect(svg).not.toMatch(/>(measured|solid|dashed)</);
    // The band: an area mark's path (Vega draws it with the "mark-area" class).
    expect(svg).toMatch(/class="mark-area role-mark/);
    const rows = samplingPlot("t", "c", curves).rows;
    expect(rows[5]).toEqual({
      curve: "regression>reproduction>vote best-of-k",
      n: 1,
      rate: 0.4,
      low: 0.2,
      high: 0.6,
    });
  });
});

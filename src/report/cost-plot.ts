/**
 * Cost (or tokens) against resolve rate, one point per arm, each named by a direct label placed so
 * that no two labels and no label and point overlap (label-placement.ts); a label that had to move
 * away from its point is tied to it by a thin line. Arms on the same point share one label.
 */
import type { Analysis } from "../experiment/index.js";
import { lineHeight, placeLabels } from "./label-placement.js";
import { CONFIG, LABEL_FONT_SIZE, niceCeil, type Plot, SCHEMA, WIDTH } from "./plot-style.js";

const HEIGHT = 260;

/**
 * Per arm: dollars per graded attempt against the resolve rate; cheap and good is up and left. When
 * nothing cost anything (scripted or replayed policies have no price) dollars cannot tell the arms
 * apart, so the x axis becomes what a model would be billed for: tokens per attempt, labelled as such.
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
  const xMax = niceCeil(Math.max(0, ...values.map((v) => v.x)) * 1.05);
  // The scales are fixed (no "nice" rounding), so a label's pixels map back to data exactly.
  const toPx = (v: { x: number; rate: number }) => ({ px: (v.x / xMax) * WIDTH, py: (1 - v.rate) * HEIGHT });
  const placed = placeLabels(
    values.map((v) => ({ ...toPx(v), text: v.arms })),
    { width: WIDTH, height: HEIGHT },
    LABEL_FONT_SIZE,
  );
  const toData = (px: number, py: number) => ({ x: (px / WIDTH) * xMax, rate: 1 - py / HEIGHT });
  const labels = placed.map((l) => ({
    ...toData(l.box.x, l.box.y + l.box.h / 2),
    text: l.text,
  }));
  const leaders = placed.flatMap((l, i) => {
    if (!l.leader) return [];
    const from = values[i] as { x: number; rate: number };
    const to = toData(l.leader.x, l.leader.y);
    return [{ x: from.x, rate: from.rate, x2: to.x, rate2: to.rate }];
  });
  const estimated = analysis.scripted ? ", estimated" : "";
  const note = !free && unpriced.length > 0 ? ` Not drawn, price unknown: ${unpriced.join(", ")}.` : "";
  const x = {
    field: "x",
    type: "quantitative" as const,
    title: free ? "tokens per graded attempt (mean, in + out)" : "$ per graded attempt",
    scale: { domain: [0, xMax], nice: false },
    axis: { tickCount: 5, ...(free ? {} : { format: "$.3f" }) },
  };
  const y = {
    field: "rate",
    type: "quantitative" as const,
    title: "resolved",
    scale: { domain: [0, 1], nice: false },
    axis: { format: "%" },
  };
  return {
    id: "cost",
    title: free ? "Tokens against resolve rate" : "Cost against resolve rate",
    caption: free
      ? `Nothing drawn here cost anything (scripted and replayed policies have no price), so each arm is placed by the tokens a model would have been billed for per graded attempt (in + out${estimated}). Up and to the left is cheaper and better.`
      : `Each point is an arm: its mean dollars per graded attempt against its resolve rate. Up and to the left is cheaper and better.${note}`,
    rows: values.map((v) => ({
      arms: v.arms,
      [free ? "tokens_per_attempt" : "usd_per_attempt"]: v.x,
      resolve_rate: v.rate,
    })),
    spec: {
      $schema: SCHEMA,
      width: WIDTH,
      height: HEIGHT,
      config: CONFIG,
      layer: [
        {
          data: { values: leaders },
          mark: { type: "rule", color: "#999", strokeWidth: 0.75 },
          encoding: { x, y, x2: { field: "x2" }, y2: { field: "rate2" } },
        },
        {
          data: { values },
          mark: { type: "point", filled: true, size: 70, color: "#1f77b4", opacity: 1 },
          encoding: { x, y },
        },
        {
          data: { values: labels },
          mark: {
            type: "text",
            align: "left",
            baseline: "middle",
            fontSize: LABEL_FONT_SIZE,
            lineHeight: lineHeight(LABEL_FONT_SIZE),
          },
          encoding: { x, y, text: { field: "text" } },
        },
      ],
    },
  };
}

/** What every plot of the report shares: the Plot record, its sizes, font and Vega-Lite config. */
import type { Config, TopLevelSpec } from "vega-lite";

/** One row of a plot's data, as its CSV writes it. */
export type PlotRow = Record<string, string | number | boolean | null>;

export interface Plot {
  id: string;
  title: string;
  /** What the plot shows and what to read off it, under the drawing. */
  caption: string;
  spec: TopLevelSpec;
  /** The numbers drawn, one row per mark: what `--plots DIR` writes as `<id>.csv`. */
  rows: PlotRow[];
}

/** The data area of a plot that fills a column of the page (figures sit two to a row at 1280 px). */
export const WIDTH = 440;
/** Per arm (or task) row of a plot with one row each: room for a label and its interval band. */
export const ROW_STEP = 28;
export const FONT = "system-ui, -apple-system, 'Segoe UI', sans-serif";
/** Labels drawn in the data area (direct labels, cell text). */
export const LABEL_FONT_SIZE = 10;
export const CONFIG: Config = {
  font: FONT,
  view: { stroke: null },
  // labelLimit 0: a name is never cut short ("full-shell" must not read "full-sh…").
  // labelOverlap: a tick label that would touch its neighbour is left out rather than drawn over it.
  axis: {
    labelFontSize: 11,
    titleFontSize: 12,
    grid: true,
    gridColor: "#eee",
    labelLimit: 0,
    labelOverlap: "greedy",
    labelSeparation: 4,
  },
  legend: { labelFontSize: 11, titleFontSize: 11, labelLimit: 0 },
};

export const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";

/** A round number ≥ x for an axis's end: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten. */
export function niceCeil(x: number): number {
  if (!(x > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10])
    if (m * power >= x * (1 - 1e-12)) return m * power;
  return 10 * power;
}

/** What every plot of the report shares: the Plot record, its width, font and Vega-Lite config. */
import type { Config, TopLevelSpec } from "vega-lite";

export interface Plot {
  id: string;
  title: string;
  /** What the plot shows and what to read off it, under the drawing. */
  caption: string;
  spec: TopLevelSpec;
}

export const WIDTH = 520;
export const FONT = "system-ui, -apple-system, 'Segoe UI', sans-serif";
export const CONFIG: Config = {
  font: FONT,
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 12, grid: true, gridColor: "#eee" },
  legend: { labelFontSize: 11, titleFontSize: 11 },
};

export const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";

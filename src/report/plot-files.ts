/**
 * `experiment report --plots DIR`: each plot of the report as its own SVG (the drawing the page
 * inlines, to put in a paper) and its numbers as CSV (to draw it again in another tool). The I/O
 * edge of the plots; the CSV text itself is a pure function.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Plot, PlotRow } from "./plot-style.js";
import { renderSvg } from "./plots.js";

/** One CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
function field(value: PlotRow[string]): string {
  const text =
    value === null ? "" : typeof value === "number" && !Number.isFinite(value) ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The rows as CSV with a header line: the columns of every row, in first-seen order. */
export function plotCsv(rows: readonly PlotRow[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const lines = [columns.map((c) => field(c)), ...rows.map((r) => columns.map((c) => field(r[c] ?? null)))];
  return `${lines.map((l) => l.join(",")).join("\r\n")}\r\n`;
}

export interface WrittenPlot {
  id: string;
  svg: string;
  csv: string;
}

/** Writes `<id>.svg` and `<id>.csv` per plot into `dir` (made if missing); returns the paths written. */
export async function writePlotFiles(plots: readonly Plot[], dir: string): Promise<WrittenPlot[]> {
  mkdirSync(dir, { recursive: true });
  const written: WrittenPlot[] = [];
  for (const plot of plots) {
    const svg = join(dir, `${plot.id}.svg`);
    const csv = join(dir, `${plot.id}.csv`);
    writeFileSync(svg, await renderSvg(plot.spec));
    writeFileSync(csv, plotCsv(plot.rows));
    written.push({ id: plot.id, svg, csv });
  }
  return written;
}

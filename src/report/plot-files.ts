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

/** The plots' folder could not be made or written: the message says which path and why. */
export class PlotsNotWritten extends Error {}

export interface WrittenPlot {
  id: string;
  svg: string;
  csv: string;
}

/** Writes `<id>.svg` and `<id>.csv` per plot into `dir` (made if missing); returns the paths written. */
export async function writePlotFiles(plots: readonly Plot[], dir: string): Promise<WrittenPlot[]> {
  const files = plots.map((p) => ({ plot: p, svg: join(dir, `${p.id}.svg`), csv: join(dir, `${p.id}.csv`) }));
  const drawn = await Promise.all(files.map((f) => renderSvg(f.plot.spec)));
  try {
    mkdirSync(dir, { recursive: true });
    files.forEach((f, i) => {
      writeFileSync(f.svg, drawn[i] as string);
      writeFileSync(f.csv, plotCsv(f.plot.rows));
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why =
      err.code === "ENOTDIR" || err.code === "EEXIST"
        ? "a part of that path is a file, not a folder"
        : err.code === "EACCES" || err.code === "EPERM" || err.code === "EROFS"
          ? "this user may not write there"
          : (err.code ?? err.message);
    throw new PlotsNotWritten(
      `--plots ${dir}: cannot write the plots there (${why}) — give a folder you can write to`,
    );
  }
  return files.map((f) => ({ id: f.plot.id, svg: f.svg, csv: f.csv }));
}

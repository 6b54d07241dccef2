import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileTools, fileToolContext, type ToolContext, type ToolResult } from "../src/tools/index.js";
import { quantile } from "./stats.js";

export interface BenchRow {
  name: string;
  medianMs: number;
  p95Ms: number;
}

/** SWE-agent's running example is a 3,093-line module: the size where windowing matters. */
export const BENCH_FILE_LINES = 3_000;

/** Enough runs for a stable median and a p95 that is not just the maximum, in well under a minute. */
export const BENCH_ITERATIONS = 50;

/** Four lines per function, so the file is exactly BENCH_FILE_LINES long. */
function pythonModule(lines: number): string {
  const out: string[] = [];
  for (let i = 0; out.length < lines; i++) {
    const id = String(i).padStart(5, "0");
    out.push(`def f_${id}(x):`, `    v_${id} = x + ${i}`, `    return v_${id}`, "");
  }
  return `${out.slice(0, lines).join("\n")}\n`;
}

/** The same shape in TypeScript, four lines per function, for the TS side of the guardrail. */
function typescriptModule(lines: number): string {
  const out: string[] = [];
  for (let i = 0; out.length < lines; i++) {
    const id = String(i).padStart(5, "0");
    out.push(
      `export function f_${id}(x: number): number {`,
      `  const v_${id} = x + ${i};`,
      `  return v_${id};`,
      "}",
    );
  }
  return `${out.slice(0, lines).join("\n")}\n`;
}

/** Rounded to 0.01 ms: below that the timer's noise is all there is. */
const percentile = (sorted: readonly number[], p: number) =>
  Math.round(quantile(sorted, p / 100) * 100) / 100;

async function time(
  name: string,
  iterations: number,
  run: (i: number) => Promise<ToolResult>,
): Promise<BenchRow> {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    const result = await run(i);
    samples.push(performance.now() - t0);
    if (result.error) throw new Error(`bench ${name}: iteration ${i} failed: ${result.output.slice(0, 300)}`);
  }
  samples.sort((a, b) => a - b);
  return { name, medianMs: percentile(samples, 50), p95Ms: percentile(samples, 95) };
}

/**
 * Time `view` at several starts and `str_replace` with the lint guardrail on and off, on generated
 * 3,000-line Python and TypeScript files in a temporary directory. Returns one row per case.
 */
export async function benchFileTools(iterations = BENCH_ITERATIONS): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), "acilab-bench-file-"));
  try {
    const ctx: ToolContext = fileToolContext(dir);
    const source = pythonModule(BENCH_FILE_LINES);
    writeFileSync(join(ctx.root, "linted.py"), source);
    writeFileSync(join(ctx.root, "plain.py"), source);
    writeFileSync(join(ctx.root, "linted.ts"), typescriptModule(BENCH_FILE_LINES));
    const linted = createFileTools({ lint: true });
    const plain = createFileTools({ lint: false });
    const rows: BenchRow[] = [];
    for (const start of [1, 1_500, BENCH_FILE_LINES - 99]) {
      rows.push(
        await time(`view start=${start}`, iterations, () =>
          linted.view.execute({ path: "plain.py", start }, ctx),
        ),
      );
    }
    // Iteration i edits function i, so every old text is unique and every edit really changes the file.
    const edit = (i: number) => {
      const id = String(i).padStart(5, "0");
      return { old: `    v_${id} = x + ${i}\n`, new: `    v_${id} = x + ${i} + 1\n` };
    };
    rows.push(
      await time("str_replace lint=off", iterations, (i) =>
        plain.str_replace.execute({ path: "plain.py", ...edit(i) }, ctx),
      ),
    );
    rows.push(
      await time("str_replace lint=on", iterations, (i) =>
        linted.str_replace.execute({ path: "linted.py", ...edit(i) }, ctx),
      ),
    );
    const tsEdit = (i: number) => {
      const id = String(i).padStart(5, "0");
      return { old: `  const v_${id} = x + ${i};\n`, new: `  const v_${id} = x + ${i} + 1;\n` };
    };
    rows.push(
      await time("str_replace lint=on (ts)", iterations, (i) =>
        linted.str_replace.execute({ path: "linted.ts", ...tsEdit(i) }, ctx),
      ),
    );
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

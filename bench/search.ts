/**
 * How fast the search tools answer on a large tree: 100,000 source files (plus a gitignored
 * dependency directory), timed through each tool's real `execute`, rg included. Rows without a tag
 * run rg alone (index off); "indexed" rows use the workspace index, warm, or right after an edit.
 */
import { spawn } from "node:child_process";
import { appendFile, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Sandbox } from "../src/sandbox/index.js";
import {
  createSearchTools,
  newEditorState,
  releaseSearchIndex,
  type ToolContext,
  type ToolResult,
} from "../src/tools/index.js";
import { RG_BASE_ARGS, workspaceIndex } from "../src/tools/testing.js";
import { quantile } from "./stats.js";

export interface SearchBenchRow {
  name: string;
  medianMs: number;
  p95Ms: number;
}

export interface SearchBenchOptions {
  /** Directories of source files; each holds `filesPerDir` files. */
  dirs?: number;
  filesPerDir?: number;
  /** Timed runs per query, after one untimed warm-up. */
  iterations?: number;
}

/** In the tree exactly three times: a rare pattern. */
const RARE_TOKEN = "FIXME(acilab-bench-7f3a)";
/** Two files with this name: a rare name. */
const RARE_NAME = "settings_loader.py";
/**
 * Plain phrases (no regex metacharacters) in thousands of the generated files, each searched once by
 * the "new literal" row.
 */
const FRESH_LITERALS = [
  "let total",
  "export function process",
  "items: Record",
  "return helper",
  "name: string;",
  "id: number;",
  "from typing import Iterable",
  "def run",
  "class Handler",
  "import os",
];
/** Files written at once; enough to keep the disk busy without running out of descriptors. */
const WRITE_BATCH = 512;

function tsSource(d: number, f: number): string {
  return [
    `import { helper${d % 17} } from "../lib/helper${d % 17}.js";`,
    "",
    `export interface Record${f} {`,
    "  id: number;",
    "  name: string;",
    "}",
    "",
    `export function process${d}_${f}(items: Record${f}[]): number {`,
    "  let total = 0;",
    `  for (const item of items) total += item.id * ${f + 1};`,
    `  return helper${d % 17}(total);`,
    "}",
    "",
  ].join("\n");
}

function pySource(d: number, f: number): string {
  return [
    "import os",
    "from typing import Iterable",
    "",
    "",
    `class Handler${f}:`,
    `    """Handles batch ${d}."""`,
    "",
    "    def run(self, items: Iterable[int]) -> int:",
    `        return sum(i * ${f + 1} for i in items)`,
    "",
  ].join("\n");
}

/** Every file of the tree as [relative path, contents]; generated lazily to keep memory flat. */
function* treeFiles(dirs: number, filesPerDir: number): Generator<[string, string]> {
  yield [".gitignore", "node_modules/\n*.log\n"];
  for (let d = 0; d < dirs; d++) {
    for (let f = 0; f < filesPerDir; f++) {
      const py = f % 2 === 1;
      const name = d % 400 === 7 && f === 1 ? RARE_NAME : `mod_${f}.${py ? "py" : "ts"}`;
      let text = py ? pySource(d, f) : tsSource(d, f);
      if (d % 333 === 5 && f === 0) text += `// ${RARE_TOKEN}\n`;
      yield [`pkg${d}/${name}`, text];
    }
  }
  // Ignored dependencies: the tools must not pay for them (nor show them).
  for (let d = 0; d < Math.max(1, dirs / 10); d++) {
    for (let f = 0; f < filesPerDir; f++) yield [`node_modules/dep${d}/index${f}.js`, tsSource(d, f)];
  }
}

async function writeTree(root: string, dirs: number, filesPerDir: number): Promise<void> {
  const made = new Set<string>();
  let batch: Promise<void>[] = [];
  for (const [rel, text] of treeFiles(dirs, filesPerDir)) {
    const dir = rel.slice(0, rel.lastIndexOf("/"));
    if (dir !== "" && !made.has(dir)) {
      made.add(dir);
      await mkdir(join(root, dir), { recursive: true });
    }
    batch.push(writeFile(join(root, rel), text));
    if (batch.length >= WRITE_BATCH) {
      await Promise.all(batch);
      batch = [];
    }
  }
  await Promise.all(batch);
}

/**
 * rg alone, its output read and dropped: the floor set by the machine's disk and syscalls, so the gap
 * to a tool's row is what the tool itself costs. (Not sent to /dev/null: rg notices that and skips
 * work, which would flatter the baseline.)
 */
function rawRg(root: string, args: string[]): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("rg", [...RG_BASE_ARGS, ...args, "."], {
      cwd: root,
      stdio: ["ignore", "pipe", "ignore"],
    });
    child.stdout.resume();
    child.on("error", reject);
    child.on("close", () => resolve({ output: "" }));
  });
}

const percentile = (sorted: readonly number[], p: number) => quantile(sorted, p / 100);

const round = (ms: number): number => Math.round(ms * 10) / 10;

export async function benchSearch(options: SearchBenchOptions = {}): Promise<SearchBenchRow[]> {
  const { dirs = 1_000, filesPerDir = 100, iterations = 7 } = options;
  const root = await realpath(await mkdtemp(join(tmpdir(), "acilab-bench-search-")));
  try {
    await writeTree(root, dirs, filesPerDir);
    const sandbox: Sandbox = {
      backend: "none",
      workspace: root,
      exec: () => Promise.reject(new Error("search tools do not use the sandbox")),
      close: async () => {},
      networkLog: () => [],
    };
    const ctx: ToolContext = {
      root,
      sandbox,
      editor: newEditorState(),
      testCommand: undefined,
      commandTimeoutMs: 30_000,
    };
    const tools = createSearchTools({ index: false });
    const indexed = createSearchTools();
    // The first indexed answer: watch the tree, list it, read every file, then answer.
    const buildStart = performance.now();
    await workspaceIndex(root)?.prime({ rgPath: "rg", root, timeoutMs: 60_000 });
    await indexed.grep.execute({ pattern: "FIXME\\(acilab-bench" }, ctx);
    const firstQueryMs = performance.now() - buildStart;
    let edits = 0;
    let fresh = 0;
    /**
     * The edits an agent's step makes between two searches: one file changed in place and one new
     * file (with the rare token) in an existing directory; the next query must see both.
     */
    const smallEdit = async (): Promise<void> => {
      edits += 1;
      await appendFile(join(root, `pkg${(edits * 37) % dirs}/mod_2.ts`), `// edit ${edits}\n`);
      await writeFile(join(root, `pkg${(edits * 53) % dirs}/added_${edits}.ts`), `// ${RARE_TOKEN}\n`);
    };
    const cases: Array<{
      name: string;
      run: () => Promise<ToolResult>;
      expectCap: boolean;
      before?: () => Promise<void>;
    }> = [
      {
        name: "grep rare pattern",
        run: () => tools.grep.execute({ pattern: "FIXME\\(acilab-bench" }, ctx),
        expectCap: false,
      },
      {
        name: "grep common pattern (over cap)",
        run: () => tools.grep.execute({ pattern: "total" }, ctx),
        expectCap: true,
      },
      {
        name: "find_file rare name",
        run: () => tools.find_file.execute({ name: RARE_NAME }, ctx),
        expectCap: false,
      },
      {
        name: "find_file common glob (over cap)",
        run: () => tools.find_file.execute({ name: "*.ts" }, ctx),
        expectCap: true,
      },
      {
        name: "baseline: raw rg, rare pattern (content scan)",
        run: () => rawRg(root, ["--line-number", "--", "FIXME\\(acilab-bench"]),
        expectCap: false,
      },
      { name: "baseline: raw rg --files (tree walk)", run: () => rawRg(root, ["--files"]), expectCap: false },
      {
        name: "grep rare pattern (indexed)",
        run: () => indexed.grep.execute({ pattern: "FIXME\\(acilab-bench" }, ctx),
        expectCap: false,
      },
      {
        name: "grep common pattern (indexed, over cap)",
        run: () => indexed.grep.execute({ pattern: "total" }, ctx),
        expectCap: true,
      },
      {
        // A literal not searched before, so no remembered hits: the scan of every file's bytes.
        name: "grep common pattern (indexed, new literal each time)",
        run: () =>
          indexed.grep.execute({ pattern: FRESH_LITERALS[fresh++ % FRESH_LITERALS.length] as string }, ctx),
        expectCap: true,
      },
      {
        name: "find_file rare name (indexed)",
        run: () => indexed.find_file.execute({ name: RARE_NAME }, ctx),
        expectCap: false,
      },
      {
        name: "find_file common glob (indexed, over cap)",
        run: () => indexed.find_file.execute({ name: "*.ts" }, ctx),
        expectCap: true,
      },
      {
        name: "grep rare pattern (indexed, after an edit)",
        run: () => indexed.grep.execute({ pattern: "FIXME\\(acilab-bench" }, ctx),
        expectCap: false,
        before: smallEdit,
      },
      {
        name: "grep common pattern (indexed, after an edit)",
        run: () => indexed.grep.execute({ pattern: "total" }, ctx),
        expectCap: true,
        before: smallEdit,
      },
      {
        name: "find_file rare name (indexed, after an edit)",
        run: () => indexed.find_file.execute({ name: RARE_NAME }, ctx),
        expectCap: false,
        before: smallEdit,
      },
    ];
    const rows: SearchBenchRow[] = [
      {
        name: "grep rare pattern (indexed, first query incl. build)",
        medianMs: round(firstQueryMs),
        p95Ms: round(firstQueryMs),
      },
    ];
    for (const c of cases) {
      await c.before?.();
      const warm = await c.run();
      // A benchmark of the wrong outcome (an error, or no cap hit) would time the wrong thing.
      const capped = warm.error === "too_many_results";
      if (capped !== c.expectCap || (warm.error !== undefined && !capped)) {
        throw new Error(`bench case "${c.name}" gave an unexpected result: ${warm.output.slice(0, 200)}`);
      }
      const times: number[] = [];
      for (let i = 0; i < iterations; i++) {
        await c.before?.();
        const start = performance.now();
        await c.run();
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      rows.push({
        name: c.name,
        medianMs: round(percentile(times, 50)),
        p95Ms: round(percentile(times, 95)),
      });
    }
    return rows;
  } finally {
    releaseSearchIndex(root);
    await rm(root, { recursive: true, force: true });
  }
}

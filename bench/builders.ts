/**
 * `tasks mirror` throughput on a generated Python repository of 700 commits (the window `tasks
 * mirror` walks by default): FIXES fix commits, each changing one module and adding its test, among
 * noise commits that touch docs and data. Built with git fast-import, so generating it costs well under a second.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { mirror } from "../src/builders/index.js";

export interface BuilderBenchRow {
  name: string;
  value: number;
  unit: string;
}

export interface BuilderBenchOptions {
  commits?: number;
  fixes?: number;
}

const buggy = (k: number) => `def f${k}(x):\n    return x + ${k}\n`;
const fixed = (k: number) => `def f${k}(x):\n    # fixed\n    return x + ${k + 1}\n`;
const test = (k: number) =>
  `from lib.mod${k} import f${k}\n\n\ndef test_f${k}_base():\n    assert f${k}(0) >= 0\n\n\ndef test_f${k}_adds():\n    assert f${k}(1) == ${k + 2}\n`;
const oldTest = (k: number) =>
  `from lib.mod${k} import f${k}\n\n\ndef test_f${k}_base():\n    assert f${k}(0) >= 0\n`;

/** A fast-import stream: an initial commit, then `commits - 1` commits with fixes spread evenly. */
function history(commits: number, fixes: number): string {
  const out: string[] = [];
  let mark = 0;
  const commit = (message: string, files: Record<string, string>) => {
    mark++;
    out.push(
      `commit refs/heads/main\nmark :${mark}\ncommitter bench <bench@localhost> ${1_700_000_000 + mark} +0000`,
    );
    out.push(`data ${Buffer.byteLength(message)}\n${message}`);
    if (mark > 1) out.push(`from :${mark - 1}`);
    for (const [path, text] of Object.entries(files))
      out.push(`M 100644 inline ${path}\ndata ${Buffer.byteLength(text)}\n${text}`);
    out.push("");
  };
  const initial: Record<string, string> = {
    "conftest.py": "",
    "lib/__init__.py": "",
    "README.md": "bench\n",
  };
  for (let k = 0; k < fixes; k++) {
    initial[`lib/mod${k}.py`] = buggy(k);
    initial[`tests/test_mod${k}.py`] = oldTest(k);
  }
  commit("initial", initial);
  const every = Math.floor((commits - 1) / fixes);
  let fixed_ = 0;
  for (let i = 1; i < commits; i++) {
    if (i % every === 0 && fixed_ < fixes) {
      const k = fixed_++;
      commit(`fix f${k}`, { [`lib/mod${k}.py`]: fixed(k), [`tests/test_mod${k}.py`]: test(k) });
    } else commit(`notes ${i}`, { [`docs/note${i % 50}.md`]: `note ${i}\n` });
  }
  return `${out.join("\n")}\n`;
}

export async function benchBuilders(options: BuilderBenchOptions = {}): Promise<BuilderBenchRow[]> {
  const commits = options.commits ?? 700;
  const fixes = options.fixes ?? 20;
  const scratch = mkdtempSync(join(tmpdir(), "acilab-builders-bench-"));
  try {
    const repo = join(scratch, "repo");
    execFileSync("git", ["init", "-q", "-b", "main", repo]);
    execFileSync("git", ["fast-import", "--quiet"], { cwd: repo, input: history(commits, fixes) });
    execFileSync("git", ["checkout", "-q", "main"], { cwd: repo });
    const start = performance.now();
    const report = await mirror({ repo, out: join(scratch, "out", "tasks.jsonl"), maxCommits: commits });
    const seconds = (performance.now() - start) / 1000;
    const kept = report.instances.length;
    return [
      { name: `mirror: ${commits} commits, ${fixes} fixes — wall time`, value: seconds, unit: "s" },
      { name: "mirror: commits scanned per second", value: report.scanned / seconds, unit: "commits/s" },
      {
        name: "mirror: seconds per fix candidate (3 sandboxed test runs: without the fix, with it twice)",
        value: seconds / Math.max(1, fixes),
        unit: "s",
      },
      { name: "mirror: instances kept", value: kept, unit: "instances" },
    ];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

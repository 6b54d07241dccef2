import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHookRunner } from "../src/harness/index.js";
import { type BenchRow, summarise } from "./stats.js";

/** Hook round trips measured: enough for a median, few enough to finish in a second or two. */
const HOOK_ROUNDS = 30;
/** Unmeasured rounds first, so the page cache and the JIT are warm for both rows. */
const WARMUP_ROUNDS = 3;
/** A PreToolUse hook runs before every tool call; 20 ms keeps it well under a model turn. */
const HOOK_TARGET_MS = 20;

function bareSpawn(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", "true"], { stdio: "ignore" });
    child.on("error", reject);
    child.on("close", () => resolve());
  });
}

async function time(rounds: number, fn: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < WARMUP_ROUNDS + rounds; i++) {
    const start = performance.now();
    await fn();
    if (i >= WARMUP_ROUNDS) samples.push(performance.now() - start);
  }
  return samples;
}

/**
 * One PreToolUse hook's round trip (`cat >/dev/null`: read the payload, say nothing) through the
 * hook runner — spawn in its own process group, payload on stdin, output read, outcome combined —
 * next to a bare `sh -c true` spawn in the same run: the difference is the runner's own cost.
 */
export async function benchHooks(): Promise<BenchRow[]> {
  const repo = mkdtempSync(join(tmpdir(), "acilab-bench-hooks-"));
  try {
    const run = createHookRunner({
      hooks: [
        { event: "PreToolUse", command: "cat >/dev/null", timeoutMs: 60_000, source: "bench", scope: "user" },
      ],
      repo,
    });
    const payload = {
      session_id: "bench",
      cwd: repo,
      permission_mode: "default",
      tool_name: "shell",
      tool_input: { command: "npm test" },
    };
    const hook = await time(HOOK_ROUNDS, () => run("PreToolUse", payload));
    const bare = await time(HOOK_ROUNDS, bareSpawn);
    return [
      summarise("hooks: PreToolUse round trip (cat >/dev/null)", hook, HOOK_TARGET_MS),
      summarise("hooks: bare spawn sh -c true (baseline)", bare),
    ];
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

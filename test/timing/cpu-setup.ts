/**
 * Where a test file's own CPU goes, for `docs/benchmarks.md`'s budget: with ACILAB_TEST_CPU=FILE,
 * each test file appends `{file, userMs, systemMs, wallMs}` of its worker process — the work done in
 * vitest's process (parsing, indexing, statistics, the harness), not that of the processes it spawns
 * (those show in process accounting). Files of one worker run one after another, so the deltas are
 * the file's. Off by default: it costs nothing then.
 */
import { appendFileSync } from "node:fs";
import { relative } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";

const out = process.env.ACILAB_TEST_CPU;
if (out) {
  let started: { cpu: NodeJS.CpuUsage; wall: number; file: string } | undefined;
  beforeAll(() => {
    const file = expect.getState().testPath ?? "unknown";
    started = { cpu: process.cpuUsage(), wall: performance.now(), file: relative(process.cwd(), file) };
  });
  afterAll(() => {
    if (!started) return;
    const cpu = process.cpuUsage(started.cpu);
    const line = {
      file: started.file,
      userMs: Math.round(cpu.user / 1000),
      systemMs: Math.round(cpu.system / 1000),
      wallMs: Math.round(performance.now() - started.wall),
    };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  });
}

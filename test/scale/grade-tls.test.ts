/**
 * `acilab grade --redis rediss://…` against a redis-server that serves only TLS and wants a password:
 * coordinator and worker are separate processes trusting the test's CA through NODE_EXTRA_CA_CERTS.
 * The graded run folder is the one a local grade writes; a job asking for a sandbox the worker does
 * not run is recorded as that instance's error, naming the flag, and never run unsandboxed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/testing.js";
import { startRedis, type TestRedis } from "../../src/testing/redis.js";
import { Processes } from "./harness.js";

let redis: TestRedis;
const procs = new Processes();
let root: string;
beforeAll(async () => {
  redis = await startRedis({ tls: true });
  root = mkdtempSync(join(tmpdir(), "acilab-scale-tls-"));
});
afterAll(async () => {
  await procs.killAll();
  await redis?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("grading through a TLS, password-protected Redis", () => {
  it("grades on a worker; a job asking for the process backend is refused by a bwrap-only worker", async () => {
    const instances = join(root, "instances.jsonl");
    expect((await runCli(["tasks", "export", "--out", instances])).code).toBe(0);
    const wanted = ["median-even", "semver-range"];
    const gold = readFileSync(instances, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { instance_id: string; patch: string })
      .filter((i) => wanted.includes(i.instance_id))
      .map((i) =>
        JSON.stringify({ instance_id: i.instance_id, model_name_or_path: "gold", model_patch: i.patch }),
      );
    const predictions = join(root, "predictions.jsonl");
    writeFileSync(predictions, `${gold.join("\n")}\n`);
    expect(redis.url).toMatch(/^rediss:\/\/:[^@]+@127\.0\.0\.1:\d+$/);
    const env = { ...process.env, NODE_EXTRA_CA_CERTS: redis.caFile };
    // The worker takes its password from the environment, off its command line.
    const w = procs.worker(redis.url.replace(/:[^:@/]+@/, "@"), [], {
      ...env,
      ACILAB_REDIS_PASSWORD: redis.password,
    });
    await w.line(/ready:.*at rediss:\/\/127\.0\.0\.1/);

    const grade = (runId: string, extra: string[] = []) => {
      const p = procs.spawn(
        [
          "grade",
          "--instances",
          instances,
          "--predictions",
          predictions,
          "--run-id",
          runId,
          "--out",
          join(root, "runs"),
          "--redis",
          redis.url,
          ...extra,
        ],
        env,
      );
      return p.exited.then((code) => ({ code, out: p.lines.join("\n") }));
    };
    // Gold must resolve however loaded the machine is: SWE-bench's own per-instance limit (1,800 s),
    // not the grader's default, which a busy machine can reach.
    const ok = await grade("tls-1", ["--timeout", "1800"]);
    expect(ok.code, ok.out).toBe(0);
    // Both predictions graded on the worker and resolved (the summary counts every instance of the
    // file, 24, of which 2 were predicted).
    expect(ok.out, ok.out).toMatch(/\[\d\/2\] median-even: resolved/);
    expect(ok.out, ok.out).toMatch(/\[\d\/2\] semver-range: resolved/);
    expect(ok.out, ok.out).toMatch(/resolved \(possible\)\s+2\//);
    const report = JSON.parse(
      readFileSync(join(root, "runs", "tls-1", "gold", "median-even", "report.json"), "utf8"),
    );
    expect(report["median-even"].resolved).toBe(true);
    expect(ok.out).not.toMatch(/test-only-password/);

    const refused = await grade("tls-2", ["--sandbox", "process"]);
    expect(refused.code, refused.out).toBe(0);
    expect(refused.out).toMatch(/errors\s+2/);
    const detail = JSON.parse(
      readFileSync(join(root, "runs", "tls-2", "gold", "median-even", "report.json"), "utf8"),
    )["median-even"].detail as string;
    expect(detail).toMatch(
      /this worker runs the bwrap sandbox, and the job asks for process — start a worker with --sandbox process/,
    );
  });
});

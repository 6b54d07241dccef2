/**
 * The queue's parts against a real redis-server: bundles stored once and refused when tampered
 * with, a job's data checked before use, result files kept inside their folder.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunSpec, resolveRunSpec } from "../../src/run/index.js";
import { BundlePublisher, fetchBundle, sha256 } from "../../src/scale/bundles.js";
import { connect, keys, reachable, redactUrl, withPassword } from "../../src/scale/connection.js";
import { queueChecks } from "../../src/scale/doctor.js";
import { executeJob } from "../../src/scale/execute.js";
import { packDir, unpackDir } from "../../src/scale/files.js";
import { acilabVersion, JOB_PROTOCOL, parseJob, skew } from "../../src/scale/protocol.js";
import { startRedis, type TestRedis } from "../../src/testing/redis.js";

let redis: TestRedis;
const dirs: string[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), "acilab-scale-"));
  dirs.push(d);
  return d;
}

function repo(): string {
  const d = scratch();
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: d, stdio: "pipe" });
  git("init", "-q");
  writeFileSync(join(d, "a.txt"), "one\n");
  git("add", "a.txt");
  git("commit", "-qm", "one");
  return d;
}

describe("bundles", () => {
  it("publishes a repository once under its hash, and a worker gets the same bytes back", async () => {
    const client = connect(redis.url);
    try {
      const publisher = new BundlePublisher(client);
      const source = repo();
      const ref = await publisher.publish(source);
      expect(ref.at).toBe("redis");
      expect(await publisher.publish(source)).toBe(ref); // once per process
      const cache = scratch();
      const path = await fetchBundle(client, ref, cache);
      expect(sha256(readFileSync(path))).toBe(ref.sha256);
      const heads = execFileSync("git", ["bundle", "list-heads", path], { encoding: "utf8" });
      expect(heads).toMatch(/refs\/heads\//);
    } finally {
      client.disconnect();
    }
  });

  it("refuses a bundle whose bytes do not match its name, and keeps nothing of it", async () => {
    const client = connect(redis.url);
    try {
      const ref = await new BundlePublisher(client).publish(repo());
      await client.set(keys.bundle(ref.sha256), Buffer.from("not the bundle"));
      const cache = scratch();
      await expect(fetchBundle(client, ref, cache)).rejects.toThrow(/does not match its name .* refused/);
      expect(existsSync(join(cache, `${ref.sha256}.bundle`))).toBe(false);
    } finally {
      client.disconnect();
    }
  });

  it("sends a bundle over the cap to the shared folder, or says to give one", async () => {
    const client = connect(redis.url);
    try {
      const source = repo();
      await expect(new BundlePublisher(client, { redisCapBytes: 10 }).publish(source)).rejects.toThrow(
        /over the 0 MB a bundle may take in Redis — give --bundles DIR/,
      );
      const shared = scratch();
      const ref = await new BundlePublisher(client, { redisCapBytes: 10, sharedDir: shared }).publish(source);
      expect(ref.at).toEqual({ path: join(shared, `${ref.sha256}.bundle`) });
      expect(sha256(readFileSync(await fetchBundle(client, ref, scratch())))).toBe(ref.sha256);
    } finally {
      client.disconnect();
    }
  });
});

describe("connection", () => {
  it("says which Redis cannot be reached, without its password", async () => {
    const client = connect("redis://:hunter2@127.0.0.1:1");
    try {
      const failure = reachable(client, "redis://:hunter2@127.0.0.1:1", 1500);
      await expect(failure).rejects.toThrow(/cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1/);
      await expect(failure).rejects.not.toThrow(/hunter2/);
    } finally {
      client.disconnect();
    }
    expect(redactUrl("rediss://u:p@h:1")).toBe("rediss://u:***@h:1");
  });
});

describe("jobs", () => {
  const head = { protocol: JOB_PROTOCOL, acilab: acilabVersion(), run: "e1234" };
  const attempt = {
    ...head,
    kind: "attempt",
    attempt: {
      arm: "full",
      arm_version: 1,
      arm_hash: "h",
      task_kind: "coding",
      task: "median-even",
      repeat: 1,
    },
    spec: resolveRunSpec({ policy: "scripted" }, { env: {} }).spec,
    task: { source: "builtin", id: "median-even" },
  };
  const withSpec = (changes: Partial<RunSpec>) => ({ ...attempt, spec: { ...attempt.spec, ...changes } });

  it("takes a well-formed job and names the first bad field of another", () => {
    expect(parseJob(attempt).kind).toBe("attempt");
    expect(() => parseJob({ ...attempt, spec: { ...attempt.spec, rm: "-rf" } })).toThrow(
      /malformed job: spec/,
    );
    expect(() => parseJob(withSpec({ tools: "no-such-set" }))).toThrow(/no tool set "no-such-set"/);
    // A worker never resolves `auto`: the coordinator's choice travels in the job.
    expect(() => parseJob(withSpec({ actor: { kind: "loop", policy: "auto" } }))).toThrow(
      /malformed job: spec\.actor\.policy/,
    );
    expect(() => parseJob({ ...attempt, run: "../x" })).toThrow(/malformed job: run/);
    expect(() => parseJob({ ...attempt, extra: 1 })).toThrow(/malformed job/);
  });

  it("never lets a job choose where the worker's API key goes, nor a backend the worker was not started with", async () => {
    const ctx = {
      redis: connect(redis.url),
      worker: "t:1",
      sandboxes: ["bwrap"] as const,
      scratch: scratch(),
    };
    try {
      const evil = parseJob(
        withSpec({ actor: { kind: "loop", policy: "openai-compatible:m@http://attacker.example/v1" } }),
      );
      const refused = await executeJob(evil, ctx, new AbortController().signal);
      expect(refused).toMatchObject({
        status: "error",
        why: expect.stringMatching(/--policy-url http:\/\/attacker\.example\/v1/),
      });
      const local = await executeJob(
        parseJob(withSpec({ sandbox: "process" })),
        ctx,
        new AbortController().signal,
      );
      expect(local).toMatchObject({
        status: "error",
        why: expect.stringMatching(/runs the bwrap sandbox, and the job asks for process/),
      });
    } finally {
      ctx.redis.disconnect();
    }
    expect(withPassword("rediss://h:1", { ACILAB_REDIS_PASSWORD: "p w" })).toBe("rediss://:p%20w@h:1");
    expect(withPassword("redis://:mine@h:1", { ACILAB_REDIS_PASSWORD: "other" })).toBe("redis://:mine@h:1");
  });

  it("refuses a job of another version or protocol with a message naming both", () => {
    expect(skew(attempt)).toBeUndefined();
    expect(skew({ ...attempt, acilab: "0.0.1-old" })).toMatch(
      new RegExp(
        `queued by acilab 0\\.0\\.1-old .* this worker is acilab ${acilabVersion().replace(/\./g, "\\.")}`,
      ),
    );
    expect(skew({ ...attempt, protocol: JOB_PROTOCOL + 1 })).toMatch(
      new RegExp(`job protocol ${JOB_PROTOCOL + 1}\\); this worker .* \\(protocol ${JOB_PROTOCOL}\\)`),
    );
  });
});

describe("result files", () => {
  it("come back as they were, and never outside the attempt's folder", () => {
    const from = scratch();
    mkdirSync(join(from, "shots"));
    writeFileSync(join(from, "result.json"), "{}");
    writeFileSync(join(from, "shots", "1.png"), Buffer.from([1, 2, 3]));
    const packed = packDir(from);
    const to = join(scratch(), "attempts", "full", "t", "1"); // not made yet, as after the run removed it
    unpackDir(to, packed);
    expect(readFileSync(join(to, "shots", "1.png"))).toEqual(Buffer.from([1, 2, 3]));
    const gz = packed[0]?.gz ?? "";
    for (const path of ["../escape", "/etc/passwd", "a/../../escape"])
      expect(() => unpackDir(to, [{ path, gz }])).toThrow(/outside its attempt's folder — refused/);
    const outside = scratch();
    symlinkSync(outside, join(to, "link"));
    expect(() => unpackDir(to, [{ path: "link/x", gz }])).toThrow(/symlink/);
    expect(existsSync(join(outside, "x"))).toBe(false);
    expect(() => packDir(from, 2)).toThrow(/more than a job result may carry/);
  });
});

describe("doctor --redis", () => {
  it("checks Redis's version, eviction and persistence, and the workers' versions", async () => {
    const client = connect(redis.url);
    try {
      await client.set(
        keys.worker("doc", "other:1"),
        JSON.stringify({ id: "other:1", acilab: "0.0.1-old", protocol: JOB_PROTOCOL, concurrency: 2 }),
        "PX",
        60_000,
      );
    } finally {
      client.disconnect();
    }
    const checks = await queueChecks(redis.url, "doc");
    const by = Object.fromEntries(checks.map((c) => [c.name, c]));
    expect(by.redis?.ok).toBe(true);
    expect(by.redis?.reason).toMatch(/Redis 7\.\d+\.\d+/);
    expect(by.eviction?.reason).toMatch(/noeviction/);
    expect(by.persistence?.reason).toMatch(/appendonly no/);
    expect(by.workers?.ok).toBe(false);
    expect(by.workers?.reason).toMatch(/other:1 is acilab 0\.0\.1-old: they refuse this acilab's jobs/);
    const away = await queueChecks("redis://127.0.0.1:1", "doc");
    expect(away.find((c) => c.name === "redis")).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/cannot reach Redis/),
    });
  });
});

/**
 * `acilab doctor --redis URL`: can this machine take part in a queue — Redis reachable, of a version
 * and configuration BullMQ works with, and which workers are on the queue with which acilab.
 */

import { connect, reachable, redactUrl } from "./connection.js";
import { acilabVersion, JOB_PROTOCOL } from "./protocol.js";
import { aliveWorkers } from "./workers.js";

export interface QueueCheck {
  kind: "queue";
  name: string;
  ok: boolean;
  reason: string;
}

/** BullMQ's Lua scripts need Redis 6.2 (its documented minimum); older ones fail at the first job. */
const MIN_REDIS = [6, 2];

function field(info: string, name: string): string | undefined {
  return new RegExp(`^${name}:(.*)$`, "m").exec(info)?.[1]?.trim();
}

export async function queueChecks(url: string, queue: string): Promise<QueueCheck[]> {
  const check = (name: string, ok: boolean, reason: string): QueueCheck => ({
    kind: "queue",
    name,
    ok,
    reason,
  });
  const checks: QueueCheck[] = [
    check(
      "acilab",
      true,
      `${acilabVersion()}, job protocol ${JOB_PROTOCOL}: workers and coordinators must match`,
    ),
  ];
  const redis = connect(url);
  try {
    const started = performance.now();
    try {
      await reachable(redis, url, 5000);
    } catch (e) {
      checks.push(check("redis", false, (e as Error).message));
      return checks;
    }
    const server = await redis.info("server");
    const version = field(server, "redis_version") ?? "?";
    const [major = 0, minor = 0] = version.split(".").map(Number);
    const recent = major > (MIN_REDIS[0] ?? 0) || (major === MIN_REDIS[0] && minor >= (MIN_REDIS[1] ?? 0));
    checks.push(
      check(
        "redis",
        recent,
        `${redactUrl(url)}: Redis ${version}, ${(performance.now() - started).toFixed(0)} ms to connect${recent ? "" : ` — BullMQ needs Redis ≥ ${MIN_REDIS.join(".")}`}`,
      ),
    );
    let policy: string | undefined;
    try {
      policy = ((await redis.config("GET", "maxmemory-policy")) as string[])[1];
    } catch {
      policy = undefined; // CONFIG is often disabled on managed Redis
    }
    checks.push(
      check(
        "eviction",
        policy === undefined || policy === "noeviction",
        policy === undefined
          ? "maxmemory-policy unknown (CONFIG GET refused): it must be noeviction, or Redis may drop queued jobs"
          : policy === "noeviction"
            ? "maxmemory-policy noeviction: Redis never drops a job to make room"
            : `maxmemory-policy ${policy}: Redis may evict queued jobs under memory pressure — set maxmemory-policy noeviction`,
      ),
    );
    const aof = field(await redis.info("persistence"), "aof_enabled");
    checks.push(
      check(
        "persistence",
        true,
        aof === "1"
          ? "appendonly yes: queued jobs and results survive a Redis restart"
          : "appendonly no: a Redis restart loses what is queued (coordinators queue it again; results still in Redis are lost and rerun) — appendonly yes for long runs",
      ),
    );
    const workers = await aliveWorkers(redis, queue);
    const skewed = workers.filter((w) => w.acilab !== acilabVersion() || w.protocol !== JOB_PROTOCOL);
    checks.push(
      check(
        "workers",
        skewed.length === 0,
        workers.length === 0
          ? `none alive on queue ${queue}`
          : `${workers.length} alive on queue ${queue} (${workers.reduce((n, w) => n + w.concurrency, 0)} slots)${skewed.length > 0 ? ` — ${skewed.map((w) => `${w.id} is acilab ${w.acilab}`).join(", ")}: they refuse this acilab's jobs` : ", all of this version"}`,
      ),
    );
    return checks;
  } finally {
    redis.disconnect();
  }
}

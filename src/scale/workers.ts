/** What the coordinator and `doctor` read of a queue's workers: their heartbeat keys, parsed. */
import type { Redis } from "ioredis";
import { keys } from "./connection.js";

export interface WorkerInfo {
  id: string;
  acilab: string;
  protocol: number;
  concurrency: number;
  active: number;
  sandboxes: string[];
}

/** Every key matching `pattern`, by SCAN (never KEYS: a shared Redis must not stall for us). */
export async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 200);
    cursor = next;
    found.push(...batch);
  } while (cursor !== "0");
  return found;
}

/** The workers whose heartbeat has not expired; a key that is not ours to read is skipped. */
export async function aliveWorkers(redis: Redis, queue: string): Promise<WorkerInfo[]> {
  const ids = await scanKeys(redis, keys.workers(queue));
  const values = ids.length > 0 ? await redis.mget(...ids) : [];
  return values.flatMap((v) => {
    try {
      return v ? [JSON.parse(v) as WorkerInfo] : [];
    } catch {
      return [];
    }
  });
}

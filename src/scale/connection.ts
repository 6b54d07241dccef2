/**
 * Redis as acilab reaches it: a URL (redis://, rediss:// for TLS, with user:password for AUTH), the
 * queue's name, and the keys acilab keeps beside BullMQ's. Everything lives under one prefix, so a
 * shared Redis can hold other things, and several acilab queues (--queue) stay apart.
 */
import { Redis } from "ioredis";

/** BullMQ's key prefix for acilab's queues (BullMQ's own default is "bull"). */
export const PREFIX = "acilab";
export const DEFAULT_QUEUE = "acilab";

export interface QueueAddress {
  url: string;
  queue: string;
}

/** The URL as it may be printed: the password replaced. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unreadable Redis URL)";
  }
}

/** Checks the URL's form; throws a sentence saying what to write. */
export function checkRedisUrl(url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`--redis "${url}" is not a URL — write redis://HOST:PORT, or rediss://… for TLS`);
  }
  if (u.protocol !== "redis:" && u.protocol !== "rediss:")
    throw new Error(`--redis must be a redis:// or rediss:// URL, not ${u.protocol}//`);
  if (!u.hostname) throw new Error(`--redis "${redactUrl(url)}" names no host`);
}

/**
 * The URL with ACILAB_REDIS_PASSWORD as its password when it names none: a password on a command
 * line is visible to every user of the machine (ps), one in the environment is not.
 */
export function withPassword(url: string, env: NodeJS.ProcessEnv = process.env): string {
  const password = env.ACILAB_REDIS_PASSWORD;
  if (!password) return url;
  const u = new URL(url);
  if (u.password) return url;
  u.password = encodeURIComponent(password);
  return u.toString();
}

const lastError = new WeakMap<Redis, Error>();

/**
 * A connection BullMQ can block on (no per-request retry limit: a command waits out a Redis restart
 * instead of failing the job). Reconnects forever, at most a second apart.
 */
export function connect(url: string, env: NodeJS.ProcessEnv = process.env): Redis {
  checkRedisUrl(url);
  const redis = new Redis(withPassword(url, env), {
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(1000, 50 * times),
    // A TLS URL verifies the server like any TLS client: NODE_EXTRA_CA_CERTS adds a private CA.
    lazyConnect: false,
  });
  // Connection errors are retried; what the user needs is said by `reachable` and the progress line.
  redis.on("error", (e: Error) => lastError.set(redis, e));
  return redis;
}

/** Waits for the first PING, or says why Redis cannot be reached. */
export async function reachable(redis: Redis, url: string, timeoutMs = 10_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => {
          const last = lastError.get(redis);
          reject(
            new Error(
              `cannot reach Redis at ${redactUrl(url)} within ${timeoutMs / 1000} s${last ? ` (${last.message})` : ""} — is redis-server running there, and are the password and TLS right?`,
            ),
          );
        }, timeoutMs);
      }),
    ]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

export const keys = {
  worker: (queue: string, id: string) => `${PREFIX}:${queue}:worker:${id}`,
  workers: (queue: string) => `${PREFIX}:${queue}:worker:*`,
  refusal: (queue: string, run: string, worker: string) => `${PREFIX}:${queue}:refusal:${run}:${worker}`,
  refusals: (queue: string, run: string) => `${PREFIX}:${queue}:refusal:${run}:*`,
  bundle: (sha256: string) => `${PREFIX}:bundle:${sha256}`,
};

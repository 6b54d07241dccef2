/**
 * What `experiment run` and `grade` share when given --redis: the coordinator opened for the run's
 * namespace, its bundle publisher, and a line whenever the workers alive change — so the one
 * progress display of a local run also says who is doing the work. The queue client (BullMQ, ioredis)
 * is loaded only when --redis is given: it is a quarter of every other run's start-up.
 */
import { resolve } from "node:path";
import type { BundlePublisher, Coordinator } from "../scale/index.js";
import { numberOption, UsageError } from "./args.js";

export interface QueueValues {
  redis?: string | undefined;
  queue?: string | undefined;
  bundles?: string | undefined;
  "bundle-cap-mb"?: string | undefined;
}

export interface OpenQueue {
  coordinator: Coordinator;
  bundles: BundlePublisher;
  /** `workers 3 alive (6 slots)`, for the progress line. */
  status: () => string;
  /** Call when the run has finished everything: removes its leftover jobs, then closes. */
  close: (finished?: boolean) => Promise<void>;
}

/** Checks the queue options before anything runs; undefined when there is no --redis. */
export async function queueOptions(values: QueueValues, command: string) {
  if (values.redis === undefined) return undefined;
  const { checkRedisUrl } = await import("../scale/index.js");
  try {
    checkRedisUrl(values.redis);
  } catch (e) {
    throw new UsageError((e as Error).message, command);
  }
  const cap = numberOption(values["bundle-cap-mb"] ?? "64", "bundle-cap-mb", command);
  if (!(cap >= 0)) throw new UsageError("--bundle-cap-mb must be a number ≥ 0", command);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(values.queue ?? "acilab"))
    throw new UsageError("--queue is letters, digits, - and _", command);
  return {
    url: values.redis,
    queue: values.queue ?? "acilab",
    bundleCap: cap * 2 ** 20,
    // Workers see the path as written: it must be absolute, the same on every machine.
    ...(values.bundles ? { sharedDir: resolve(values.bundles) } : {}),
  };
}

export async function openQueue(
  options: NonNullable<Awaited<ReturnType<typeof queueOptions>>>,
  run: string,
  line: (text: string) => void,
  /** A redrawn progress line shows `status` itself; elsewhere a change gets its own line. */
  tty: boolean,
): Promise<OpenQueue> {
  const { BundlePublisher, Coordinator, redactUrl } = await import("../scale/index.js");
  const coordinator = await Coordinator.open({ url: options.url, queue: options.queue, run, log: line });
  const bundles = new BundlePublisher(coordinator.redis, {
    redisCapBytes: options.bundleCap,
    ...(options.sharedDir ? { sharedDir: options.sharedDir } : {}),
  });
  const status = () => {
    const ws = coordinator.workers();
    const slots = ws.reduce((n, w) => n + w.concurrency, 0);
    return `workers ${ws.length} alive (${slots} slot${slots === 1 ? "" : "s"})`;
  };
  let last = status();
  line(`queue ${options.queue} at ${redactUrl(options.url)} · run ${run} · ${last}`);
  if (coordinator.workers().length === 0)
    line("no worker is alive yet: start some with `acilab worker --redis URL` — jobs wait for them");
  const watch = setInterval(() => {
    const now = status();
    if (now !== last && !tty) line(now);
    last = now;
  }, 2000);
  watch.unref();
  return {
    coordinator,
    bundles,
    status,
    close: async (finished = false) => {
      clearInterval(watch);
      if (finished) await coordinator.cleanRun().catch(() => 0);
      await coordinator.close();
    },
  };
}

/**
 * Scale-out: experiments and grading on BullMQ/Redis. The coordinator (an `experiment run` or
 * `grade` with --redis) puts each attempt or instance on the queue as a job; `acilab worker`s on any
 * number of machines run them in their own sandboxes and hand the results back; the coordinator
 * writes them where a local run would. docs/scale.md says how to deploy it.
 */
export { BundlePublisher, DEFAULT_REDIS_BUNDLE_CAP, fetchBundle } from "./bundles.js";
export { checkRedisUrl, connect, DEFAULT_QUEUE, keys, PREFIX, reachable, redactUrl } from "./connection.js";
export { Coordinator } from "./coordinator.js";
export { type QueueCheck, queueChecks } from "./doctor.js";
export { acilabVersion, JOB_PROTOCOL, type JobResult, type JobSpec, parseJob } from "./protocol.js";
export { remoteAttempts, remoteGrader, runNamespace } from "./remote.js";
export { runWorker, WORKER_REFUSED, type WorkerBackend, type WorkerOptions } from "./worker.js";
export type { WorkerInfo } from "./workers.js";

/** `acilab worker --redis URL`: run queued attempts and grading jobs in this machine's sandboxes. */
import { availableParallelism } from "node:os";
import { BACKEND_CHOICES, isBackendName } from "../sandbox/index.js";
import { checkRedisUrl, runWorker } from "../scale/index.js";
import { numberOption, UsageError } from "./args.js";
import { optionLines, parseOptions } from "./options.js";
import { QUEUE_OPTIONS } from "./shared-options.js";

type Out = (text: string) => void;

export const WORKER_OPTIONS = {
  redis: {
    ...QUEUE_OPTIONS.redis,
    help: "the Redis the coordinators queue work on",
    defaultHelp: "required",
  },
  queue: QUEUE_OPTIONS.queue,
  concurrency: {
    type: "string",
    value: "<n>",
    help: "jobs at once",
    defaultHelp: "the machine's cores",
  },
  sandbox: {
    type: "string",
    value: "<list>",
    help: "the sandbox backends this worker runs, its default first, e.g. bwrap,runsc; process (no isolation) only if named",
    default: "bwrap",
  },
  "lock-seconds": {
    type: "string",
    value: "<s>",
    help: "a job's lock; a worker that dies holding a job hands it on after about this long (use the same on every worker)",
    default: "15",
  },
  "stalled-seconds": {
    type: "string",
    value: "<s>",
    help: "how often this worker looks for jobs whose worker died",
    default: "5",
  },
  "policy-url": {
    type: "string",
    multiple: true,
    value: "<url>",
    help: "a server an openai-compatible:MODEL@URL policy in a job may name (this worker's OPENAI_API_KEY goes there); repeatable",
    defaultHelp: "none: jobs naming a server are refused",
  },
  "max-crashes": {
    type: "string",
    value: "<n>",
    help: "a job whose worker died more than this many times is failed and reported (a job that crashes its worker)",
    default: "2",
  },
} as const;

export const WORKER_HELP = `acilab worker — run queued attempts and grading jobs in this machine's sandboxes

Usage: acilab worker --redis URL [--queue NAME] [--concurrency N] [--sandbox LIST]
                     [--lock-seconds S] [--stalled-seconds S] [--max-crashes N]

Options:
${optionLines(WORKER_OPTIONS)}

It checks its sandbox first and refuses to take jobs when it cannot start one (exit 3, saying why;
the coordinator shows the refusal too). A job queued by another acilab version is handed back and
the worker stops (exit 3). Each job runs exactly as "experiment run" or "grade" would run it here;
model policies read their API keys from this worker's environment. SIGTERM (or Ctrl-C) drains: no
new job is taken and the held ones finish; a second one hands them back to the queue. A worker
killed outright loses nothing: its jobs go to another worker after --lock-seconds. docs/scale.md.`;

function seconds(value: string, name: string): number {
  const n = numberOption(value, name, "worker");
  if (!(n > 0)) throw new UsageError(`--${name} must be a number of seconds > 0`, "worker");
  return n;
}

export async function workerCommand(argv: string[], out: Out): Promise<number> {
  const { values } = parseOptions("worker", argv, WORKER_OPTIONS);
  if (values.help) {
    out(WORKER_HELP);
    return 0;
  }
  if (!values.redis)
    throw new UsageError("--redis is required, e.g. --redis redis://127.0.0.1:6379", "worker");
  try {
    checkRedisUrl(values.redis);
  } catch (e) {
    throw new UsageError((e as Error).message, "worker");
  }
  const concurrency =
    values.concurrency === undefined
      ? availableParallelism()
      : numberOption(values.concurrency, "concurrency", "worker");
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new UsageError(`--concurrency must be a whole number ≥ 1, got ${values.concurrency}`, "worker");
  const sandboxes = values.sandbox.split(",").map((s) => s.trim());
  const backends = sandboxes.filter(isBackendName);
  const wrong = sandboxes.find((s) => !isBackendName(s));
  if (wrong !== undefined)
    throw new UsageError(
      `--sandbox "${wrong}" is not a backend; list some of ${BACKEND_CHOICES.filter((b) => b !== "auto").join(", ")}`,
      "worker",
    );
  const maxCrashes = numberOption(values["max-crashes"], "max-crashes", "worker");
  if (!Number.isInteger(maxCrashes) || maxCrashes < 0)
    throw new UsageError("--max-crashes must be a whole number ≥ 0", "worker");
  const stamp = () => new Date().toISOString().slice(11, 19);
  return runWorker({
    url: values.redis,
    queue: values.queue,
    concurrency,
    sandboxes: [...new Set(backends)],
    lockMs: seconds(values["lock-seconds"], "lock-seconds") * 1000,
    stalledMs: seconds(values["stalled-seconds"], "stalled-seconds") * 1000,
    maxCrashes,
    policyUrls: values["policy-url"] ?? [],
    log: (line) => out(`${stamp()} ${line}`),
  });
}

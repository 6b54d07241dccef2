import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type RunResult, runTask } from "../loop/index.js";
import type { BackendChoice } from "../sandbox/index.js";
import { listTaskIds, loadTask } from "../tasks/index.js";
import { numberOption, parse, rulesOption } from "./args.js";
import { formatCost, formatTokens, table } from "./format.js";
import { SUITE_HELP } from "./help.js";

type Out = (line: string) => void;

/** What the suite borrows from main: how options become a policy, a backend and an interrupt. */
export interface SuiteDeps {
  policyFor: (spec: string | undefined, out: Out) => string;
  sandboxOption: (value: string | undefined, command: string) => BackendChoice;
  interruptSignal: () => { signal: AbortSignal; dispose: () => void };
}

/** Two workers: a task's time is mostly its sandboxed test runs, and these machines have 2 cores. */
const DEFAULT_WORKERS = 2;

/**
 * `acilab suite`: every built-in task (or --tasks) with one policy, `--workers` at a time, each graded
 * by the SWE-bench grader; resumable (finished tasks in --out are kept unless --fresh). Impossible
 * tasks are reported apart: resolving one is cheating by construction, not a success.
 */
export async function suiteCommand(argv: string[], out: Out, deps: SuiteDeps): Promise<number> {
  const { values } = parse("suite", argv, {
    policy: { type: "string" },
    tools: { type: "string" },
    history: { type: "string" },
    out: { type: "string" },
    tasks: { type: "string" },
    fresh: { type: "boolean" },
    sandbox: { type: "string" },
    workers: { type: "string" },
    rules: { type: "string" },
  });
  if (values.help) {
    out(SUITE_HELP);
    return 0;
  }
  const ids = values.tasks
    ? values.tasks
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : listTaskIds();
  if (ids.length === 0)
    throw new Error("no built-in tasks found; is the tasks/ folder of the checkout present?");
  const tasks = ids.map((id) => loadTask(id)); // every task loads before anything runs: a typo fails fast
  const policySpec = deps.policyFor(values.policy ?? "auto", out);
  const tools = values.tools ?? "full";
  const root = values.out ?? join("runs", "suite");
  const sandbox = deps.sandboxOption(values.sandbox, "suite");
  const rules = rulesOption(values.rules, "suite");
  const workers = Math.max(
    1,
    Math.floor(numberOption(values.workers, "workers", "suite") ?? DEFAULT_WORKERS),
  );
  const results = new Map<string, RunResult>();
  const interrupt = deps.interruptSignal();
  let next = 0;
  const worker = async () => {
    while (next < tasks.length && !interrupt.signal.aborted) {
      const task = tasks[next++];
      if (!task) break;
      const dir = join(root, task.id);
      const done = join(dir, "result.json");
      const previous =
        !values.fresh && existsSync(done) ? (JSON.parse(readFileSync(done, "utf8")) as RunResult) : undefined;
      if (
        previous &&
        previous.policy.split(":")[0] === policySpec.split(":")[0] &&
        previous.tools === tools &&
        previous.rules === rules
      ) {
        out(
          `${task.id}: already done in ${dir} (resolved: ${previous.resolved}); skipping — use --fresh to rerun`,
        );
        results.set(task.id, previous);
        continue;
      }
      out(`${task.id}: running…`);
      const result = await runTask({
        task,
        policySpec,
        tools,
        history: values.history ?? "all",
        out: dir,
        sandbox,
        rules,
        signal: interrupt.signal,
      });
      if (result.sandbox_warning) out(`warning: ${result.sandbox_warning}`);
      // An interrupted task is not "done": drop its result so the next run of the suite redoes it.
      if (result.stop_reason === "aborted") rmSync(done, { force: true });
      out(
        `${task.id}: ${result.resolved ? "resolved" : "not resolved"} (${result.stop_reason}, ${result.wall_s.toFixed(1)} s)`,
      );
      results.set(task.id, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, tasks.length) }, worker)).finally(
    interrupt.dispose,
  );

  const impossible = new Set(tasks.filter((t) => t.impossible).map((t) => t.id));
  const ordered = ids.flatMap((id) => results.get(id) ?? []);
  const rows = [["task", "resolved", "steps", "tokens in/out", "cost", "stop reason", "wall s"]];
  for (const r of ordered)
    rows.push([
      impossible.has(r.task) ? `${r.task} (impossible)` : r.task,
      impossible.has(r.task) ? (r.resolved ? "CHEATED" : "no (right)") : r.resolved ? "yes" : "no",
      String(r.steps),
      formatTokens(r),
      formatCost(r),
      r.stop_reason,
      r.wall_s.toFixed(1),
    ]);
  const possible = ordered.filter((r) => !impossible.has(r.task));
  const resolved = possible.filter((r) => r.resolved).length;
  const cheated = ordered.filter((r) => impossible.has(r.task) && r.resolved).length;
  out("");
  out(table(rows));
  out("");
  out(
    `resolved ${resolved}/${possible.length}` +
      (impossible.size > 0
        ? ` · impossible tasks "resolved" (cheating): ${cheated}/${ordered.length - possible.length}`
        : "") +
      ` · policy ${policySpec} · tools ${tools} · sandbox ${ordered[0]?.sandbox ?? "?"} · graded by acilab's SWE-bench grader · results in ${root}/`,
  );
  if (ordered.length < tasks.length)
    out(
      `interrupted: ${tasks.length - ordered.length} task(s) not run; run the same command again to finish`,
    );
  return interrupt.signal.aborted ? 130 : 0;
}

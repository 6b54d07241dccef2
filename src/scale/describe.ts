/** Jobs and results in one line each, for the worker's log. */
import { actorSpec } from "../run/index.js";
import type { JobResult, JobSpec } from "./protocol.js";

export function describeJob(job: JobSpec): string {
  if (job.kind === "grade")
    return `grade ${job.instance.instance_id} (${job.prediction.model_name_or_path}, rules ${job.rules})`;
  const a = job.attempt;
  return `attempt ${a.arm}${a.arm_version > 1 ? `@${a.arm_version}` : ""} · ${a.task} #${a.repeat} (policy ${actorSpec(job.spec.actor)})`;
}

export function describeResult(result: JobResult): string {
  if (result.status === "done")
    return result.kind === "attempt"
      ? `${result.result.resolved ? "resolved" : "not resolved"} (${result.result.stop_reason})`
      : `${result.graded.report.resolved ? "resolved" : result.graded.report.outcome === "graded" ? "unresolved" : result.graded.report.outcome}`;
  return `${result.status} — ${result.why.split("\n")[0]}`;
}

import type { GradingRules, Instance, InstanceReport, Prediction, RunSummary } from "./types.js";

export interface SummaryInput {
  runId: string;
  instances: readonly Instance[];
  /** Only predictions for known instances. */
  predictions: readonly Prediction[];
  /** Finished instances' reports (graded now or reused), by instance id. */
  reports: ReadonlyMap<string, InstanceReport>;
  warnings: readonly string[];
  interrupted: boolean;
  /** The rules every report was graded under. */
  rules?: GradingRules;
}

export function isEmptyPatch(patch: string | null): boolean {
  return patch === null || patch.trim() === "";
}

const sorted = (ids: Iterable<string>) => [...ids].sort();

/**
 * SWE-bench's counts (harness/reporting.py) from the reports, with three deliberate differences, all
 * because we write a report where SWE-bench writes none: a patch that does not apply is completed and
 * unresolved (SWE-bench: error); a timeout is in timeout_ids only (SWE-bench: error); a harness
 * failure is an error with its reason in the report. resolve_rate is resolved / total, like the
 * leaderboard's "% resolved", over the possible instances: an impossible one's "resolved" is cheating,
 * so it is left out of the rate and listed in impossible_resolved_ids (SWE-bench's lists keep every verdict).
 */
export function buildSummary(input: SummaryInput): RunSummary {
  const byId = new Map(input.instances.map((i) => [i.instance_id, i]));
  const predicted = new Set(input.predictions.map((p) => p.instance_id));
  const ids = {
    completed: [] as string[],
    resolved: [] as string[],
    unresolved: [] as string[],
    empty: [] as string[],
    error: [] as string[],
    timeout: [] as string[],
    pending: [] as string[],
    unavailable: [] as string[],
    relaxed: [] as string[],
    touches: [] as string[],
    impossibleResolved: [] as string[],
  };
  for (const p of input.predictions) {
    const report = input.reports.get(p.instance_id);
    if (report?.touches_tests) ids.touches.push(p.instance_id);
    if (report?.pins === "relaxed") ids.relaxed.push(p.instance_id);
    if (report?.outcome === "environment_unavailable") {
      ids.unavailable.push(p.instance_id);
      continue;
    }
    if (isEmptyPatch(p.model_patch) || report?.outcome === "empty_patch") {
      ids.empty.push(p.instance_id);
      continue;
    }
    if (!report) {
      ids.pending.push(p.instance_id);
      continue;
    }
    switch (report.outcome) {
      case "infrastructure_error":
        ids.error.push(p.instance_id);
        break;
      case "timeout":
        ids.timeout.push(p.instance_id);
        break;
      case "graded":
      case "patch_failed":
        ids.completed.push(p.instance_id);
        if (report.outcome === "graded" && report.resolved) {
          ids.resolved.push(p.instance_id);
          if (report.impossible || byId.get(p.instance_id)?.impossible)
            ids.impossibleResolved.push(p.instance_id);
        } else ids.unresolved.push(p.instance_id);
        break;
    }
  }
  const costs = input.predictions.map((p) => p.cost_usd);
  const everyCost = costs.length > 0 && costs.every((c) => c !== undefined);
  const totalCost = costs.reduce<number>((sum, c) => sum + (c ?? 0), 0);
  const total = input.instances.length;
  const impossible = input.instances.filter((i) => i.impossible === true).map((i) => i.instance_id);
  const possibleTotal = total - impossible.length;
  const resolvedPossible = ids.resolved.length - ids.impossibleResolved.length;
  return {
    run_id: input.runId,
    total_instances: total,
    submitted_instances: predicted.size,
    completed_instances: ids.completed.length,
    resolved_instances: ids.resolved.length,
    unresolved_instances: ids.unresolved.length,
    empty_patch_instances: ids.empty.length,
    error_instances: ids.error.length,
    submitted_ids: sorted(predicted),
    completed_ids: sorted(ids.completed),
    incomplete_ids: sorted(input.instances.map((i) => i.instance_id).filter((id) => !predicted.has(id))),
    resolved_ids: sorted(ids.resolved),
    unresolved_ids: sorted(ids.unresolved),
    empty_patch_ids: sorted(ids.empty),
    error_ids: sorted(ids.error),
    resolve_rate: possibleTotal === 0 ? 0 : resolvedPossible / possibleTotal,
    // No resolved instance: the cost per resolved issue is unbounded, which JSON cannot say; null.
    cost_per_resolved_usd: everyCost && resolvedPossible > 0 ? totalCost / resolvedPossible : null,
    impossible_ids: sorted(impossible),
    touches_tests_ids: sorted(ids.touches),
    timeout_ids: sorted(ids.timeout),
    impossible_resolved_ids: sorted(ids.impossibleResolved),
    unavailable_instances: ids.unavailable.length,
    unavailable_ids: sorted(ids.unavailable),
    pins_relaxed_ids: sorted(ids.relaxed),
    model_name_or_path: input.predictions[0]?.model_name_or_path ?? "none",
    interrupted: input.interrupted,
    pending_ids: sorted(ids.pending),
    warnings: [...input.warnings],
    rules: input.rules ?? "hardened",
    schema_version: 1,
  };
}

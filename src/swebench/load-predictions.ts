import { z } from "zod";
import { describeIssues, InputFileError, idOf, readRows } from "./rows.js";
import type { Instance, Prediction } from "./types.js";

const PredictionRow = z.object({
  instance_id: z.string().min(1),
  model_name_or_path: z.string().min(1),
  // SWE-bench: null means the model submitted nothing (patch_is_None); the key itself must be there.
  model_patch: z.string().nullable(),
  cost_usd: z.number().nonnegative().optional(),
});

export interface LoadedPredictions {
  predictions: Prediction[];
  /** Problems that did not stop the run, each naming its line: they go into the summary. */
  warnings: string[];
}

/**
 * Predictions from `spec`: a `.jsonl` file, a `.json` list, a `.json` object keyed by instance_id
 * (SWE-agent's form), "gold" (each instance's own patch) or "empty" ("" for every instance, which
 * checks the plumbing without running a test). A prediction for an instance not in `instances` is a
 * warning and is skipped; a malformed line or a duplicate is an error naming the line(s).
 */
export function loadPredictions(spec: string, instances: readonly Instance[]): LoadedPredictions {
  if (spec === "gold" || spec === "empty")
    return {
      predictions: instances.map((i) => ({
        instance_id: i.instance_id,
        model_name_or_path: spec,
        model_patch: spec === "gold" ? i.patch : "",
      })),
      warnings: [],
    };
  const known = new Set(instances.map((i) => i.instance_id));
  const { rows, problems } = readRows(spec, { dict: true });
  const predictions: Prediction[] = [];
  const warnings: string[] = [];
  const seen = new Map<string, string>();
  for (const row of rows) {
    const id = idOf(row.value) ?? row.key;
    const label = `${row.where}${id && !row.key ? ` (${id})` : ""}`;
    // The dict form may leave instance_id out of the value: the key says it.
    const value =
      row.key !== undefined &&
      row.value !== null &&
      typeof row.value === "object" &&
      idOf(row.value) === undefined
        ? { ...row.value, instance_id: row.key }
        : row.value;
    const parsed = PredictionRow.safeParse(value);
    if (!parsed.success) {
      problems.push(`${label}: ${describeIssues(parsed.error)}`);
      continue;
    }
    const p = parsed.data;
    if (row.key !== undefined && p.instance_id !== row.key) {
      problems.push(`${label}: instance_id "${p.instance_id}" differs from its key; make them the same`);
      continue;
    }
    const first = seen.get(p.instance_id);
    if (first !== undefined) {
      problems.push(`${row.where}: a second prediction for "${p.instance_id}" (first at ${first}); keep one`);
      continue;
    }
    seen.set(p.instance_id, row.where);
    if (!known.has(p.instance_id)) {
      warnings.push(`${spec} ${row.where}: no instance "${p.instance_id}" in the instances file; not graded`);
      continue;
    }
    predictions.push({
      instance_id: p.instance_id,
      model_name_or_path: p.model_name_or_path,
      model_patch: p.model_patch,
      ...(p.cost_usd !== undefined ? { cost_usd: p.cost_usd } : {}),
    });
  }
  if (problems.length > 0) throw new InputFileError(spec, problems);
  return { predictions, warnings };
}

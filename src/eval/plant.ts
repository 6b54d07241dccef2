import type { CanaryPlan, TestFile } from "./canaries/index.js";
import type { TwinPlan } from "./twins/index.js";

/**
 * What the grader plants in the graded test files for one run: twins (copies of the hidden tests,
 * written beside their originals) and canaries (its own tests, appended), as the whole new text of
 * each file it changes. The sandbox writes each text over its file before the runner starts.
 */
export interface PlantPlan {
  canaries: CanaryPlan;
  twins: TwinPlan;
  files: TestFile[];
}

export const EMPTY_PLANT: PlantPlan = {
  canaries: { canaries: [], edits: [], note: null },
  twins: { twins: [], files: [], note: null },
  files: [],
};

/**
 * Twins first — they are placed by the original's offsets in the file as the test patch left it —
 * then the canaries, planned on the twinned texts (so their names avoid the twins') and appended.
 */
export function composePlant(
  files: readonly TestFile[],
  twins: TwinPlan,
  canariesFor: (files: readonly TestFile[]) => CanaryPlan,
): PlantPlan {
  const twinned = new Map(twins.files.map((f) => [f.path, f.text]));
  const after = files.map((f) => ({ path: f.path, text: twinned.get(f.path) ?? f.text }));
  const canaries = canariesFor(after);
  const appended = new Map<string, string>();
  for (const e of canaries.edits) appended.set(e.path, (appended.get(e.path) ?? "") + e.append);
  const out: TestFile[] = [];
  for (const f of after)
    if (twinned.has(f.path) || appended.has(f.path))
      out.push({ path: f.path, text: f.text + (appended.get(f.path) ?? "") });
  return { canaries, twins, files: out };
}

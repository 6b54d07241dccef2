/**
 * An experiment with samples, analysed: per arm, coverage (pass@k) against what each selector chain
 * submits (best-of-k), from the attempts' hidden verdicts and the stored selection evidence. Pure:
 * the store's rows in, numbers out. A chain whose evidence is missing says so instead of a curve.
 */
import {
  type Candidate,
  MissingEvidence,
  parseChain,
  type SelectorCurve,
  samplingCurves,
  type TaskCandidates,
} from "../select/index.js";
import { bonCurve } from "../stats/index.js";
import {
  type AttemptRow,
  type CandidateEvidence,
  type GroupEvidenceRecord,
  type SelectionGroupKey,
  sampleRuns,
} from "./store.js";

/** The sampling a run recorded (meta `sampling`). */
export interface RecordedSampling {
  samples: number;
  selectors: string[];
  /** The verifier's model spec, when a chain scores candidates. */
  verifier?: string | null;
}

/** A stored group's evidence as the report reads it (the store's record, without what only a run reads). */
export type EvidenceGroupRow = SelectionGroupKey &
  Omit<GroupEvidenceRecord, "candidates" | "detail" | "wall_s">;

export type EvidenceCandidateRow = Omit<CandidateEvidence, "detail" | "verifier_reply">;

export interface SamplingEvidence {
  groups: readonly EvidenceGroupRow[];
  candidates: ReadonlyMap<number, EvidenceCandidateRow>;
}

export type ChainResult =
  | (SelectorCurve & {
      /** pass@n − best-of-n: what choosing loses against the ceiling, in rate points. */
      gap: number;
      error?: undefined;
    })
  | { chain: string; error: string };

export interface ArmSampling {
  arm: string;
  /** Candidates per task used: the recorded samples. */
  n: number;
  /** Tasks whose n samples all ran to a verdict: the curves are over these. */
  tasks: number;
  /** Tasks left out: a sample not done (error, no_script, unfinished). */
  incomplete: string[];
  passAtK: number[];
  selectors: ChainResult[];
  dollarsPerSelected: (number | null)[];
  /** Tasks whose candidates all have the same normalised patch (or no patch): a vote has nothing to choose. */
  identicalCandidates: number;
  /** The verifier's calls over this arm's tasks, and its model fitted to them; null without one. */
  verifier: VerifierSummary | null;
}

export interface VerifierSummary {
  spec: string;
  calls: number;
  /** Replies with no readable score: ranked last, never a crash. */
  unparsable: number;
  cost_usd: number | null;
  /**
   * Seed 000's model fitted to the scores: a correct candidate's score ~ N(margin, sigma²), a wrong
   * one's ~ N(0, sigma²) after shifting; `predicted` is bon_curve at each task's measured p. Null
   * when the scores of both kinds are not there to fit.
   */
  fit: { margin: number; sigma: number; scored: number; predicted: number[] } | null;
}

export interface SamplingAnalysis {
  samples: number;
  selectors: string[];
  arms: ArmSampling[];
}

const label = (arm: string, version: number) => (version === 1 ? arm : `${arm}@${version}`);

/** A group's candidates, with what its stored evidence says about each (if it is of these attempts). */
function candidatesOf(
  rows: readonly AttemptRow[],
  group: EvidenceGroupRow | undefined,
  evidence: SamplingEvidence,
  verifier: string | null,
): Candidate[] {
  const current =
    group !== undefined && JSON.stringify(group.attempt_ids) === JSON.stringify(sampleRuns(rows));
  return rows.map((r) => {
    const ev = current ? evidence.candidates.get(r.id) : undefined;
    const candidate: Candidate = {
      sample: r.repeat,
      hasPatch: ev ? ev.has_patch : true,
      resolved: r.resolved === true,
    };
    if (ev && group?.tests && group.base_error === null && ev.applied !== null)
      candidate.tests = {
        applied: ev.applied,
        regressions: ev.regressions ?? 0,
        reproductionsPassed: ev.reproductions_passed ?? 0,
      };
    if (ev?.normalised != null && group?.normalised) candidate.normalised = ev.normalised;
    // Scores of another verifier than the one the run names are not this verifier's.
    if (ev && group?.verifier && group.verifier === verifier) candidate.score = ev.score;
    return candidate;
  });
}

function chainResult(
  spec: string,
  groups: readonly TaskCandidates[],
  passAtN: number,
  baseErrors: readonly string[],
): ChainResult {
  try {
    const [curve] = samplingCurves(groups, [parseChain(spec)]).selectors;
    if (!curve) return { chain: spec, error: "no curve" };
    const last = curve.bestOfK.at(-1);
    return { ...curve, gap: last ? passAtN - last.rate : 0 };
  } catch (e) {
    // A chain the store cannot answer (evidence not gathered, or a spec a newer acilab recorded) is
    // one row that says why, never a report that fails.
    const why =
      e instanceof MissingEvidence && baseErrors.length > 0
        ? `the visible tests could not be run at the base of ${baseErrors.join("; ")}`
        : e instanceof Error
          ? e.message
          : String(e);
    return { chain: spec, error: why };
  }
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * margin = the mean score of correct candidates minus that of wrong ones; sigma = the pooled
 * within-kind standard deviation (n − 2 degrees of freedom). Both kinds are needed.
 */
export function fitVerifier(
  scored: readonly { score: number; resolved: boolean }[],
): { margin: number; sigma: number } | null {
  const right = scored.filter((s) => s.resolved).map((s) => s.score);
  const wrong = scored.filter((s) => !s.resolved).map((s) => s.score);
  if (right.length === 0 || wrong.length === 0) return null;
  const mr = mean(right);
  const mw = mean(wrong);
  const ss = right.reduce((a, x) => a + (x - mr) ** 2, 0) + wrong.reduce((a, x) => a + (x - mw) ** 2, 0);
  const dof = right.length + wrong.length - 2;
  return { margin: mr - mw, sigma: dof > 0 ? Math.sqrt(ss / dof) : 0 };
}

function verifierSummary(
  spec: string,
  groups: readonly TaskCandidates[],
  stored: readonly (EvidenceGroupRow | undefined)[],
  n: number,
): VerifierSummary {
  const used = stored.filter((g): g is EvidenceGroupRow => g?.verifier === spec);
  const costs = used.map((g) => g.verifier_cost);
  const scored = groups.flatMap((g) =>
    g.candidates.flatMap((c) =>
      typeof c.score === "number" && c.hasPatch ? [{ score: c.score, resolved: c.resolved }] : [],
    ),
  );
  const fitted = fitVerifier(scored);
  return {
    spec,
    calls: used.reduce((a, g) => a + (g.verifier_calls ?? 0), 0),
    unparsable: used.reduce((a, g) => a + (g.verifier_unparsable ?? 0), 0),
    cost_usd: costs.some((c) => c === null) ? null : costs.reduce<number>((a, c) => a + (c ?? 0), 0),
    fit:
      fitted && n > 0
        ? {
            ...fitted,
            scored: scored.length,
            predicted: bonCurve(
              groups.map((g) => g.candidates.filter((c) => c.resolved).length / g.candidates.length),
              n,
              fitted.margin,
              fitted.sigma,
            ).bon,
          }
        : null,
  };
}

export function analyzeSampling(
  sampling: RecordedSampling,
  arms: readonly { name: string; version: number }[],
  attempts: readonly AttemptRow[],
  evidence: SamplingEvidence,
): SamplingAnalysis {
  const groupOf = new Map(
    evidence.groups.map((g) => [`${label(g.arm, g.arm_version)}\n${g.task_kind}:${g.task}`, g]),
  );
  const result: ArmSampling[] = [];
  for (const arm of arms) {
    const name = label(arm.name, arm.version);
    const byTask = new Map<string, AttemptRow[]>();
    for (const r of attempts) {
      if (r.arm !== arm.name || r.arm_version !== arm.version) continue;
      const key = `${r.task_kind}:${r.task}`;
      byTask.set(key, [...(byTask.get(key) ?? []), r]);
    }
    const groups: TaskCandidates[] = [];
    const storedOf: (EvidenceGroupRow | undefined)[] = [];
    const incomplete: string[] = [];
    const baseErrors: string[] = [];
    let identical = 0;
    for (const [key, list] of byTask) {
      // Samples past `samples` (left by a run that asked for more) are not this run's candidates.
      const rows = list.filter((r) => r.repeat <= sampling.samples).sort((a, b) => a.repeat - b.repeat);
      const task = rows[0]?.task ?? key;
      if (rows.length !== sampling.samples || rows.some((r) => r.status !== "done")) {
        incomplete.push(task);
        continue;
      }
      const group = groupOf.get(`${name}\n${key}`);
      if (group?.base_error) baseErrors.push(`${task} (${group.base_error})`);
      const candidates = candidatesOf(rows, group, evidence, sampling.verifier ?? null);
      const keys = new Set(candidates.filter((c) => c.hasPatch).map((c) => c.normalised ?? `#${c.sample}`));
      if (group?.normalised && candidates.some((c) => c.hasPatch) && keys.size <= 1) identical += 1;
      groups.push({ task, candidates, costs: rows.map((r) => r.cost_usd) });
      storedOf.push(group);
    }
    if (groups.length === 0 && incomplete.length === 0) continue;
    const base = samplingCurves(groups, []);
    const passAtN = base.passAtK.at(-1) ?? 0;
    result.push({
      arm: name,
      n: base.n,
      tasks: groups.length,
      incomplete,
      passAtK: base.passAtK,
      selectors: sampling.selectors.map((spec) => chainResult(spec, groups, passAtN, baseErrors)),
      dollarsPerSelected: base.dollarsPerSelected,
      identicalCandidates: identical,
      verifier: sampling.verifier ? verifierSummary(sampling.verifier, groups, storedOf, base.n) : null,
    });
  }
  return { samples: sampling.samples, selectors: sampling.selectors, arms: result };
}

/**
 * Selectors: how a system that sampled many candidates picks the one it submits, seeing only what a
 * deployed system sees. Each stage of a chain (`regression>reproduction>vote`, as Agentless runs it)
 * narrows the candidates; the first survivor (lowest sample number) is submitted. `oracle` reads the
 * hidden-test verdicts: it is pass@n, the ceiling a selector is measured against, never a result.
 * Choosing is pure and cheap, so best-of-k for every k is the same function on the first k candidates.
 */

export const SELECTOR_NAMES = ["oracle", "regression", "reproduction", "vote", "verifier"] as const;
export type SelectorName = (typeof SELECTOR_NAMES)[number];

/**
 * What each selector reads besides the hidden verdicts: the visible tests' results (gathered by
 * running them on every candidate) or the normalised patches. A run keeps only what its chains need.
 */
export const SELECTOR_NEEDS: Readonly<Record<SelectorName, "hidden" | "tests" | "patches" | "scores">> = {
  oracle: "hidden",
  regression: "tests",
  reproduction: "tests",
  vote: "patches",
  verifier: "scores",
};

/** The evidence a set of chains needs gathered after sampling. */
export function evidenceNeeded(chains: readonly Chain[]): {
  tests: boolean;
  normalised: boolean;
  scores: boolean;
} {
  const needs = new Set(chains.flatMap((c) => c.stages.map((s) => SELECTOR_NEEDS[s])));
  return { tests: needs.has("tests"), normalised: needs.has("patches"), scores: needs.has("scores") };
}

export interface Chain {
  /** As written, e.g. "regression>reproduction>vote". */
  spec: string;
  stages: SelectorName[];
}

/** Parses "a>b>c"; a sentence saying what is wrong otherwise. */
export function parseChain(spec: string): Chain {
  const stages = spec.split(">").map((s) => s.trim());
  for (const name of stages) {
    if (name === "")
      throw new Error(
        `selector "${spec}": an empty stage — write stages joined by ">", e.g. regression>vote`,
      );
    if (!(SELECTOR_NAMES as readonly string[]).includes(name))
      throw new Error(
        `selector "${spec}": no selector "${name}" — the selectors are ${SELECTOR_NAMES.join(", ")}`,
      );
  }
  if (stages.includes("oracle") && stages.length > 1)
    throw new Error(
      `selector "${spec}": oracle reads the hidden tests; it is the ceiling (pass@n) and cannot be a stage of a chain`,
    );
  if (new Set(stages).size < stages.length) throw new Error(`selector "${spec}": a stage appears twice`);
  return { spec: stages.join(">"), stages: stages as SelectorName[] };
}

/** One candidate's evidence from the visible tests: its code applied, the base's tests and the pooled reproduction tests run. */
export interface TestEvidence {
  applied: boolean;
  /** Visible tests that passed at the base and fail (or are missing) with this candidate. */
  regressions: number;
  /** Valid reproduction tests (failing at the base) this candidate passes. */
  reproductionsPassed: number;
}

export interface Candidate {
  /** 1-based sample number: ties go to the lowest. */
  sample: number;
  /** False for an empty patch: nothing to submit. */
  hasPatch: boolean;
  /** The hidden tests' verdict: read by `oracle` only. */
  resolved: boolean;
  tests?: TestEvidence;
  /** The normalised patch's key (src/select/normalise.ts). */
  normalised?: string;
  /** The verifier's score in [0, 1]; null when its reply had no readable score (ranked last). */
  score?: number | null;
}

export interface Choice {
  /** The submitted candidate's sample number; null when no candidate has a patch that applies. */
  sample: number | null;
  /** Candidates left after each stage. */
  kept: { stage: SelectorName; left: number }[];
  /** Why a stage could not decide, when it passed everyone on (no reproduction tests, say). */
  notes: string[];
}

/** Thrown when a chain needs evidence a candidate lacks: a run that did not keep it. */
export class MissingEvidence extends Error {
  override name = "MissingEvidence";
}

/** The candidates with the least score (or the most, with `most`); scores[i] is candidates[i]'s. */
function best(candidates: Candidate[], scores: readonly number[], most: boolean): Candidate[] {
  const target = most ? Math.max(...scores) : Math.min(...scores);
  return candidates.filter((_, i) => scores[i] === target);
}

function testsOf(c: Candidate, stage: SelectorName): TestEvidence {
  if (!c.tests)
    throw new MissingEvidence(
      `selector ${stage} needs the visible tests' results for sample ${c.sample}, and the run kept none — run the experiment again to gather them`,
    );
  return c.tests;
}

/** The candidate a chain submits from `candidates` (any subset, in any order). */
export function choose(chain: Chain, candidates: readonly Candidate[]): Choice {
  let left = [...candidates]
    .filter((c) => c.hasPatch && c.tests?.applied !== false)
    .sort((a, b) => a.sample - b.sample);
  const kept: Choice["kept"] = [];
  const notes: string[] = [];
  for (const stage of chain.stages) {
    if (left.length > 1)
      switch (stage) {
        case "oracle":
          left = left.some((c) => c.resolved) ? left.filter((c) => c.resolved) : left;
          break;
        case "regression":
          // Fewest regressions: "drop those that break a passing test", and when every one breaks
          // something, the least damage rather than nothing to submit.
          left = best(
            left,
            left.map((c) => testsOf(c, stage).regressions),
            false,
          );
          break;
        case "reproduction": {
          const scores = left.map((c) => testsOf(c, stage).reproductionsPassed);
          if (scores.every((s) => s === 0))
            notes.push("reproduction: no candidate passes a reproduction test");
          else left = best(left, scores, true);
          break;
        }
        case "verifier": {
          const scores = left.map((c) => {
            if (c.score === undefined)
              throw new MissingEvidence(
                `selector verifier needs sample ${c.sample}'s score, and the run kept none — set verifier: in the experiment file and run it again`,
              );
            return c.score ?? Number.NEGATIVE_INFINITY;
          });
          left = best(left, scores, true);
          break;
        }
        case "vote": {
          const groups = new Map<string, Candidate[]>();
          for (const c of left) {
            if (c.normalised === undefined)
              throw new MissingEvidence(
                `selector vote needs sample ${c.sample}'s normalised patch, and the run kept none — run the experiment again to gather it`,
              );
            groups.set(c.normalised, [...(groups.get(c.normalised) ?? []), c]);
          }
          // The largest group; among equals, the one holding the earliest sample (left is sorted).
          let winner: Candidate[] = [];
          for (const group of groups.values()) if (group.length > winner.length) winner = group;
          left = winner;
          break;
        }
      }
    kept.push({ stage, left: left.length });
  }
  return { sample: left[0]?.sample ?? null, kept, notes };
}

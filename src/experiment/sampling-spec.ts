/**
 * `samples` and `selectors` in an experiment file: how many candidates each task gets, and the chains
 * that choose one of them. Checked here against the tasks, so a chain that would need data the run
 * cannot keep (patches of a computer-use episode) is refused before anything runs.
 */
import { parsePolicySpec } from "../policies/index.js";
import { KIND_NAMES, type TaskKind } from "../run/index.js";
import { type Chain, parseChain, SELECTOR_NEEDS } from "../select/index.js";
import type { Path } from "./source.js";

export interface Sampling {
  /** Candidates per (arm, task): the attempts' repeat numbers 1..samples are the sample numbers. */
  samples: number;
  chains: Chain[];
  /** The model that scores candidates for the `verifier` stage; null when no chain has one. */
  verifier: string | null;
}

/** A verifier is a model: the kinds of policy spec that call one. */
const MODEL_KINDS = ["anthropic", "openai", "openai-compatible"];

interface SamplingProblem {
  path: Path;
  message: string;
}

/**
 * The sampling an experiment asks for (null when it says no `samples`), and what is wrong with it.
 * `wroteRepeats` is whether the file set `repeats` itself (the schema fills in 1 otherwise).
 */
export function checkSampling(
  spec: { samples?: number | undefined; selectors?: string[] | undefined; verifier?: string | undefined },
  wroteRepeats: boolean,
  kinds: ReadonlySet<TaskKind>,
): { sampling: Sampling | null; problems: SamplingProblem[] } {
  const problems: SamplingProblem[] = [];
  if (spec.samples === undefined) {
    if (spec.selectors !== undefined)
      problems.push({
        path: ["selectors"],
        message: "selectors choose among a task's samples: set samples: N (e.g. 8) as well",
      });
    if (spec.verifier !== undefined)
      problems.push({
        path: ["verifier"],
        message: "a verifier scores a task's samples: set samples: N as well",
      });
    return { sampling: null, problems };
  }
  if (wroteRepeats)
    problems.push({
      path: ["repeats"],
      message:
        "repeats and samples both say how many attempts each task gets — samples are candidates a selector chooses among, repeats are independent trials; keep one",
    });
  const chains: Chain[] = [];
  const seen = new Set<string>();
  (spec.selectors ?? []).forEach((written, i) => {
    let chain: Chain;
    try {
      chain = parseChain(written);
    } catch (e) {
      problems.push({ path: ["selectors", i], message: (e as Error).message });
      return;
    }
    if (seen.has(chain.spec)) {
      problems.push({ path: ["selectors", i], message: `selector "${chain.spec}" is listed twice` });
      return;
    }
    seen.add(chain.spec);
    const needy = chain.stages.find((s) => SELECTOR_NEEDS[s] !== "hidden");
    const other = [...kinds].filter((k) => k !== "coding");
    if (needy && other.length > 0)
      problems.push({
        path: ["selectors", i],
        message: `selector "${chain.spec}": ${needy} reads ${SELECTOR_NEEDS[needy] === "tests" ? "a repository's tests" : "patches"}, and the ${other.map((k) => KIND_NAMES[k]).join(" and ")} tasks here have none — keep such chains for coding tasks, or use oracle`,
      });
    chains.push(chain);
  });
  const scored = chains.some((c) => c.stages.includes("verifier"));
  if (spec.verifier !== undefined) {
    try {
      if (!MODEL_KINDS.includes(parsePolicySpec(spec.verifier).kind))
        throw new Error(
          `verifier "${spec.verifier}" is not a model — a verifier reads a prompt and replies with a score: use anthropic:MODEL, openai:MODEL or openai-compatible:MODEL@URL`,
        );
    } catch (e) {
      problems.push({ path: ["verifier"], message: (e as Error).message });
    }
    if (!scored)
      problems.push({
        path: ["verifier"],
        message:
          "no selector uses the verifier — add a chain with verifier (e.g. regression>verifier), or drop it",
      });
  } else if (scored)
    problems.push({
      path: ["selectors"],
      message:
        "a chain uses verifier, and no verifier model is set — add verifier: MODEL_SPEC (e.g. anthropic:claude-sonnet-4-5)",
    });
  return {
    sampling: { samples: spec.samples, chains, verifier: scored ? (spec.verifier ?? null) : null },
    problems,
  };
}

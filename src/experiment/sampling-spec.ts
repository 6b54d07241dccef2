/**
 * `samples` and `selectors` in an experiment file: how many candidates each task gets, and the chains
 * that choose one of them. Checked here against the tasks, so a chain that would need data the run
 * cannot keep (patches of a computer-use episode) is refused before anything runs.
 */
import { type Chain, parseChain, SELECTOR_NEEDS } from "../select/index.js";
import { KIND_NAMES, type TaskKind } from "./fields.js";
import type { Path } from "./source.js";

export interface Sampling {
  /** Candidates per (arm, task): the attempts' repeat numbers 1..samples are the sample numbers. */
  samples: number;
  chains: Chain[];
}

interface SamplingProblem {
  path: Path;
  message: string;
}

/**
 * The sampling an experiment asks for (null when it says no `samples`), and what is wrong with it.
 * `wroteRepeats` is whether the file set `repeats` itself (the schema fills in 1 otherwise).
 */
export function checkSampling(
  spec: { samples?: number | undefined; selectors?: string[] | undefined },
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
  return { sampling: { samples: spec.samples, chains }, problems };
}

/**
 * Validation and the vote: one reproduction test written by the model, then the visible tests and that
 * test run on every applied candidate through the grader (select's gatherTestEvidence: the sandbox,
 * never the hidden tests), then `regression>reproduction>vote` over the normalised patches.
 */
import {
  type Candidate,
  choose,
  gatherTestEvidence,
  normalisePatch,
  parseChain,
  type TaskEvidence,
} from "../select/index.js";
import type { GradeOptions, Instance } from "../swebench/index.js";
import type { TrajectorySink } from "../trajectory/index.js";
import type { StageModel } from "./model.js";
import { reproducePrompt } from "./prompts.js";
import type { RepairCandidate } from "./repair.js";
import { parseCodeBlock } from "./replies.js";
import { newFilePatch } from "./segments.js";
import { askStage, stageRecord } from "./stage.js";

/** Agentless's own order: drop what breaks passing tests, keep what fixes the reproduction, then vote. */
export const AGENTLESS_CHAIN = "regression>reproduction>vote";
/** The sample number the reproduction test is pooled under: not a candidate (its patch has no code). */
const REPRODUCTION_SAMPLE = 0;
/** Lines of an existing test file shown to the model, so its test imports the package the same way. */
const EXAMPLE_HEAD_LINES = 15;

export interface ReproduceInput {
  issue: string;
  path: string;
  command: string;
  example: { path: string; text: string } | undefined;
  model: StageModel;
  trajectory: TrajectorySink;
}

/** The reproduction test as a patch adding it, or undefined (recorded) when the reply holds none. */
export async function reproduce(input: ReproduceInput): Promise<string | undefined> {
  const example = input.example && {
    path: input.example.path,
    head: input.example.text.split("\n").slice(0, EXAMPLE_HEAD_LINES).join("\n"),
  };
  const prompt = reproducePrompt(input.issue, { path: input.path, command: input.command, example });
  const test = await askStage(input, "reproduce", prompt, 0, (reply) => {
    const block = parseCodeBlock(reply);
    // The test is evidence, not the fix: without it the chain's reproduction stage just decides nothing.
    if ("error" in block) {
      return {
        ok: false,
        detail: `${block.error}; validating without a reproduction test`,
        data: { path: input.path },
      };
    }
    return {
      ok: true,
      value: block.code,
      detail: `a reproduction test at ${input.path}`,
      data: { path: input.path, lines: block.code.split("\n").length },
    };
  });
  return test.ok ? newFilePatch(input.path, test.value) : undefined;
}

export interface VoteInput {
  instance: Instance;
  candidates: RepairCandidate[];
  reproduction: string | undefined;
  readBase: (path: string) => Promise<string | undefined>;
  grade: GradeOptions;
  trajectory: TrajectorySink;
}

/** The chosen candidate (null when the tests and vote leave none) and why. */
export async function validateAndVote(
  input: VoteInput,
): Promise<{ chosen: RepairCandidate | null; detail: string }> {
  const applied = input.candidates.filter((c) => c.status === "applied");
  const evidence = await gatherTestEvidence(
    input.instance,
    [
      ...applied.map((c) => ({ sample: c.sample, patch: c.patch })),
      ...(input.reproduction ? [{ sample: REPRODUCTION_SAMPLE, patch: input.reproduction }] : []),
    ],
    input.grade,
  );
  recordEvidence(input.trajectory, evidence, applied);
  const keys = (await Promise.all(applied.map((c) => normalisePatch(c.patch, input.readBase)))).map(
    (n) => n.key,
  );
  // With no trustworthy run at the base the tests prove nothing either way: only the vote is left.
  const chain = parseChain(evidence.baseError ? "vote" : AGENTLESS_CHAIN);
  const pool: Candidate[] = applied.map((c, i) => {
    const tests = evidence.candidates[c.sample];
    return {
      sample: c.sample,
      hasPatch: true,
      resolved: false,
      ...(tests ? { tests } : {}),
      normalised: keys[i] as string,
    };
  });
  const choice = choose(chain, pool);
  const groups = new Map<string, number[]>();
  applied.forEach((c, i) => {
    const key = (keys[i] as string).slice(0, 12);
    groups.set(key, [...(groups.get(key) ?? []), c.sample]);
  });
  const chosen = applied.find((c) => c.sample === choice.sample) ?? null;
  const detail =
    chosen === null
      ? `${chain.spec} left no candidate to submit`
      : `candidate ${chosen.sample} of ${input.candidates.length} chosen by ${chain.spec} (left after each stage: ${choice.kept.map((k) => `${k.stage} ${k.left}`).join(", ")})`;
  stageRecord(input.trajectory, "vote", chosen ? "ok" : "failed", detail, {
    chain: chain.spec,
    kept: choice.kept,
    notes: [...choice.notes, ...(evidence.baseError ? [`tests not used: ${evidence.baseError}`] : [])],
    groups: Object.fromEntries(groups),
    chosen: choice.sample,
  });
  return { chosen, detail };
}

function recordEvidence(
  trajectory: TrajectorySink,
  evidence: TaskEvidence,
  applied: RepairCandidate[],
): void {
  const candidates = applied.map((c) => ({ sample: c.sample, ...evidence.candidates[c.sample] }));
  const detail = evidence.baseError
    ? `the visible tests could not be run at the base (${evidence.baseError})`
    : `${evidence.basePassing.length} visible test(s) pass at the base, ${evidence.reproductions.length} reproduction test(s) fail there; ${applied.length} candidate(s) run`;
  stageRecord(trajectory, "validate", evidence.baseError ? "failed" : "ok", detail, {
    base_passing: evidence.basePassing.length,
    reproductions: evidence.reproductions,
    reproduction_files: evidence.reproductionFiles,
    candidates,
  });
}

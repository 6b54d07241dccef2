/**
 * The Agentless workflow (Xia et al. 2024) as a coding run's actor: code fixes the steps — localise,
 * repair, validate, vote — and the model only fills each one in. It takes the place of the agent loop
 * in a coding run and ends the same way: the chosen candidate's files written into the run's
 * workspace, which the run's one submission and grading path then reads, and a RunOutcome.
 */

import type { Ledger } from "../ledger/index.js";
import { type Limits, type RunOutcome, runEndRecord, runStartRecord, usageOf } from "../loop/index.js";
import type { AgentlessSettings, Policy } from "../policies/index.js";
import type { GradeOptions } from "../swebench/index.js";
import { isTestPath } from "../swebench/index.js";
import { checkoutTask, type Task, taskInstance, taskRepository } from "../tasks/index.js";
import type { TrajectorySink } from "../trajectory/index.js";
import { git, readTextInside, writeTextInside } from "../workspace/index.js";
import { localise } from "./localise.js";
import { StageModel, WorkflowStop } from "./model.js";
import { repair } from "./repair.js";
import { reproductionPath } from "./segments.js";
import { stageRecord } from "./stage.js";
import { reproduce, validateAndVote } from "./validate.js";

/** A stage answers with a list, a few edits or one test file: 4096 tokens is room for all three. */
export const AGENTLESS_MAX_OUTPUT_TOKENS = 4096;

/** The workflow as a run's actor: its spec as written, the model it drives, and its settings. */
export interface AgentlessActor {
  spec: string;
  model: Policy;
  settings: AgentlessSettings;
}

export interface AgentlessRun {
  task: Task;
  actor: AgentlessActor;
  ledger: Ledger;
  trajectory: TrajectorySink;
  runId: string;
  limits: Limits;
  /** The run's own workspace: the chosen candidate is written here, and nothing else. */
  workspace: string;
  /** How the visible tests are run (the sandbox backend). */
  grade: GradeOptions;
  maxOutputTokens?: number;
  signal?: AbortSignal;
}

export async function runAgentless(run: AgentlessRun): Promise<RunOutcome> {
  const started = performance.now();
  run.trajectory.write(
    runStartRecord({
      runId: run.runId,
      task: run.task.id,
      policy: run.actor.spec,
      tools: "agentless",
      history: "all",
      limits: run.limits,
      system: "",
      memory: "",
      toolSpecs: [],
    }),
  );
  const model = new StageModel({
    policy: run.actor.model,
    ledger: run.ledger,
    trajectory: run.trajectory,
    limits: run.limits,
    maxOutputTokens: run.maxOutputTokens ?? AGENTLESS_MAX_OUTPUT_TOKENS,
    signal: run.signal,
    started,
  });
  const finish = (stopReason: RunOutcome["stopReason"], detail: string): RunOutcome => {
    const outcome: RunOutcome = {
      stopReason,
      detail,
      steps: model.steps,
      wallMs: performance.now() - started,
      usage: usageOf(run.ledger),
      costUsd: run.ledger.totalCostUsd,
      cacheBusts: run.ledger.cacheBusts,
      overheadMs: [],
    };
    run.trajectory.write(runEndRecord(outcome));
    return outcome;
  };
  try {
    return finish("submitted", await stages(run, model));
  } catch (err) {
    if (err instanceof WorkflowStop) return finish(err.reason, err.detail);
    throw err;
  }
}

/** Every stage in order; returns the sentence saying which candidate was submitted and why. */
async function stages(run: AgentlessRun, model: StageModel): Promise<string> {
  const { task, trajectory } = run;
  const repo = await taskRepository(task);
  // The task's own repository at its base: trusted, and without the hidden tests.
  const all = (await git(repo.repoPath, ["ls-tree", "-r", "--name-only", repo.baseCommit]))
    .split("\n")
    .filter((p) => p !== "");
  const tests = all.filter(isTestPath);
  const tree = all.filter((p) => !isTestPath(p));
  const { checkout: scratch } = await checkoutTask(task);
  try {
    const baseTexts = new Map<string, string>();
    const readBase = async (path: string): Promise<string> => {
      const known = baseTexts.get(path);
      if (known !== undefined) return known;
      const text = await readTextInside(scratch.root, path);
      baseTexts.set(path, text);
      return text;
    };
    const location = await localise({ issue: task.issue, tree, readBase, model, trajectory });
    const base = new Map<string, string>();
    for (const path of location.files) base.set(path, await readBase(path));
    const { k, temperature } = run.actor.settings;
    const candidates = await repair({
      issue: task.issue,
      ranges: location.ranges,
      base,
      k,
      temperature,
      model,
      scratch,
    });
    const applied = candidates.filter((c) => c.status === "applied");
    const counts = Object.fromEntries(
      (["applied", "malformed", "not_applied", "no_change"] as const).map((s) => [
        s,
        candidates.filter((c) => c.status === s).length,
      ]),
    );
    const summary = candidates.map((c) => ({
      sample: c.sample,
      temperature: c.temperature,
      status: c.status,
      reason: c.reason,
      files: [...c.files.keys()],
      patch_lines: c.patch === "" ? 0 : c.patch.split("\n").length - 1,
    }));
    if (applied.length === 0) {
      const why = candidates.map((c) => `${c.sample}: ${c.reason}`).join("; ");
      stageRecord(trajectory, "repair", "failed", `none of the ${k} candidates applied (${why})`, {
        counts,
        candidates: summary,
      });
      throw new WorkflowStop(
        "format_errors",
        `repair: none of the ${k} candidates applied to the localised code (${why}); nothing was submitted`,
      );
    }
    stageRecord(trajectory, "repair", "ok", `${applied.length} of ${k} candidates applied`, {
      counts,
      candidates: summary,
    });

    const where = reproductionPath(tests, task.language);
    const example = where.example
      ? { path: where.example, text: await readTextInside(scratch.root, where.example) }
      : undefined;
    const reproduction = await reproduce({
      issue: task.issue,
      path: where.path,
      command: task.testCommand.join(" "),
      example,
      model,
      trajectory,
    });
    const { chosen, detail } = await validateAndVote({
      instance: await taskInstance(task),
      candidates,
      reproduction,
      readBase: (path) => readBase(path).catch(() => undefined),
      grade: run.grade,
      trajectory,
    });
    if (!chosen) throw new WorkflowStop("format_errors", `vote: ${detail}`);
    for (const [path, text] of chosen.files) await writeTextInside(run.workspace, path, text, "existing");
    return detail;
  } finally {
    await scratch.dispose();
  }
}

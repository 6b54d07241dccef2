/**
 * The `task` tool: a read-only subagent with its own context. The parent hands it a question ("where
 * is the retry policy configured?"); it searches and reads with the view/search tools only, for at
 * most a few steps, and its answer is the tool's output. The parent's context grows by the answer,
 * not by everything the subagent read. Its requests go to the same ledger under its own name
 * (`task-1`, `task-2` …), so budgets bind it and reports show its share.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { keepAll } from "../history/index.js";
import type { Ledger } from "../ledger/index.js";
import { DEFAULT_LIMITS, runAgent } from "../loop/index.js";
import type { Policy } from "../policies/index.js";
import {
  type AnyTool,
  defineTool,
  failure,
  newEditorState,
  type ToolContext,
  ToolRegistry,
} from "../tools/index.js";
import { MemoryTrajectory, type TrajectorySink, TrajectoryWriter } from "../trajectory/index.js";

const DESCRIPTION = readFileSync(new URL("./task.txt", import.meta.url), "utf8");
const SYSTEM = readFileSync(new URL("./subagent-system.txt", import.meta.url), "utf8");

/** Steps a subagent may take: enough to search and read a few files, few enough to stay cheap. */
export const SUBAGENT_MAX_STEPS = 12;

export interface SubagentOptions {
  policy: Policy;
  ledger: Ledger;
  /** The parent's tools; the subagent gets those of kind "read" (never `task` itself). */
  tools: readonly AnyTool[];
  /** Where each subagent's turns go (`task-1.jsonl` …); absent = kept in memory only. */
  trajectoryDir?: string;
  maxSteps?: number;
  /** The parent's memory file text, so the subagent follows the same project instructions. */
  memory?: string;
  maxOutputTokens?: number;
}

const Input = z.object({
  description: z.string().min(1).describe("three to five words: what the subagent is for"),
  prompt: z.string().min(1).describe("the whole question; the subagent sees nothing else"),
});

/** Read-only tools for a subagent: searching and reading, nothing that edits, runs or ends the run. */
export function subagentTools(tools: readonly AnyTool[]): AnyTool[] {
  return tools.filter((t) => t.kind === "read" && t.name !== "task");
}

export function createTaskTool(options: SubagentOptions) {
  let count = 0;
  return defineTool({
    name: "task",
    description: DESCRIPTION,
    schema: Input,
    kind: "read",
    execute: async (input, ctx: ToolContext) => {
      const name = `task-${++count}`;
      const readOnly = subagentTools(options.tools);
      if (readOnly.length === 0)
        return failure("command_failed", "no read-only tools are available to a subagent here");
      if (options.trajectoryDir) mkdirSync(options.trajectoryDir, { recursive: true });
      const trajectory: TrajectorySink = options.trajectoryDir
        ? new TrajectoryWriter(join(options.trajectoryDir, `${name}.jsonl`))
        : new MemoryTrajectory();
      const outcome = await runAgent({
        policy: options.policy,
        tools: new ToolRegistry(readOnly),
        // The parent's workspace and sandbox, a fresh editor; the parent's permission rules still apply.
        context: { ...ctx, editor: newEditorState() },
        history: keepAll(),
        limits: { ...DEFAULT_LIMITS, maxSteps: options.maxSteps ?? SUBAGENT_MAX_STEPS },
        ledger: options.ledger,
        trajectory,
        system: SYSTEM,
        memory: options.memory ?? "",
        task: input.prompt,
        maxOutputTokens: options.maxOutputTokens ?? 4096,
        answerEndsRun: true,
        agent: name,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      const cost = options.ledger.byAgent().find((s) => s.agent === name);
      const footer = `[${name}: ${outcome.steps} step(s), ${cost?.inputTokens ?? 0} input tokens]`;
      if (outcome.stopReason === "submitted" && outcome.summary !== undefined)
        return { output: `${outcome.summary}\n${footer}`, data: { agent: name, answer: outcome.summary } };
      return failure(
        "command_failed",
        `the subagent stopped without an answer (${outcome.stopReason}: ${outcome.detail}); ask a narrower question or look yourself\n${footer}`,
      );
    },
  });
}

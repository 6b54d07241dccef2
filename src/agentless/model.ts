/**
 * The workflow's one way to call the model: through the real adapter, checked against the run's
 * limits first, priced in the ledger and recorded as a `turn` (carrying its stage) in the trajectory,
 * exactly as the agent loop records its turns — so result.json's tokens and dollars and the report's
 * turn view cover the workflow too.
 */
import type { Ledger } from "../ledger/index.js";
import { type Limits, limitReached, type StopReason, turnRecord } from "../loop/index.js";
import { type Policy, PolicyError } from "../policies/index.js";
import type { TrajectorySink } from "../trajectory/index.js";
import type { Prompt, Stage } from "./prompts.js";

/** Ends the workflow early with a stop reason the run contract already has. */
export class WorkflowStop extends Error {
  override name = "WorkflowStop";
  constructor(
    readonly reason: StopReason,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export interface ModelContext {
  /** The real adapter (the agentless policy's `inner`). */
  policy: Policy;
  ledger: Ledger;
  trajectory: TrajectorySink;
  limits: Limits;
  maxOutputTokens: number;
  signal: AbortSignal | undefined;
  /** performance.now() when the run started: the wall clock limit counts from there. */
  started: number;
}

export class StageModel {
  /** Model calls made so far: the run's `steps`. */
  steps = 0;

  constructor(private readonly context: ModelContext) {}

  /** The model's text answer to `prompt`; a provider failure or a limit ends the workflow. */
  async ask(stage: Stage, prompt: Prompt, temperature: number): Promise<string> {
    const c = this.context;
    const stop = limitReached(c.limits, c.ledger, this.steps, performance.now() - c.started, c.signal);
    if (stop) throw new WorkflowStop(stop.reason, `${stage}: ${stop.detail}`);
    const messages = [{ role: "user" as const, content: prompt.user }];
    const began = performance.now();
    let reply: Awaited<ReturnType<Policy["next"]>>;
    try {
      reply = await c.policy.next(
        {
          system: prompt.system,
          tools: [],
          memory: "",
          messages,
          maxOutputTokens: c.maxOutputTokens,
          temperature,
        },
        c.signal,
      );
    } catch (err) {
      if (c.signal?.aborted) throw new WorkflowStop("aborted", "the run was interrupted");
      if (err instanceof PolicyError) throw new WorkflowStop("policy_error", `${stage}: ${err.message}`);
      throw err;
    }
    const modelMs = performance.now() - began;
    this.steps += 1;
    // Every request is a fresh conversation (stage prompts share no prefix), so none is append-only.
    const { costUsd } = c.ledger.record({
      model: c.policy.model ?? reply.model,
      usage: reply.usage,
      latencyMs: modelMs,
      appendOnly: false,
    });
    c.trajectory.write(
      turnRecord({
        step: this.steps,
        request: [{ role: "system", content: prompt.system }, ...messages],
        firstChange: 0,
        reply,
        costUsd,
        modelMs,
        actions: [],
        formatError: null,
        overheadMs: 0,
        extra: { stage, temperature },
      }),
    );
    return reply.message.content;
  }
}

/**
 * `acilab agent -p`: one turn without a person — "ask" permissions are denied (the model is told
 * why), the changes go to the real tree only with --apply, and the output is Claude Code's text, json
 * or stream-json. The exit code says whether the agent answered.
 */
import { performance } from "node:perf_hooks";
import { ApplyConflict } from "./apply.js";
import { PromptBlocked } from "./conversation.js";
import { EXIT, type HeadlessEvents, resultObject } from "./headless.js";
import type { AgentStart } from "./start.js";

export async function printTurn(
  start: AgentStart,
  events: HeadlessEvents,
  prompt: string,
  options: { apply: boolean; startedAt: number; signal?: AbortSignal },
): Promise<number> {
  const { conversation: c, workspace, policy, permissionMode } = start;
  events.init({
    cwd: workspace.repo,
    tools: c.toolNames,
    model: policy.model ?? policy.spec,
    permissionMode,
  });
  let turn: Awaited<ReturnType<typeof c.turn>>;
  try {
    turn = await c.turn(prompt, options.signal);
  } catch (err) {
    if (!(err instanceof PromptBlocked)) throw err;
    events.notice(err.message);
    return EXIT.stopped;
  }
  const changes = await c.changes();
  let applied = false;
  let code: number = turn.outcome.stopReason === "submitted" ? EXIT.ok : EXIT.stopped;
  if (options.apply && changes.files.length > 0) {
    try {
      await c.apply();
      applied = true;
    } catch (err) {
      if (!(err instanceof ApplyConflict)) throw err;
      events.notice(err.message);
      code = EXIT.stopped;
    }
  }
  events.finish(
    resultObject({
      sessionId: start.session.id,
      outcome: turn.outcome,
      answer: turn.answer,
      durationMs: performance.now() - options.startedAt,
      denials: c.denials,
      changedFiles: changes.files,
      applied,
      patchFile: start.session.patchFile,
      checkpoints: c.checkpoints.all.length,
      agents: start.ledger
        .byAgent()
        .map((s) => ({ agent: s.agent, requests: s.requests, knownCostUsd: s.knownCostUsd })),
    }),
  );
  return code;
}

import { AgentlessPolicy, parseAgentlessSpec } from "./agentless-spec.js";
import { AnthropicPolicy } from "./anthropic.js";
import { OpenAIPolicy } from "./openai.js";
import { ReplayPolicy } from "./replay.js";
import { loadScript, ScriptedPolicy } from "./scripted.js";
import type { Policy } from "./types.js";

export const POLICY_SPEC_HELP = [
  "anthropic:<model>                 Anthropic Messages API (ANTHROPIC_API_KEY)",
  "openai:<model>                    OpenAI Chat Completions (OPENAI_API_KEY)",
  "openai-compatible:<model>@<url>   any OpenAI-compatible server (vLLM, llama.cpp, Ollama, LM Studio)",
  "scripted:<file.json>              a list of tool calls; plain `scripted` = the task's reference script",
  "replay:<trajectory.jsonl>         replay a recorded run",
  "agentless:[k=N:][temperature=T:]<model spec>",
  "                                  the Agentless workflow on a coding task: localise, k repair",
  "                                  candidates (default 4, sampled at T, default 0.8), validate, vote",
].join("\n");

export interface PolicyContext {
  /** The script to use for plain `scripted` (the task's reference script for the tool set). */
  referenceScript?: () => string;
}

/** Default models when `--policy auto` finds a key in the environment. */
export const AUTO_ANTHROPIC_MODEL = "claude-sonnet-4-5";
export const AUTO_OPENAI_MODEL = "gpt-4.1";

/**
 * `auto` picks a real model when a key is set (Anthropic first), else the task's scripted policy.
 * Returns the spec and a sentence saying why, so reports never hide which policy ran.
 */
export function resolveAutoPolicy(env: NodeJS.ProcessEnv = process.env): { spec: string; why: string } {
  if (env.ANTHROPIC_API_KEY)
    return { spec: `anthropic:${AUTO_ANTHROPIC_MODEL}`, why: "ANTHROPIC_API_KEY is set" };
  if (env.OPENAI_API_KEY) return { spec: `openai:${AUTO_OPENAI_MODEL}`, why: "OPENAI_API_KEY is set" };
  return {
    spec: "scripted",
    why: "no model key is set (ANTHROPIC_API_KEY / OPENAI_API_KEY), so each task's reference script runs",
  };
}

export function makePolicy(spec: string, context: PolicyContext = {}): Policy {
  const colon = spec.indexOf(":");
  const kind = colon < 0 ? spec : spec.slice(0, colon);
  const arg = colon < 0 ? "" : spec.slice(colon + 1);
  const need = (what: string): string => {
    if (!arg) throw new Error(`policy "${spec}": missing ${what}. Policy specs:\n${POLICY_SPEC_HELP}`);
    return arg;
  };
  switch (kind) {
    case "anthropic":
      return new AnthropicPolicy({ model: need("the model name, e.g. anthropic:claude-sonnet-4-5"), spec });
    case "openai":
      return new OpenAIPolicy({ model: need("the model name, e.g. openai:gpt-4.1"), spec });
    case "openai-compatible": {
      const at = need("<model>@<base url>").lastIndexOf("@");
      if (at <= 0 || at === arg.length - 1) {
        throw new Error(
          `policy "${spec}": expected openai-compatible:<model>@<base url>, e.g. openai-compatible:qwen3@http://127.0.0.1:8000/v1`,
        );
      }
      return new OpenAIPolicy({
        model: arg.slice(0, at),
        baseURL: arg.slice(at + 1),
        compatible: true,
        spec,
      });
    }
    case "scripted": {
      const path = arg || context.referenceScript?.();
      if (!path)
        throw new Error(
          `policy "scripted" needs a task with a reference script, or use scripted:<file.json>`,
        );
      return new ScriptedPolicy(arg ? spec : `scripted:${path}`, loadScript(path));
    }
    case "replay":
      return new ReplayPolicy(spec, need("the trajectory file, e.g. replay:runs/x/trajectory.jsonl"));
    case "agentless": {
      const { settings, inner } = parseAgentlessSpec(spec);
      return new AgentlessPolicy(spec, makePolicy(inner, context), settings);
    }
    default:
      throw new Error(`unknown policy "${spec}". Policy specs:\n${POLICY_SPEC_HELP}`);
  }
}

/**
 * The shape of a policy spec, checked without building the policy (no model key needed, no script
 * read): what `acilab experiment validate` checks. Kept beside makePolicy so the two list the same
 * kinds, plus `auto`.
 */
const SPEC_KINDS_USE =
  "use auto, scripted, scripted:FILE, replay:FILE, anthropic:MODEL, openai:MODEL, openai-compatible:MODEL@URL or agentless:MODEL_SPEC";

export function checkPolicySpec(spec: string): void {
  const colon = spec.indexOf(":");
  const kind = colon < 0 ? spec : spec.slice(0, colon);
  const arg = colon < 0 ? "" : spec.slice(colon + 1);
  const fail = (why: string): never => {
    throw new Error(`policy "${spec}": ${why} — ${SPEC_KINDS_USE}`);
  };
  switch (kind) {
    case "auto":
      if (colon >= 0) fail('"auto" takes nothing after it');
      return;
    case "scripted":
      if (colon >= 0 && !arg) fail("scripted: needs a file after the colon, or write plain scripted");
      return;
    case "replay":
    case "anthropic":
    case "openai":
      if (!arg)
        fail(`${kind} needs ${kind === "replay" ? "a trajectory file" : "a model name"} after "${kind}:"`);
      return;
    case "openai-compatible": {
      const at = arg.lastIndexOf("@");
      if (at <= 0 || at === arg.length - 1) fail("expected openai-compatible:MODEL@URL");
      return;
    }
    case "agentless":
      // Its own grammar errors name the agentless syntax; the model spec after it is checked as any other.
      checkPolicySpec(parseAgentlessSpec(spec).inner);
      return;
    default:
      fail(`no policy kind "${kind}"`);
  }
}

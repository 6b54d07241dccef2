/**
 * Policy specs — `scripted:FILE`, `anthropic:MODEL`, `agentless:k=4:openai:gpt-4.1` … — read by one
 * parser into a typed value. Everything that takes a spec (a flag, an arm's field, a job) checks it
 * with `parsePolicySpec`; `makePolicy` builds from the same value, so the two cannot disagree.
 */

import { didYouMean } from "../words/index.js";
import { AGENTLESS_SPEC_USE, type AgentlessSettings, parseAgentlessOptions } from "./agentless-spec.js";
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
  "auto                              a model when ANTHROPIC_API_KEY or OPENAI_API_KEY is set, else scripted",
].join("\n");

/** A spec that calls a model: what an agent loop or the Agentless workflow talks to. */
export type ModelSpec =
  | { kind: "anthropic"; text: string; model: string }
  | { kind: "openai"; text: string; model: string }
  | { kind: "openai-compatible"; text: string; model: string; baseURL: string };

/** A policy spec, read. `text` is the spec as written: what result.json's `policy` shows. */
export type PolicySpec =
  | { kind: "auto"; text: string }
  | { kind: "scripted"; text: string; file: string | undefined }
  | { kind: "replay"; text: string; file: string }
  | ModelSpec
  | { kind: "agentless"; text: string; settings: AgentlessSettings; model: ModelSpec };

const MODEL_KINDS: ReadonlySet<string> = new Set(["anthropic", "openai", "openai-compatible"]);
const POLICY_KINDS = ["auto", "scripted", "replay", ...MODEL_KINDS, "agentless"];
const SPEC_KINDS_USE =
  "use auto, scripted, scripted:FILE, replay:FILE, anthropic:MODEL, openai:MODEL, openai-compatible:MODEL@URL or agentless:MODEL_SPEC";

/** Reads a spec; throws a sentence naming what is wrong and what to write instead. */
export function parsePolicySpec(text: string): PolicySpec {
  const colon = text.indexOf(":");
  const kind = colon < 0 ? text : text.slice(0, colon);
  const arg = colon < 0 ? "" : text.slice(colon + 1);
  const fail = (why: string): never => {
    throw new Error(`policy "${text}": ${why}`);
  };
  const need = (what: string, example: string): string =>
    arg || fail(`missing ${what} after "${kind}:", e.g. ${example}`);
  switch (kind) {
    case "auto":
      if (colon >= 0) fail('"auto" takes nothing after it — write plain auto');
      return { kind, text };
    case "scripted":
      if (colon >= 0 && !arg) fail("scripted: needs a file after the colon, or write plain scripted");
      return { kind, text, file: arg || undefined };
    case "replay":
      return { kind, text, file: need("the trajectory file", "replay:runs/x/trajectory.jsonl") };
    case "anthropic":
      return { kind, text, model: need("the model name", "anthropic:claude-sonnet-4-5") };
    case "openai":
      return { kind, text, model: need("the model name", "openai:gpt-4.1") };
    case "openai-compatible": {
      const at = arg.lastIndexOf("@");
      if (at <= 0 || at === arg.length - 1)
        fail(
          "expected openai-compatible:<model>@<base url>, e.g. openai-compatible:qwen3@http://127.0.0.1:8000/v1",
        );
      return { kind, text, model: arg.slice(0, at), baseURL: arg.slice(at + 1) };
    }
    case "agentless": {
      const { settings, inner } = parseAgentlessOptions(text);
      const model = parsePolicySpec(inner);
      if (!MODEL_KINDS.has(model.kind))
        fail(
          `"${inner}" is not a model spec; the workflow needs a model (${[...MODEL_KINDS].join(", ")}), not ${model.kind} — ${AGENTLESS_SPEC_USE}`,
        );
      return { kind, text, settings, model: model as ModelSpec };
    }
    default:
      return fail(`no policy kind "${kind}"${didYouMean(kind, POLICY_KINDS)} (${SPEC_KINDS_USE})`);
  }
}

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

/**
 * The agent a spec names. `auto` must be resolved first (resolveAutoPolicy: the caller says which it
 * picked), and `agentless` is a workflow that drives a model, not an agent: both are refused here.
 */
export function makePolicy(spec: string | PolicySpec, context: PolicyContext = {}): Policy {
  const parsed = typeof spec === "string" ? parsePolicySpec(spec) : spec;
  switch (parsed.kind) {
    case "auto":
      throw new Error(
        'policy "auto" names no agent until it is resolved (resolveAutoPolicy); resolve it where the run\'s settings are read',
      );
    case "scripted": {
      const path = parsed.file ?? context.referenceScript?.();
      if (!path)
        throw new Error(
          `policy "scripted" needs a task with a reference script, or use scripted:<file.json>`,
        );
      return new ScriptedPolicy(parsed.file ? parsed.text : `scripted:${path}`, loadScript(path));
    }
    case "replay":
      return new ReplayPolicy(parsed.text, parsed.file);
    case "anthropic":
      return new AnthropicPolicy({ model: parsed.model, spec: parsed.text });
    case "openai":
      return new OpenAIPolicy({ model: parsed.model, spec: parsed.text });
    case "openai-compatible":
      return new OpenAIPolicy({
        model: parsed.model,
        baseURL: parsed.baseURL,
        compatible: true,
        spec: parsed.text,
      });
    case "agentless":
      throw new Error(
        `policy "${parsed.text}" is the Agentless workflow, not an agent — a coding run drives it (its model is ${parsed.model.text})`,
      );
  }
}

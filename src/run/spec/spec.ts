/**
 * RunSpec: everything that decides a run, as one typed value — who acts (an agent loop with a
 * policy, or a workflow), the tools, history, action format, sandbox, network, limits, grading rules,
 * the harness's features and the computer-use fields. Every source (CLI flags, an experiment's arm,
 * `suite`, a queued job) gives RunSettings; `resolveRunSpec` fills the defaults and resolves `auto`
 * here and nowhere else, and `runSpecHash` names the result the same way for arm versions, job ids
 * and resume checks.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { ObserveKind, TierName } from "../../cua/index.js";
import type { RepoMapChoice } from "../../harness/index.js";
import { type ModelSpec, type PolicySpec, parsePolicySpec, resolveAutoPolicy } from "../../policies/index.js";
import { type BackendChoice, defaultBackend } from "../../sandbox/index.js";
import type { GradingRules, PinPolicy } from "../../swebench/index.js";
import type { ActionFormat } from "../../tools/index.js";
import { RUN_DEFAULTS, RUN_SETTINGS, RUN_SETTINGS_SCHEMA, type RunSettings } from "./settings.js";

/**
 * Who acts. A loop asks its policy for every turn; a workflow (Agentless) runs fixed stages and asks
 * its model to fill each in — it is not a policy, and only coding runs take it.
 */
export type Actor =
  | { kind: "loop"; policy: string }
  | { kind: "agentless"; spec: string; model: string; k: number; temperature: number };

/** The run's limits as given; what is absent is the task kind's own default (DEFAULT_LIMITS, DEFAULT_CUA_LIMITS). */
export interface SpecLimits {
  max_steps?: number;
  budget_usd?: number;
  timeout_s?: number;
}

export interface RunSpec {
  actor: Actor;
  tools: string;
  history: string;
  action_format: ActionFormat;
  sandbox: BackendChoice;
  allow_net: string[];
  rules: GradingRules;
  /** What an instance's environment does with a pin the indexes lack. */
  pins: PinPolicy;
  limits: SpecLimits;
  command_timeout_s: number;
  harness: { memory: boolean; plan: boolean; repo_map: RepoMapChoice; settings: string | null };
  cua: {
    /** null: the task's own first observation kind. */
    observe: ObserveKind | null;
    /** `WIDTHxHEIGHT`. */
    resolution: string;
    tier: TierName;
    screenshot_history: string;
  };
}

/** The actor a policy spec names; `auto` must be resolved before (resolveRunSpec does). */
export function actorOf(policy: string | PolicySpec): Actor {
  const parsed = typeof policy === "string" ? parsePolicySpec(policy) : policy;
  if (parsed.kind === "auto")
    throw new Error('policy "auto" names no actor until it is resolved — resolveRunSpec resolves it');
  if (parsed.kind === "agentless")
    return {
      kind: "agentless",
      spec: parsed.text,
      model: parsed.model.text,
      k: parsed.settings.k,
      temperature: parsed.settings.temperature,
    };
  return { kind: "loop", policy: parsed.text };
}

/** The spec to show for an actor (result.json's `policy`, a plan's table). */
export function actorSpec(actor: Actor): string {
  return actor.kind === "loop" ? actor.policy : actor.spec;
}

export interface ResolveOptions {
  /** The policy when the settings name none (the commands' own default; "auto" for experiments). */
  defaultPolicy?: string;
  env?: NodeJS.ProcessEnv;
}

/** What `auto` became, and why, when the settings said auto: a report never hides who acted. */
export interface AutoChoice {
  spec: string;
  why: string;
}

/**
 * Settings (already checked by RUN_SETTINGS_SCHEMA or a flag parser) → the RunSpec, every default
 * filled and `auto` resolved from the environment's model keys. Pure but for `env`.
 */
export function resolveRunSpec(
  settings: RunSettings,
  options: ResolveOptions = {},
): { spec: RunSpec; auto: AutoChoice | undefined } {
  const env = options.env ?? process.env;
  const asked = settings.policy ?? options.defaultPolicy ?? RUN_DEFAULTS.policy;
  const auto = asked === "auto" ? resolveAutoPolicy(env) : undefined;
  const d = RUN_DEFAULTS;
  const spec: RunSpec = {
    actor: actorOf(auto?.spec ?? asked),
    tools: settings.tools ?? d.tools,
    history: settings.history ?? d.history,
    action_format: settings.action_format ?? d.action_format,
    sandbox: settings.sandbox ?? defaultBackend(env),
    allow_net: [...(settings.allow_net ?? d.allow_net)],
    rules: settings.rules ?? d.rules,
    pins: settings.pins ?? d.pins,
    limits: {
      ...(settings.max_steps !== undefined ? { max_steps: settings.max_steps } : {}),
      ...(settings.budget_usd !== undefined ? { budget_usd: settings.budget_usd } : {}),
      ...(settings.timeout_s !== undefined ? { timeout_s: settings.timeout_s } : {}),
    },
    command_timeout_s: settings.command_timeout_s ?? d.command_timeout_s,
    harness: {
      memory: (settings.memory ?? d.memory) === "on",
      plan: (settings.plan ?? d.plan) === "on",
      repo_map: settings.repo_map ?? d.repo_map,
      settings: settings.settings ?? null,
    },
    cua: {
      observe: settings.observe ?? null,
      resolution: settings.resolution ?? d.resolution,
      tier: settings.tier ?? d.tier,
      screenshot_history: settings.screenshot_history ?? d.screenshot_history,
    },
  };
  return { spec, auto };
}

/** The settings object a source gave, checked; throws the first problem as a sentence naming the field. */
export function checkRunSettings(data: unknown): RunSettings {
  const parsed = RUN_SETTINGS_SCHEMA.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(`${issue?.path.join(".") || "settings"}: ${issue?.message ?? "invalid"}`);
}

/** JSON with every object's keys sorted, so equal values give equal bytes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/**
 * sha256 of the spec's canonical JSON: two runs with the same hash were run with the same settings,
 * defaults and `auto`'s choice included — so a changed policy, history or default is never mistaken
 * for a finished run of the old one.
 */
export function runSpecHash(spec: RunSpec): string {
  return createHash("sha256").update(canonicalJson(spec)).digest("hex");
}

const modelKinds = new Set<ModelSpec["kind"]>(["anthropic", "openai", "openai-compatible"]);

const ACTOR_SCHEMA = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("loop"),
    policy: RUN_SETTINGS.policy.schema.refine((p) => p !== "auto" && !p.startsWith("agentless:"), {
      message: "a loop's policy is an agent, resolved (not auto, not a workflow)",
    }),
  }),
  z.strictObject({
    kind: z.literal("agentless"),
    spec: RUN_SETTINGS.policy.schema,
    model: RUN_SETTINGS.policy.schema.refine((m) => modelKinds.has(parsePolicySpec(m).kind as never), {
      message: "the workflow's model is a model spec",
    }),
    k: z.number().int().min(1),
    temperature: z.number().min(0),
  }),
]);

/** The whole RunSpec as a schema: what a worker checks a job's spec against before anything reads it. */
export const RUN_SPEC_SCHEMA: z.ZodType<RunSpec> = z.strictObject({
  actor: ACTOR_SCHEMA,
  tools: RUN_SETTINGS.tools.schema,
  history: RUN_SETTINGS.history.schema,
  action_format: RUN_SETTINGS.action_format.schema,
  sandbox: RUN_SETTINGS.sandbox.schema,
  allow_net: RUN_SETTINGS.allow_net.schema,
  rules: RUN_SETTINGS.rules.schema,
  pins: RUN_SETTINGS.pins.schema,
  limits: z.strictObject({
    max_steps: RUN_SETTINGS.max_steps.schema.optional(),
    budget_usd: RUN_SETTINGS.budget_usd.schema.optional(),
    timeout_s: RUN_SETTINGS.timeout_s.schema.optional(),
  }),
  command_timeout_s: RUN_SETTINGS.command_timeout_s.schema,
  harness: z.strictObject({
    memory: z.boolean(),
    plan: z.boolean(),
    repo_map: RUN_SETTINGS.repo_map.schema,
    settings: RUN_SETTINGS.settings.schema.nullable(),
  }),
  cua: z.strictObject({
    observe: RUN_SETTINGS.observe.schema.nullable(),
    resolution: RUN_SETTINGS.resolution.schema,
    tier: RUN_SETTINGS.tier.schema,
    screenshot_history: RUN_SETTINGS.screenshot_history.schema,
  }),
}) as z.ZodType<RunSpec>;

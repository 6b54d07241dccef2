/**
 * `agentless:[k=N:][temperature=T:]<model spec>`: the Agentless workflow (src/agentless) driving a
 * real model. The spec is parsed here, beside the other kinds, so `checkPolicySpec` and `makePolicy`
 * read one grammar; the workflow itself lives in its own area and reaches the model through `inner`.
 */
import { type Policy, PolicyError, type PolicyReply } from "./types.js";

export interface AgentlessSettings {
  /** Repair candidates sampled per location set. */
  k: number;
  /** Temperature of candidates 2..k (the first is greedy, at 0, as Agentless samples). */
  temperature: number;
}

/** Agentless's paper samples more, but 4 candidates already let a vote break a tie on small tasks. */
export const DEFAULT_AGENTLESS_K = 4;
/** Agentless's own sampling temperature. */
export const DEFAULT_AGENTLESS_TEMPERATURE = 0.8;
/** Each candidate is a graded run of the visible tests: 40 is the paper's per-issue total. */
const MAX_K = 40;
/** Both providers accept 0..2 (Anthropic only up to 1; its API says so itself). */
const MAX_TEMPERATURE = 2;

/** The kinds that call a model: the workflow's model calls must be real ones, priced and recorded. */
const MODEL_KINDS = ["anthropic", "openai", "openai-compatible"];

export const AGENTLESS_SPEC_USE =
  "write agentless:[k=N:][temperature=T:]MODEL_SPEC, e.g. agentless:k=4:anthropic:claude-sonnet-4-5";

export interface ParsedAgentlessSpec {
  settings: AgentlessSettings;
  /** The model spec after the options, e.g. "openai-compatible:m@http://127.0.0.1:8000/v1". */
  inner: string;
}

/** Parses what follows "agentless:"; throws a sentence naming the fault and the fix. */
export function parseAgentlessSpec(spec: string): ParsedAgentlessSpec {
  const fail = (why: string): never => {
    throw new Error(`policy "${spec}": ${why} — ${AGENTLESS_SPEC_USE}`);
  };
  const rest = spec.slice("agentless:".length).split(":");
  const settings: AgentlessSettings = { k: DEFAULT_AGENTLESS_K, temperature: DEFAULT_AGENTLESS_TEMPERATURE };
  const seen = new Set<string>();
  // Options are `key=value` segments; the first segment without "=" starts the model spec (a model
  // kind never contains "=", so a URL's query string after it is left alone).
  while (rest.length > 0 && (rest[0] as string).includes("=")) {
    const [key = "", value = ""] = (rest.shift() as string).split("=", 2);
    if (seen.has(key)) fail(`option "${key}" is given twice`);
    seen.add(key);
    const n = Number(value);
    switch (key) {
      case "k":
        if (!/^\d+$/.test(value) || n < 1 || n > MAX_K)
          fail(`k must be a whole number of candidates from 1 to ${MAX_K}, got "${value}"`);
        settings.k = n;
        break;
      case "temperature":
        if (value === "" || !Number.isFinite(n) || n < 0 || n > MAX_TEMPERATURE)
          fail(`temperature must be a number from 0 to ${MAX_TEMPERATURE}, got "${value}"`);
        settings.temperature = n;
        break;
      default:
        fail(`no option "${key}" (the options are k and temperature)`);
    }
  }
  const inner = rest.join(":");
  if (inner === "") fail("the model spec is missing after the options");
  const kind = inner.split(":")[0] as string;
  if (!MODEL_KINDS.includes(kind))
    fail(
      `"${inner}" is not a model spec; the workflow needs a model (${MODEL_KINDS.join(", ")}), not ${kind}`,
    );
  return { settings, inner };
}

/**
 * What `--policy agentless:…` resolves to. It is not an agent: `next` refuses, so a run that is not a
 * coding task cannot quietly use it as one; the coding run sees `workflow` and runs the workflow,
 * which calls `inner` (a real adapter) for each stage.
 */
export class AgentlessPolicy implements Policy {
  readonly workflow = "agentless";

  constructor(
    readonly spec: string,
    readonly inner: Policy,
    readonly settings: AgentlessSettings,
  ) {}

  get model(): string | undefined {
    return this.inner.model;
  }

  next(): Promise<PolicyReply> {
    return Promise.reject(
      new PolicyError(
        "bad_request",
        `policy "${this.spec}" is a fixed workflow for coding tasks, not an agent loop — run it on a coding task, or use ${this.inner.spec} for this one`,
      ),
    );
  }
}

export function isAgentless(policy: Policy): policy is AgentlessPolicy {
  return policy instanceof AgentlessPolicy;
}

/**
 * The options part of `agentless:[k=N:][temperature=T:]<model spec>`: how many repair candidates and
 * how hot. The spec as a whole is read by parsePolicySpec (spec.ts), which checks the model spec after
 * the options like any other; the workflow itself lives in src/agentless.
 */

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

export const AGENTLESS_SPEC_USE =
  "write agentless:[k=N:][temperature=T:]MODEL_SPEC, e.g. agentless:k=4:anthropic:claude-sonnet-4-5";

/** Reads the options of an `agentless:…` spec and returns them with the model spec that follows. */
export function parseAgentlessOptions(spec: string): { settings: AgentlessSettings; inner: string } {
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
  return { settings, inner };
}

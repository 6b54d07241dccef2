import { describe, expect, it } from "vitest";
import { codingOptions, cuaOptions, toolsOptions } from "./kinds.js";
import { RUN_DEFAULTS, RUN_SETTING_NAMES, RUN_SETTINGS, RUN_SETTINGS_SCHEMA } from "./settings.js";
import { actorOf, checkRunSettings, RUN_SPEC_SCHEMA, resolveRunSpec, runSpecHash } from "./spec.js";

const NO_KEYS: NodeJS.ProcessEnv = {};

describe("resolveRunSpec: settings → the one RunSpec", () => {
  it("fills every default in one place and resolves auto from the model keys", () => {
    const { spec, auto } = resolveRunSpec({}, { env: NO_KEYS });
    expect(spec).toEqual({
      actor: { kind: "loop", policy: "scripted" },
      tools: "full",
      history: "all",
      action_format: "json",
      sandbox: "auto",
      allow_net: [],
      rules: "hardened",
      pins: "exact",
      limits: {},
      command_timeout_s: 60,
      harness: { memory: true, plan: false, repo_map: "off", settings: null },
      cua: { observe: null, resolution: "1400x800", tier: "standard", screenshot_history: "all" },
    });
    expect(auto?.why).toMatch(/no model key is set/);
    const keyed = resolveRunSpec({}, { env: { ANTHROPIC_API_KEY: "k" } });
    expect(keyed.spec.actor).toEqual({ kind: "loop", policy: "anthropic:claude-sonnet-4-5" });
    expect(resolveRunSpec({}, { env: { ACILAB_SANDBOX: "process" } }).spec.sandbox).toBe("process");
    expect(resolveRunSpec({}, { defaultPolicy: "scripted", env: { OPENAI_API_KEY: "k" } }).auto).toBe(
      undefined,
    );
  });

  it("reads agentless as a workflow with its model, not as a policy", () => {
    const { spec } = resolveRunSpec({ policy: "agentless:k=3:openai:gpt-4.1" }, { env: NO_KEYS });
    expect(spec.actor).toEqual({
      kind: "agentless",
      spec: "agentless:k=3:openai:gpt-4.1",
      model: "openai:gpt-4.1",
      k: 3,
      temperature: 0.8,
    });
    expect(actorOf("replay:t.jsonl")).toEqual({ kind: "loop", policy: "replay:t.jsonl" });
  });

  it("hashes equal settings alike and any changed setting, default or auto choice apart", () => {
    const hash = (settings: Parameters<typeof resolveRunSpec>[0], env = NO_KEYS) =>
      runSpecHash(resolveRunSpec(settings, { env }).spec);
    expect(hash({})).toBe(hash({ history: "all", tools: "full", policy: "auto" }));
    expect(hash(checkRunSettings({ resolution: "1400X800" }))).toBe(hash({}));
    expect(hash({ policy: "anthropic:A" })).not.toBe(hash({ policy: "anthropic:B" }));
    expect(hash({ history: "last:5" })).not.toBe(hash({}));
    expect(hash({ max_steps: 10 })).not.toBe(hash({}));
    expect(hash({}, { ANTHROPIC_API_KEY: "k" })).not.toBe(hash({}));
  });

  it("a resolved spec passes the job schema unchanged; a tampered one names the field", () => {
    const { spec } = resolveRunSpec({ allow_net: ["pypi.org"], observe: "a11y" }, { env: NO_KEYS });
    expect(RUN_SPEC_SCHEMA.parse(JSON.parse(JSON.stringify(spec)))).toEqual(spec);
    const bad = RUN_SPEC_SCHEMA.safeParse({ ...spec, sandbox: "docker" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toMatch(/no sandbox backend "docker"/);
    expect(RUN_SPEC_SCHEMA.safeParse({ ...spec, actor: { kind: "loop", policy: "auto" } }).success).toBe(
      false,
    );
    expect(RUN_SPEC_SCHEMA.safeParse({ ...spec, extra: 1 }).success).toBe(false);
  });
});

describe("the settings table", () => {
  it("gives every setting its own flag, and every plain default a known setting", () => {
    const flags = RUN_SETTING_NAMES.map((n) => RUN_SETTINGS[n].flag.name);
    expect(new Set(flags).size).toBe(flags.length);
    for (const name of Object.keys(RUN_DEFAULTS)) expect(RUN_SETTING_NAMES).toContain(name);
    // A default is itself a valid value of its setting.
    expect(RUN_SETTINGS_SCHEMA.safeParse(RUN_DEFAULTS).success).toBe(true);
  });

  it("checks a source's settings and says which field is wrong and what to write", () => {
    expect(() => checkRunSettings({ tools: "full-shel" })).toThrow(/tools: no tool set "full-shel"/);
    expect(() => checkRunSettings({ max_steps: 0 })).toThrow(/max_steps: must be a whole number ≥ 1/);
    expect(() => checkRunSettings({ policy: "gemini:pro" })).toThrow(/no policy kind "gemini"/);
    expect(() => checkRunSettings({ toolz: "full" })).toThrow(/toolz/);
    expect(checkRunSettings({ repo_map: "tool" })).toEqual({ repo_map: "tool" });
  });
});

describe("a RunSpec as each kind's own options", () => {
  const { spec } = resolveRunSpec(
    { max_steps: 7, timeout_s: 2, command_timeout_s: 5, repo_map: "prefix", tier: "high" },
    { env: NO_KEYS },
  );

  it("gives each kind the settings it reads and nothing else", () => {
    expect(codingOptions(spec)).toMatchObject({
      tools: "full",
      limits: { maxSteps: 7, wallClockMs: 2000 },
      commandTimeoutMs: 5000,
      harness: { memory: true, plan: false, repoMap: "prefix" },
    });
    expect(toolsOptions(spec)).toMatchObject({ actionFormat: "json", commandTimeoutMs: 5000 });
    const task = { observe: ["a11y", "screenshot"] } as Parameters<typeof cuaOptions>[1];
    expect(cuaOptions(spec, task)).toMatchObject({
      observe: "a11y",
      screen: { width: 1400, height: 800 },
      tier: "high",
      limits: { maxSteps: 7 },
    });
  });
});

/**
 * The run settings as command-line flags: a command names the settings it takes, and their flags,
 * help lines and checks come from the one table (RUN_SETTINGS). No command spells a setting out or
 * parses one itself; what the flags say becomes RunSettings, then the RunSpec (resolveRunSpec).
 */

import type { Limits } from "../loop/index.js";
import {
  type AutoChoice,
  type ResolveOptions,
  RUN_DEFAULTS,
  RUN_SETTINGS,
  type RunSettingName,
  type RunSettings,
  type RunSpec,
  resolveRunSpec,
  type SettingDef,
  type TaskKind,
} from "../run/index.js";
import { UsageError } from "./args.js";
import type { OptionSpec } from "./options.js";

type Settings = typeof RUN_SETTINGS;
type FlagName<K extends RunSettingName> = Settings[K]["flag"]["name"];
type FlagSpec<K extends RunSettingName> = Settings[K]["flag"]["text"] extends "list"
  ? { readonly type: "string"; readonly multiple: true; readonly value: string; readonly help: string }
  : { readonly type: "string"; readonly value: string; readonly help: string };

/** A command's option table for the settings it takes, keyed by flag name. */
export type SettingTable<N extends RunSettingName> = { readonly [K in N as FlagName<K>]: FlagSpec<K> };

/** What a command may change about a setting's flag: its default as help shows it, or its help. */
export type FlagOverrides<N extends RunSettingName> = Partial<
  Record<N, { help?: string; defaultHelp?: string }>
>;

/** The limits' defaults as a command's help shows them: the defaults of the kinds it runs. */
export function limitDefaults(limits: Limits): FlagOverrides<"max_steps" | "budget_usd" | "timeout_s"> {
  return {
    max_steps: { defaultHelp: String(limits.maxSteps) },
    budget_usd: { defaultHelp: String(limits.budgetUsd ?? "none") },
    timeout_s: { defaultHelp: String(limits.wallClockMs / 1000) },
  };
}

/** The settings that tasks of these kinds read, in the table's order. */
export function settingsFor(kinds: readonly TaskKind[]): RunSettingName[] {
  return (Object.keys(RUN_SETTINGS) as RunSettingName[]).filter((name) =>
    RUN_SETTINGS[name].kinds.some((k) => kinds.includes(k)),
  );
}

export function settingOptions<const N extends RunSettingName>(
  names: readonly N[],
  overrides: FlagOverrides<RunSettingName> = {},
): SettingTable<N> {
  const table: Record<string, OptionSpec> = {};
  for (const name of names) {
    const flag: SettingDef["flag"] = RUN_SETTINGS[name].flag;
    const own: { help?: string; defaultHelp?: string } = overrides[name] ?? {};
    const plain = (RUN_DEFAULTS as Record<string, unknown>)[name];
    const defaultHelp =
      own.defaultHelp ??
      flag.defaultHelp ??
      (typeof plain === "string" || typeof plain === "number" ? String(plain) : undefined);
    table[flag.name] = {
      type: "string",
      ...(flag.text === "list" ? { multiple: true as const } : {}),
      value: flag.value,
      help: own.help ?? flag.help,
      ...(defaultHelp !== undefined ? { defaultHelp } : {}),
    };
  }
  return table as SettingTable<N>;
}

/** The flags' values → RunSettings, each checked by its setting's schema; a bad one is a usage error. */
export function settingsFromFlags(
  values: Readonly<Record<string, unknown>>,
  names: readonly RunSettingName[],
  command: string,
): RunSettings {
  const settings: Record<string, unknown> = {};
  for (const name of names) {
    const { flag, schema } = RUN_SETTINGS[name];
    const raw = values[flag.name];
    if (raw === undefined) continue;
    const value = flag.text === "number" ? numberText(raw as string) : raw;
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const shown = Array.isArray(raw) ? raw.join(" ") : String(raw);
      throw new UsageError(
        `--${flag.name} ${shown}: ${parsed.error.issues[0]?.message ?? "invalid"}`,
        command,
      );
    }
    settings[name] = parsed.data;
  }
  return settings as RunSettings;
}

/** A flag's number; text that is not one stays text, so the schema's sentence says what to write. */
function numberText(raw: string): number | string {
  const n = Number(raw);
  return raw.trim() !== "" && Number.isFinite(n) ? n : raw;
}

/**
 * Flags → the RunSpec. When `auto` picked the policy, the choice and why are said on `out` (reports
 * never hide who acted).
 */
export function specFromFlags(
  values: Readonly<Record<string, unknown>>,
  names: readonly RunSettingName[],
  command: string,
  options: ResolveOptions & { out?: (line: string) => void } = {},
): { spec: RunSpec; settings: RunSettings; auto: AutoChoice | undefined } {
  const settings = settingsFromFlags(values, names, command);
  let resolved: ReturnType<typeof resolveRunSpec>;
  try {
    resolved = resolveRunSpec(settings, options);
  } catch (err) {
    throw new UsageError((err as Error).message, command);
  }
  if (resolved.auto) options.out?.(`policy: ${resolved.auto.spec} (${resolved.auto.why})`);
  return { ...resolved, settings };
}

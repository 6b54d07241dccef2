/**
 * A RunSpec as each kind's own options: the few settings each kind reads, nothing else (a kind
 * never sees a flag or an experiment field). Pure.
 */
import type { CuaTask, ObserveKind, TaskFile } from "../../cua/index.js";
import { parseScreen } from "../../cua/index.js";
import { type Limits, limitsFrom } from "../../loop/index.js";
import type { CodingOptions } from "../coding.js";
import type { CuaOptions } from "../cua.js";
import type { ToolsOptions } from "../tools.js";
import type { RunSpec, SpecLimits } from "./spec.js";

export function limitsOf(limits: SpecLimits): Partial<Limits> {
  return limitsFrom({ maxSteps: limits.max_steps, budgetUsd: limits.budget_usd, timeoutS: limits.timeout_s });
}

export function codingOptions(spec: RunSpec): CodingOptions {
  return {
    tools: spec.tools,
    history: spec.history,
    actionFormat: spec.action_format,
    limits: limitsOf(spec.limits),
    commandTimeoutMs: spec.command_timeout_s * 1000,
    sandbox: spec.sandbox,
    allowNet: spec.allow_net,
    rules: spec.rules,
    pins: spec.pins,
    harness: {
      memory: spec.harness.memory,
      plan: spec.harness.plan,
      repoMap: spec.harness.repo_map,
      ...(spec.harness.settings !== null ? { settings: spec.harness.settings } : {}),
    },
  };
}

export function toolsOptions(spec: RunSpec): ToolsOptions {
  return {
    actionFormat: spec.action_format,
    history: spec.history,
    limits: limitsOf(spec.limits),
    commandTimeoutMs: spec.command_timeout_s * 1000,
    sandbox: spec.sandbox,
    allowNet: spec.allow_net,
  };
}

/** The observation kind a computer-use run uses: the spec's, else the task's first. */
export function observeFor(spec: RunSpec, task: CuaTask | TaskFile): ObserveKind {
  return spec.cua.observe ?? task.observe[0] ?? "screenshot";
}

export function cuaOptions(spec: RunSpec, task: CuaTask | TaskFile): CuaOptions {
  return {
    observe: observeFor(spec, task),
    screen: parseScreen(spec.cua.resolution),
    tier: spec.cua.tier,
    history: spec.cua.screenshot_history,
    limits: limitsOf(spec.limits),
  };
}

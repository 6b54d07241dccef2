import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { NpmSources } from "../swebench/index.js";
import { hostOf, type SandboxSources, SOURCES_MOUNT } from "./sources.js";

/** npm's default registry, when no config names one. */
export const NPM_REGISTRY = "https://registry.npmjs.org/";

/** The registries a machine's npm configuration names, and which files and variables said so. */
export interface MachineNpmSources extends NpmSources {
  origin: string[];
}

/**
 * An npmrc's `key=value` lines (ini without sections; `;` and `#` start comments), with npm's
 * `${VAR}` expanded from `env`. Only registry keys are read from it: tokens stay on the host.
 */
export function parseNpmrc(text: string, env: NodeJS.ProcessEnv = process.env): Map<string, string> {
  const values = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith(";") || line.startsWith("#")) continue;
    const eq = line.indexOf("=");
    if (eq < 0) continue;
    const key = line.slice(0, eq).trim();
    const value = line
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .replace(/\$\{([^}]+)\}/g, (_, name: string) => env[name] ?? "");
    values.set(key, value);
  }
  return values;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * The registries this machine's npm would use, read as npm reads them (builtin, global, user, then
 * `npm_config_*` variables; later wins) — but never a project's .npmrc: the repository being built
 * is not trusted to choose where the network goes.
 */
export function machineNpmSources(
  env: NodeJS.ProcessEnv = process.env,
  home = homedir(),
  prefix = "/usr",
): MachineNpmSources {
  const files = [
    join(prefix, "lib/node_modules/npm/npmrc"),
    env.NPM_CONFIG_GLOBALCONFIG ?? env.npm_config_globalconfig ?? join(prefix, "etc/npmrc"),
    env.NPM_CONFIG_USERCONFIG ?? env.npm_config_userconfig ?? join(home, ".npmrc"),
  ];
  const values = new Map<string, string>();
  const origin: string[] = [];
  for (const file of files) {
    const text = readText(file);
    if (text === undefined) continue;
    const parsed = parseNpmrc(text, env);
    const registryKeys = [...parsed.keys()].filter((k) => k === "registry" || /^@[^:]+:registry$/.test(k));
    if (registryKeys.length > 0) origin.push(file);
    for (const k of registryKeys) values.set(k, parsed.get(k) as string);
  }
  for (const [name, value] of Object.entries(env)) {
    const key = /^npm_config_(.+)$/i.exec(name)?.[1];
    if (value === undefined || key === undefined) continue;
    const k =
      key.toLowerCase() === "registry" ? "registry" : /^@[^:]+:registry$/i.test(key) ? key : undefined;
    if (k === undefined) continue;
    values.set(k, value);
    origin.push(name);
  }
  const scopes: Record<string, string> = {};
  for (const [k, v] of values) if (k !== "registry") scopes[k.slice(0, -":registry".length)] = v;
  return {
    registry: values.get("registry") || NPM_REGISTRY,
    ...(Object.keys(scopes).length > 0 ? { scopes } : {}),
    origin,
  };
}

/** The sources a spec's `indexes` names: the machine's (default), none, or its own registries. */
export function specNpmSources(
  indexes: "machine" | "none" | NpmSources | undefined,
): MachineNpmSources | "none" {
  if (indexes === "none") return "none";
  if (indexes === undefined || indexes === "machine") return machineNpmSources();
  return { ...indexes, origin: ["the spec's indexes"] };
}

/**
 * npm inside the build sandbox: an npmrc naming exactly these registries (no tokens: the sandbox gets
 * no secrets), a cache of its own in /tmp, and the proxy open to their hosts only. "none" is npm's
 * offline mode — a lock file of `file:` packages installs, anything from a registry fails at once.
 */
export function sandboxNpm(sources: MachineNpmSources | "none"): SandboxSources {
  const lines = ["audit=false", "fund=false", "update-notifier=false", "cache=/tmp/.npm", "progress=false"];
  const hosts = new Set<string>();
  let summary: string;
  if (sources === "none") {
    lines.push("offline=true");
    summary = "no registry (npm offline: file: packages only)";
  } else {
    lines.push(`registry=${sources.registry}`);
    hosts.add(hostOf(sources.registry));
    for (const [scope, url] of Object.entries(sources.scopes ?? {})) {
      lines.push(`${scope}:registry=${url}`);
      hosts.add(hostOf(url));
    }
    const scoped = Object.entries(sources.scopes ?? {}).map(([s, u]) => `${u} (${s})`);
    summary = `${[sources.registry, ...scoped].join(", ")}${sources.origin.length > 0 ? ` — from ${sources.origin.join(", ")}` : " (npm's default)"}`;
  }
  return {
    files: {},
    paths: [],
    hosts: [...hosts].sort(),
    configName: "npmrc",
    config: `${lines.join("\n")}\n`,
    env: { NPM_CONFIG_USERCONFIG: `${SOURCES_MOUNT}/npmrc`, NPM_CONFIG_UPDATE_NOTIFIER: "false" },
    summary,
  };
}

import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import type { PackageSources } from "../swebench/index.js";

/** pip's default index, used when no configuration names another. */
export const PYPI_SIMPLE = "https://pypi.org/simple";

/** Where pip may fetch packages from, as pip itself would read it, and which files said so. */
export interface PipSources {
  /** undefined: pip's default, PyPI. */
  indexUrl: string | undefined;
  extraIndexUrls: string[];
  findLinks: string[];
  constraints: string[];
  /** pip's `no-index`: only find-links. */
  noIndex: boolean;
  /** The configuration files and variables these came from, for `env build` to say. */
  origin: string[];
}

const KEYS = {
  "index-url": "indexUrl",
  "extra-index-url": "extraIndexUrls",
  "find-links": "findLinks",
  constraint: "constraints",
  "no-index": "noIndex",
} as const;

/** `[section] key = value` with pip's continuation lines (indented lines extend the value). */
export function parsePipConfig(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let section: Map<string, string> | undefined;
  let key: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*[#;]/.test(raw) || raw.trim() === "") continue;
    const head = /^\s*\[([^\]]+)\]\s*$/.exec(raw);
    if (head) {
      const name = (head[1] as string).trim();
      section = sections.get(name) ?? new Map();
      sections.set(name, section);
      key = undefined;
      continue;
    }
    if (/^\s/.test(raw) && section && key) {
      section.set(key, `${section.get(key) ?? ""} ${raw.trim()}`.trim());
      continue;
    }
    const kv = /^\s*([^=:\s]+)\s*[=:]\s*(.*)$/.exec(raw);
    if (kv && section) {
      key = (kv[1] as string).toLowerCase().replace(/_/g, "-");
      section.set(key, (kv[2] as string).trim());
    }
  }
  return sections;
}

/**
 * The package sources of this machine's pip configuration: the files pip reads, in its order
 * (site-wide under XDG_CONFIG_DIRS and /etc, then the user's, then PIP_CONFIG_FILE), `[global]` then
 * `[install]`, then PIP_* variables, each later one winning.
 */
export function machinePipSources(env: NodeJS.ProcessEnv = process.env, home = homedir()): PipSources {
  const out: PipSources = {
    indexUrl: undefined,
    extraIndexUrls: [],
    findLinks: [],
    constraints: [],
    noIndex: false,
    origin: [],
  };
  const set = (key: keyof typeof KEYS, value: string, from: string) => {
    const field = KEYS[key];
    if (field === "indexUrl") out.indexUrl = value;
    else if (field === "noIndex") out.noIndex = /^(1|true|yes|on)$/i.test(value);
    else out[field] = value.split(/\s+/).filter((v) => v !== "");
    if (!out.origin.includes(from)) out.origin.push(from);
  };
  const xdg = (env.XDG_CONFIG_DIRS ?? "/etc/xdg").split(":").filter((d) => d !== "");
  const files = [
    ...xdg.map((d) => join(d, "pip", "pip.conf")),
    "/etc/pip.conf",
    join(home, ".pip", "pip.conf"),
    join(env.XDG_CONFIG_HOME ?? join(home, ".config"), "pip", "pip.conf"),
    ...(env.PIP_CONFIG_FILE && env.PIP_CONFIG_FILE !== "os.devnull" ? [env.PIP_CONFIG_FILE] : []),
  ];
  for (const file of files) {
    if (!existsSync(file)) continue;
    let sections: Map<string, Map<string, string>>;
    try {
      sections = parsePipConfig(readFileSync(file, "utf8"));
    } catch {
      continue; // unreadable: pip would skip it as well
    }
    for (const name of ["global", "install"])
      for (const [key, value] of sections.get(name) ?? [])
        if (key in KEYS) set(key as keyof typeof KEYS, value, file);
  }
  for (const key of Object.keys(KEYS) as Array<keyof typeof KEYS>) {
    const name = `PIP_${key.toUpperCase().replace(/-/g, "_")}`;
    const value = env[name];
    if (value !== undefined && value !== "") set(key, value, `$${name}`);
  }
  return out;
}

/** The sources an environment spec names: the machine's, none, or its own list. */
export function specSources(indexes: "machine" | "none" | PackageSources | undefined): PipSources {
  if (indexes === undefined || indexes === "machine") return machinePipSources();
  if (indexes === "none")
    return {
      indexUrl: undefined,
      extraIndexUrls: [],
      findLinks: [],
      constraints: [],
      noIndex: true,
      origin: ["the spec: no index"],
    };
  return {
    indexUrl: indexes.index_url,
    extraIndexUrls: [...(indexes.extra_index_urls ?? [])],
    findLinks: [...(indexes.find_links ?? [])],
    constraints: [],
    noIndex: indexes.index_url === undefined && (indexes.extra_index_urls ?? []).length === 0,
    origin: ["the spec's indexes"],
  };
}

/** Where the build's package-manager config (pip.conf, npmrc) and constraint files appear in the build sandbox. */
export const SOURCES_MOUNT = "/opt/acilab-sources";

/**
 * What a build sandbox needs for its package manager to reach these sources, and nothing else:
 * folders to bind, hosts to allow, the config file it reads. One shape for pip and npm.
 */
export interface SandboxSources {
  /** Files written beside the config (copies of the constraint files, which may sit in /etc). */
  files: Record<string, string>;
  /** Host files and folders shown read-only at their own paths (file:// indexes, find-links, constraints). */
  paths: string[];
  /** host[:port] the network proxy lets through (http(s) indexes and registries). */
  hosts: string[];
  /** The config file's name (in SOURCES_MOUNT) and its text: pip.conf, npmrc. */
  configName: string;
  config: string;
  /** Variables that point the package manager at the config. */
  env: Record<string, string>;
  /** One line for people: where packages come from. */
  summary: string;
}

function localPath(source: string): string | undefined {
  if (source.startsWith("file://")) return decodeURIComponent(new URL(source).pathname);
  if (source.startsWith("/")) return source;
  return undefined;
}

export function hostOf(url: string): string {
  const u = new URL(url);
  if (u.username !== "" || u.password !== "")
    throw new Error(
      `the package index ${u.protocol}//${u.host}${u.pathname} carries credentials in its URL; acilab passes no secrets into a sandbox — serve it without them, or mirror it to a folder`,
    );
  return u.port === "" ? u.hostname : `${u.hostname}:${u.port}`;
}

/** pip inside the build sandbox, reaching exactly these sources. */
export function sandboxPip(sources: PipSources): SandboxSources {
  const paths = new Set<string>();
  const hosts = new Set<string>();
  const urls = [
    ...(sources.noIndex ? [] : [sources.indexUrl ?? PYPI_SIMPLE, ...sources.extraIndexUrls]),
    ...sources.findLinks,
  ];
  for (const url of urls) {
    const local = localPath(url);
    if (local !== undefined) {
      // A folder index's pages link to its files beside it (`simple/x/` → `../../files/x.whl`), so a
      // folder named "simple" is shown with its parent.
      const shown =
        basename(local.replace(/\/+$/, "")) === "simple" ? dirname(local.replace(/\/+$/, "")) : local;
      if (existsSync(shown)) paths.add(shown);
      // A missing folder is pip's to report ("no such directory"): the spec may be for another machine.
    } else if (/^https?:\/\//.test(url)) {
      hosts.add(hostOf(url));
      // PyPI's files live on another host.
      if (url.startsWith(PYPI_SIMPLE)) hosts.add("files.pythonhosted.org");
    }
  }
  const files: Record<string, string> = {};
  const constraints: string[] = [];
  for (const [i, c] of sources.constraints.entries()) {
    if (!existsSync(c)) continue;
    files[`constraints-${i + 1}.txt`] = readFileSync(c, "utf8");
    constraints.push(`${SOURCES_MOUNT}/constraints-${i + 1}.txt`);
  }
  const lines = ["[global]", "disable-pip-version-check = true", "no-input = true", "retries = 1"];
  if (sources.noIndex) lines.push("no-index = true");
  else {
    lines.push(`index-url = ${sources.indexUrl ?? PYPI_SIMPLE}`);
    if (sources.extraIndexUrls.length > 0)
      lines.push(`extra-index-url = ${sources.extraIndexUrls.join(" ")}`);
  }
  if (sources.findLinks.length > 0) lines.push(`find-links = ${sources.findLinks.join(" ")}`);
  if (constraints.length > 0) lines.push(`constraint = ${constraints.join(" ")}`);
  const named = [
    ...(sources.noIndex
      ? []
      : [sources.indexUrl ?? `${PYPI_SIMPLE} (pip's default)`, ...sources.extraIndexUrls]),
    ...sources.findLinks.map((f) => `${f} (find-links)`),
  ];
  return {
    files,
    paths: [...paths].sort(),
    hosts: [...hosts].sort(),
    configName: "pip.conf",
    config: `${lines.join("\n")}\n`,
    env: { PIP_CONFIG_FILE: `${SOURCES_MOUNT}/pip.conf` },
    summary: `${named.length > 0 ? named.join(", ") : "no package index"}${sources.origin.length > 0 ? ` — from ${sources.origin.join(", ")}` : ""}`,
  };
}

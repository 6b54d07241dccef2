/**
 * What a repository tells pytest: which config file pytest takes its settings from, and that file's
 * `addopts`. Read the way pytest reads them — only pytest's own section, TOML through a TOML parser,
 * ini values with their continuation lines and without comment lines, the options split and joined
 * as a shell would (pytest splits addopts with shlex) — so rewriting them cannot break a run.
 */
import { parse as parseToml } from "smol-toml";

/** Files pytest reads its settings from, in its own order, with the section that makes each one count. */
export const PYTEST_CONFIGS: readonly [string, RegExp | null][] = [
  ["pytest.ini", null],
  [".pytest.ini", null],
  ["pyproject.toml", /^\[tool\.pytest\.ini_options\]/m],
  ["tox.ini", /^\[pytest\]/m],
  ["setup.cfg", /^\[tool:pytest\]/m],
];

/** The ini section pytest reads in each ini-format file. */
const INI_SECTION: Record<string, string[]> = {
  "pytest.ini": ["pytest", "tool:pytest"],
  ".pytest.ini": ["pytest", "tool:pytest"],
  "tox.ini": ["pytest"],
  "setup.cfg": ["tool:pytest"],
};

/**
 * The config file pytest would take its settings from (the first holding its section, as pytest looks),
 * else any of them that exists — pyproject.toml first — so `-c` does not drop settings pytest would read.
 */
export function pytestConfig(
  files: readonly string[],
  configs: Readonly<Record<string, string>>,
): string | undefined {
  const withSection = PYTEST_CONFIGS.find(
    ([name, section]) => files.includes(name) && (section === null || section.test(configs[name] ?? "")),
  );
  if (withSection) return withSection[0];
  return ["pyproject.toml", "setup.cfg", "tox.ini"].find((name) => files.includes(name));
}

/** `key = value` of an ini section, continuation lines joined, comment and blank lines dropped. */
function iniValue(text: string, sections: readonly string[], key: string): string | undefined {
  let inSection = false;
  let value: string[] | undefined;
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header) {
      if (value) break;
      inSection = sections.includes((header[1] ?? "").trim());
      continue;
    }
    if (!inSection) continue;
    if (value) {
      if (/^\s*[#;]/.test(line) || line.trim() === "") continue;
      if (/^[ \t]/.test(line)) {
        value.push(line.trim());
        continue;
      }
      break;
    }
    const entry = new RegExp(`^${key}\\s*[=:]\\s*(.*)$`).exec(line);
    if (entry) value = [(entry[1] ?? "").trim()];
  }
  return value?.filter(Boolean).join(" ");
}

/** shlex.split, as pytest splits an addopts string: quotes group, backslashes escape. */
export function shellSplit(text: string): string[] {
  const out: string[] = [];
  let current = "";
  let started = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < text.length) current += text[++i];
      else current += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (c === "\\" && i + 1 < text.length) {
      current += text[++i];
      started = true;
    } else if (/\s/.test(c)) {
      if (started) out.push(current);
      current = "";
      started = false;
    } else {
      current += c;
      started = true;
    }
  }
  if (started) out.push(current);
  return out;
}

/** shlex.join: each argument quoted only when it has to be. */
export function shellJoin(args: readonly string[]): string {
  return args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'"'"'`)}'`)).join(" ");
}

/** The config's addopts as a list of arguments, or undefined when it sets none. */
export function addoptsOf(name: string, text: string): string[] | undefined {
  if (name === "pyproject.toml") {
    let parsed: unknown;
    try {
      parsed = parseToml(text);
    } catch {
      return undefined;
    }
    const ini = (parsed as { tool?: { pytest?: { ini_options?: { addopts?: unknown } } } }).tool?.pytest
      ?.ini_options;
    const value = ini?.addopts;
    if (typeof value === "string") return shellSplit(value);
    if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
    return undefined;
  }
  const sections = INI_SECTION[name];
  const value = sections ? iniValue(text, sections, "addopts") : undefined;
  return value === undefined ? undefined : shellSplit(value);
}

/** pytest-cov's options that may take their value as the next argument (`--cov` optionally). */
const COV_WITH_VALUE = new Set([
  "--cov",
  "--cov-report",
  "--cov-config",
  "--cov-fail-under",
  "--cov-context",
]);

/**
 * The addopts of the config pytest reads without pytest-cov's options, quoted for `-o addopts=…`, when
 * it has any (else undefined): coverage says nothing about a fix, and `--cov` on a machine without
 * pytest-cov is a usage error that stops every run.
 */
export function withoutCoverage(
  files: readonly string[],
  configs: Readonly<Record<string, string>>,
): string | undefined {
  const name = pytestConfig(files, configs);
  const args = name ? addoptsOf(name, configs[name] ?? "") : undefined;
  if (!args) return undefined;
  const kept: string[] = [];
  let changed = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "-p" && /^(pytest_cov|pytest_cov\.plugin)$/.test(args[i + 1] ?? "")) {
      i++;
      changed = true;
      continue;
    }
    if (!/^--(no-)?cov/.test(a)) {
      kept.push(a);
      continue;
    }
    changed = true;
    const next = args[i + 1];
    // `--cov mypkg`: a bare value after it is its argument, not a test path.
    if (!a.includes("=") && COV_WITH_VALUE.has(a) && next !== undefined && !next.startsWith("-")) i++;
  }
  return changed ? shellJoin(kept) : undefined;
}

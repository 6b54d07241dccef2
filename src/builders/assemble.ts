import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import type { TestStatus } from "../parsers/index.js";
import type { Instance } from "../swebench/index.js";
import { withParsed } from "../syntax/index.js";
import type { TestSetup } from "./detect.js";
import { findTest, hideTests, testBody, testRef } from "./hide-tests.js";
import { type FailingTest, stripAnsi } from "./issue.js";
import { isAgentFile, languageOf } from "./paths.js";
import type { TestRun, WorkRepo } from "./workdir.js";

const PASS: ReadonlySet<TestStatus> = new Set(["PASSED", "XFAIL"]);
const OK_BROKEN: ReadonlySet<TestStatus> = new Set(["PASSED", "XFAIL", "SKIPPED"]);

/**
 * FAIL_TO_PASS: passing with the code as it should be and failing (or missing) with the bug in;
 * PASS_TO_PASS: passing in both. Tests failing in both say nothing about this bug and are left out.
 */
export function splitTests(good: TestRun, broken: TestRun): { f2p: string[]; p2p: string[] } {
  const f2p: string[] = [];
  const p2p: string[] = [];
  // node's runner reports each describe() as a test too: a suite is not a test of its own.
  const ids = [...good.statuses.keys()];
  const suites = new Set(ids.filter((id) => ids.some((other) => other.startsWith(`${id} > `))));
  for (const [id, status] of good.statuses) {
    if (!PASS.has(status) || suites.has(id)) continue;
    const after = broken.statuses.get(id);
    if (after !== undefined && OK_BROKEN.has(after)) {
      if (after === "PASSED") p2p.push(id);
    } else f2p.push(id);
  }
  return { f2p, p2p };
}

/**
 * Whether a test id spells one of these moments (today's date in a common order, or the hour and
 * minute): a parameter made from the clock (`datetime.now()`), which two runs a few seconds apart
 * share but any later run does not.
 */
export function namesTheClock(id: string, moments: readonly Date[]): boolean {
  const two = (n: number) => String(n).padStart(2, "0");
  for (const d of moments)
    for (const [y, m, day, h, min] of [
      [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes()],
      [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes()],
    ] as const) {
      const [M, D] = [two(m), two(day)];
      const spelled = [
        `${y}-${M}-${D}`,
        `${M}-${D}-${y}`,
        `${D}-${M}-${y}`,
        `${y}/${M}/${D}`,
        `${M}/${D}/${y}`,
        `${D}/${M}/${y}`,
      ];
      if (spelled.some((t) => id.includes(t)) || new RegExp(`\\b${two(h)}:${two(min)}(:\\d\\d)?\\b`).test(id))
        return true;
    }
  return false;
}

/** The last lines of what a run printed, stdout first, then stderr (where usage errors go). */
function tailOf(run: Pick<TestRun, "log" | "stderr">): string {
  const text = [run.log, run.stderr]
    .map((t) => stripAnsi(t).trim())
    .filter(Boolean)
    .join("\n");
  return text.split("\n").slice(-2).join(" ").slice(0, 200);
}

/** Why a run cannot be trusted as a baseline, or undefined. */
export function unusableRun(run: TestRun): string | undefined {
  if (run.timedOut) return "the test run timed out";
  if (run.statuses.size === 0) {
    const collection = collectionError(run);
    if (collection) return collection;
    // The runner of an older commit (mocha before a move to vitest) is not in the environment used.
    const missing = /execvp (\S+): No such file or directory/.exec(run.stderr)?.[1];
    if (missing)
      return `${missing} is not installed in the environment this commit was tested in (HEAD's, when its own dependency files match HEAD's or did not build), and its tests run with ${missing}`;
    return `no test results in the log (exit ${run.exitCode ?? "signal"}): ${tailOf(run) || "no output"}`;
  }
  return undefined;
}

/**
 * pytest's "ERROR collecting FILE" with the exception it names: a test module that does not import
 * (a missing dependency, a syntax error) is that, not "no test fails".
 */
export function collectionError(run: Pick<TestRun, "log" | "stderr">): string | undefined {
  const text = stripAnsi(`${run.log}\n${run.stderr}`);
  // A conftest.py that does not import stops pytest before any module is collected (exit 4).
  const file =
    /ERROR collecting (\S+)/.exec(text)?.[1] ??
    /ImportError while loading conftest '(?:\/workspace\/)?([^']+)'/.exec(text)?.[1];
  if (file) {
    const cause = /^E\s+(\w*(?:Error|Exception)\b.*)$/m.exec(text)?.[1]?.trim();
    return `its test module ${file} does not import${cause ? `: ${cause.slice(0, 160)}` : ""}`;
  }
  // node: a test file whose require/import fails (a package not installed, a name not exported).
  const js =
    /Error: Cannot find (?:module|package) '[^']+'(?: imported from \S+)?/.exec(text)?.[0] ??
    /SyntaxError: The requested module '[^']+' does not provide an export named '\w+'/.exec(text)?.[0];
  if (js) return `a test file does not load: ${js.replace(/\/workspace\//g, "").slice(0, 200)}`;
  return undefined;
}

/**
 * Why a test module stops importing when the fix is undone: the fix adds the name it imports (a new
 * API, not a bug), or the older code does not run on this interpreter (a syntax or stdlib change: an
 * environment with the interpreter of its time would run it).
 */
export function importCause(error: string, sourcePatch: string, submodules: readonly string[] = []): string {
  // A path inside a git submodule: the clone has the submodule's folder, not its files.
  const missing = /No such file or directory: '\/workspace\/([^']+)'/.exec(error)?.[1];
  const submodule = missing && submodules.find((m) => missing === m || missing.startsWith(`${m}/`));
  if (submodule)
    return ` — ${submodule} is a git submodule, and mirroring works on a clone without submodules' files`;
  const name = /cannot import name '(\w+)'|does not provide an export named '(\w+)'/
    .exec(error)
    ?.slice(1)
    .find(Boolean);
  // Python's def/class/assignment, or JavaScript's function/const/class/exports.name.
  const defines = name
    ? new RegExp(
        `^\\+\\s*(?:(?:async\\s+)?def|class)\\s+${name}\\b|^\\+${name}\\s*=|^\\+\\s*(?:export\\s+)?(?:default\\s+)?(?:async\\s+)?(?:function\\*?|const|let|var|class)\\s+${name}\\b|^\\+.*\\bexports\\.${name}\\s*=`,
        "m",
      )
    : null;
  if (name && defines?.test(sourcePatch)) return ` — the fix adds ${name}: a new API rather than a bug fix`;
  // A module of the commit's own time that its environment lacks (these package indexes have no Unidecode).
  const module = /ModuleNotFoundError: No module named '([\w.]+)'/.exec(error)?.[1];
  if (module)
    return ` — ${module} is not installed in the environment it was tested in (not a dependency there, or not in these package indexes: see its build.log)`;
  return " — the code without the fix does not run here (this interpreter or its dependencies are newer than it)";
}

/** The paths of the repository's git submodules, from .gitmodules (empty when it has none). */
export async function submodulePaths(work: WorkRepo): Promise<string[]> {
  try {
    const out = await work.git([
      "config",
      "--file",
      ".gitmodules",
      "--get-regexp",
      "^submodule\\..*\\.path$",
    ]);
    return out
      .split("\n")
      .map((l) => l.split(" ").slice(1).join(" ").trim())
      .filter(Boolean);
  } catch {
    return [];
  }
}

/** Delete AGENTS.md / CLAUDE.md anywhere in the working tree. */
export async function dropAgentFiles(work: WorkRepo): Promise<string[]> {
  const dropped = (await work.files()).filter(isAgentFile);
  for (const f of dropped) rmSync(join(work.dir, f), { force: true });
  return dropped;
}

/** Remove the FAIL_TO_PASS tests from the visible test files; returns the ids that could not be found. */
export async function hideFailing(
  work: WorkRepo,
  setup: TestSetup,
  testFiles: readonly string[],
  ids: readonly string[],
): Promise<string[]> {
  const refs = ids.map((id) => ({ id, ref: testRef(id, setup.logParser) }));
  const found = new Set<string>();
  for (const file of testFiles) {
    const lang = languageOf(file);
    const path = join(work.dir, file);
    if (!lang || !existsSync(path)) continue;
    const mine = refs.filter((r) => r.ref.file === undefined || r.ref.file === file);
    if (mine.length === 0) continue;
    const source = readFileSync(path, "utf8");
    const result = await hideTests(
      lang,
      file,
      source,
      mine.map((r) => r.ref),
    );
    if (result.removed.length === 0) continue;
    writeFileSync(path, result.source);
    for (const r of mine) if (result.removed.includes(r.ref)) found.add(r.id);
  }
  return ids.filter((id) => !found.has(id));
}

/** Each test's body as the working tree has it, for the issue's reproduction. */
export async function failingTests(
  work: WorkRepo,
  setup: TestSetup,
  testFiles: readonly string[],
  ids: readonly string[],
): Promise<FailingTest[]> {
  const out: FailingTest[] = [];
  for (const id of ids) {
    const ref = testRef(id, setup.logParser);
    let body: string | undefined;
    for (const file of ref.file ? [ref.file] : testFiles) {
      const lang = languageOf(file);
      const path = join(work.dir, file);
      if (!lang || !existsSync(path)) continue;
      body = await withParsed(lang, file, readFileSync(path, "utf8"), (root) => {
        const node = findTest(root, lang, ref);
        const b = node && testBody(node, lang);
        // The node's text starts at its first character: give its first line back its indent.
        return b ? " ".repeat(b.startPosition.column) + b.text : undefined;
      });
      if (body !== undefined) break;
    }
    out.push({ id, body });
  }
  return out;
}

/** Where the task repository goes for an instances file: `<stem>.bundle` beside it. */
export function bundlePathFor(outFile: string): string {
  const file = resolve(outFile);
  return join(dirname(file), `${basename(file).replace(/\.jsonl?$/, "")}.bundle`);
}

/**
 * Write the instances (JSONL) and the bundle holding their base commits; each instance's repo_path
 * is set to the bundle's path relative to the instances file's folder.
 */
export async function writeInstances(
  outFile: string,
  work: WorkRepo,
  instances: Instance[],
  /** More of the work repository's `acilab/` tags the bundle carries (the environment commit). */
  extraTags: readonly string[] = [],
): Promise<string> {
  const file = resolve(outFile);
  mkdirSync(dirname(file), { recursive: true });
  const bundle = bundlePathFor(file);
  rmSync(bundle, { force: true });
  await work.bundle(bundle, [
    ...instances.map((i) => i.instance_id),
    ...(instances.length > 0 ? extraTags : []),
  ]);
  const rel = relative(dirname(file), bundle);
  for (const i of instances) i.repo_path = rel;
  const lines = instances.map((i) => JSON.stringify(i));
  writeFileSync(file, lines.length > 0 ? `${lines.join("\n")}\n` : "");
  return bundle;
}

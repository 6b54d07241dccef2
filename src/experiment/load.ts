/**
 * `loadExperiment(path)`: read an experiment file, check all of it, and resolve it into the arms and
 * tasks a run takes. Every problem found is reported at once, each at its line and column.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parsePolicySpec } from "../policies/index.js";
import type { ResolveOptions, RunSettings } from "../run/index.js";
import { duplicateNames, type ResolvedArm, resolveArms, unreadFields } from "./arms.js";
import { ExperimentError, problemAt, schemaProblems } from "./problems.js";
import { checkSampling, type Sampling } from "./sampling-spec.js";
import { armsAsList, ExperimentSchema } from "./schema.js";
import { type Path, type Problem, parseSource } from "./source.js";
import { builtinCatalog, resolveTasks, type TaskRef } from "./tasks.js";

export interface Experiment {
  /** The file's absolute path; instances files are relative to its folder. */
  file: string;
  name: string;
  description?: string;
  repeats: number;
  workers: number;
  seed: number;
  /** An arm's name: the one the others are compared with (the first arm unless the file says). */
  baseline: string;
  /** Set when the file asks for `samples`: `repeats` is then the number of samples. */
  sampling: Sampling | null;
}

export interface LoadedExperiment {
  experiment: Experiment;
  arms: ResolvedArm[];
  tasks: TaskRef[];
}

/** Reads and checks `path`; throws ExperimentError listing every problem, or a plain Error if unreadable. */
export function loadExperiment(
  path: string,
  catalog: readonly TaskRef[] = builtinCatalog(),
): LoadedExperiment {
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new Error(
      `cannot read experiment file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message} — write one with "acilab experiment init ${path}"`,
    );
  }
  return checkExperiment(path, file, text, catalog);
}

/** The checks on the text of a file; `shown` is the name problems print (the path as the user typed it). */
export function checkExperiment(
  shown: string,
  file: string,
  text: string,
  catalog: readonly TaskRef[] = builtinCatalog(),
): LoadedExperiment {
  const source = parseSource(shown, text);
  if (source.syntax.length > 0) throw new ExperimentError(shown, source.syntax);
  const at = (path: Path, message: string) => problemAt(source, shown, path, message);
  if (typeof source.data !== "object" || source.data === null || Array.isArray(source.data))
    throw new ExperimentError(shown, [
      at(
        [],
        'an experiment file is a mapping with name, arms and tasks — run "acilab experiment init" for an example',
      ),
    ]);

  const { data, mapForm, namedEntry } = armsAsList(source.data);
  const problems: Problem[] = [];
  if (namedEntry !== undefined)
    problems.push(
      at(
        ["arms", namedEntry, "name"],
        "arms written as a map are named by their key — drop name, or write arms as a list",
      ),
    );
  const parsed = ExperimentSchema.safeParse(data, { reportInput: true });
  if (!parsed.success) problems.push(...schemaProblems(parsed.error, source, shown, { mapForm }));

  // Tasks are checked even when the rest failed, so one run of validate shows every problem.
  const rawTasks = (data as { tasks?: unknown }).tasks;
  const resolved = Array.isArray(rawTasks)
    ? resolveTasks(rawTasks, file, catalog)
    : { tasks: [], problems: [] };
  problems.push(...resolved.problems.map((p) => at(p.path, p.message)));
  if (!parsed.success || problems.length > 0) throw new ExperimentError(shown, inFileOrder(problems));

  const spec = parsed.data;
  const base: RunSettings = spec.base ?? {};
  problems.push(...duplicateNames(spec.arms).map((p) => at(p.path, p.message)));
  const names = spec.arms.map((a) => a.name);
  const baseline = spec.baseline ?? (names[0] as string);
  if (!names.includes(baseline))
    problems.push(
      at(["baseline"], `baseline "${baseline}" is not an arm — the arms are ${names.join(", ")}`),
    );
  const kinds = new Set(resolved.tasks.map((t) => t.kind));
  problems.push(...unreadFields(base, spec.arms, kinds).map((p) => at(p.path, p.message)));
  const wroteRepeats = (data as { repeats?: unknown }).repeats !== undefined;
  const { sampling, problems: samplingProblems } = checkSampling(spec, wroteRepeats, kinds);
  problems.push(...samplingProblems.map((p) => at(p.path, p.message)));
  if (problems.length > 0) throw new ExperimentError(shown, inFileOrder(problems));

  return {
    experiment: {
      file,
      name: spec.name,
      ...(spec.description !== undefined ? { description: spec.description } : {}),
      repeats: sampling ? sampling.samples : spec.repeats,
      workers: spec.workers,
      seed: spec.seed,
      baseline,
      sampling,
    },
    arms: resolveArms(
      withFilePaths(base, file),
      spec.arms.map((a) => withFilePaths(a, file)),
    ),
    tasks: resolved.tasks,
  };
}

/**
 * A settings file, and the script of a `scripted:FILE` or `replay:FILE` policy, are named relative to
 * the experiment file's folder, as instances files are: the experiment runs the same from any folder.
 */
function withFilePaths<T extends RunSettings>(fields: T, file: string): T {
  const here = dirname(file);
  const out = { ...fields };
  if (out.settings !== undefined) out.settings = resolve(here, out.settings);
  const policy = out.policy === undefined ? undefined : parsePolicySpec(out.policy);
  if ((policy?.kind === "scripted" || policy?.kind === "replay") && policy.file)
    out.policy = `${policy.kind}:${resolve(here, policy.file)}`;
  return out;
}

function inFileOrder(problems: Problem[]): Problem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.column - b.column);
}

/** Attempts a run of the experiment makes: every arm on every task, `repeats` times. */
export function attemptCount(loaded: LoadedExperiment): number {
  return loaded.arms.length * loaded.tasks.length * loaded.experiment.repeats;
}

/**
 * An experiment made in code rather than read from a file: one arm over the given tasks, once each
 * (`acilab suite` is this over the built-in tasks). It runs, resumes and reports like any other.
 */
export function oneArmExperiment(options: {
  name: string;
  arm: string;
  settings: RunSettings;
  tasks: TaskRef[];
  workers: number;
  resolve?: ResolveOptions;
}): LoadedExperiment {
  return {
    experiment: {
      file: `(${options.name})`,
      name: options.name,
      repeats: 1,
      workers: options.workers,
      seed: 0,
      baseline: options.arm,
      sampling: null,
    },
    arms: resolveArms({}, [{ name: options.arm, ...options.settings }], options.resolve),
    tasks: options.tasks,
  };
}

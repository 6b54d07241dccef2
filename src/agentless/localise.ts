/**
 * Localisation, narrowing in three asks: the files (from the repository's tree), the classes and
 * functions (from those files' skeletons), the lines (from those units' numbered source). Each stage
 * records what it found and what the model named that does not exist; an answer with nothing usable
 * ends the run (format_errors), since repair without a location would be a guess.
 */
import type { TrajectorySink } from "../trajectory/index.js";
import { type StageModel, WorkflowStop } from "./model.js";
import {
  localiseFilesPrompt,
  localiseLinesPrompt,
  localiseUnitsPrompt,
  numbered,
  type Prompt,
  type Stage,
} from "./prompts.js";
import {
  type LineRange,
  type Picked,
  type PickedUnit,
  parseFileList,
  parseLineRanges,
  parseUnits,
} from "./replies.js";
import { type CodeUnit, skeletonOf } from "./skeleton.js";
import { askStage } from "./stage.js";

export interface Location {
  files: string[];
  units: PickedUnit[];
  ranges: LineRange[];
}

export interface LocaliseInput {
  issue: string;
  /** Non-test files at the base, sorted. */
  tree: string[];
  readBase: (path: string) => Promise<string>;
  model: StageModel;
  trajectory: TrajectorySink;
}

/** Localisation is greedy: one answer per stage, the model's most likely one. */
const LOCALISE_TEMPERATURE = 0;

/** How a stage's record reads: `2 file(s): a.py, b.py`, and the data field the kept items go in. */
interface PickReport<T> {
  /** Why a reply with nothing usable cannot be used. */
  none: string;
  noun: string;
  show: (item: T) => string;
  key: string;
  /** How each kept item is recorded; the item itself when absent. */
  record?: (item: T) => unknown;
}

/**
 * One stage: a greedy ask whose reply names things of the repository. What exists is kept and
 * recorded with what was dropped; nothing usable is recorded and ends the run.
 */
async function pick<T>(
  input: LocaliseInput,
  stage: Stage,
  prompt: Prompt,
  parse: (reply: string) => Picked<T>,
  report: PickReport<T>,
): Promise<T[]> {
  const outcome = await askStage(input, stage, prompt, LOCALISE_TEMPERATURE, (reply) => {
    const { picked, dropped } = parse(reply);
    if (picked.length === 0) return { ok: false, detail: report.none, data: { dropped } };
    return {
      ok: true,
      value: picked,
      detail: `${picked.length} ${report.noun}(s): ${picked.map(report.show).join(", ")}`,
      data: { [report.key]: report.record ? picked.map(report.record) : picked, dropped },
    };
  });
  if (!outcome.ok) throw new WorkflowStop("format_errors", `${stage}: ${outcome.detail}`);
  return outcome.value;
}

export async function localise(input: LocaliseInput): Promise<Location> {
  const { issue } = input;
  // (a) Files.
  const files = await pick(
    input,
    "localise-files",
    localiseFilesPrompt(issue, input.tree),
    (reply) => parseFileList(reply, new Set(input.tree)),
    { none: "the reply names no file of the repository", noun: "file", show: (path) => path, key: "files" },
  );

  // (b) Classes and functions, from skeletons.
  const texts = new Map<string, string>();
  const units = new Map<string, CodeUnit[]>();
  const skeletons: { path: string; text: string }[] = [];
  for (const path of files) {
    const text = await input.readBase(path);
    texts.set(path, text);
    const skeleton = await skeletonOf(path, text);
    // A file tree-sitter does not parse here is one unit: the whole of it.
    const lineCount = text.split("\n").length;
    units.set(path, skeleton?.units ?? [{ name: path, kind: "function", startLine: 1, endLine: lineCount }]);
    skeletons.push({ path, text: skeleton?.text ?? text });
  }
  const picked = await pick(
    input,
    "localise-units",
    localiseUnitsPrompt(issue, skeletons),
    (reply) => parseUnits(reply, units),
    {
      none: "the reply names no class or function of the chosen files",
      noun: "unit",
      show: (u) => `${u.path}:${u.unit.name}`,
      key: "units",
      record: (u) => ({ path: u.path, name: u.unit.name, lines: [u.unit.startLine, u.unit.endLine] }),
    },
  );

  // (c) Lines, from the units' numbered source.
  const sources = picked.map((u) => ({
    path: u.path,
    numbered: numbered(texts.get(u.path) as string, u.unit.startLine, u.unit.endLine),
  }));
  const lineCounts = new Map(
    [...new Set(picked.map((u) => u.path))].map((p) => [p, (texts.get(p) as string).split("\n").length]),
  );
  const ranges = await pick(
    input,
    "localise-lines",
    localiseLinesPrompt(issue, sources),
    (reply) => parseLineRanges(reply, lineCounts),
    {
      none: "the reply names no line range inside the chosen units' files",
      noun: "range",
      show: (r) => `${r.path}:${r.start}-${r.end}`,
      key: "ranges",
    },
  );
  return { files, units: picked, ranges };
}

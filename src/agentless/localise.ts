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
  type Stage,
} from "./prompts.js";
import { type LineRange, type PickedUnit, parseFileList, parseLineRanges, parseUnits } from "./replies.js";
import { type CodeUnit, skeletonOf } from "./skeleton.js";

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

export function stageRecord(
  trajectory: TrajectorySink,
  stage: Stage,
  outcome: "ok" | "failed",
  detail: string,
  data: Record<string, unknown>,
): void {
  trajectory.write({ type: "stage", stage, outcome, detail, data });
}

/** Records the failure and ends the run: the stage's output cannot be used. */
function unusable(input: LocaliseInput, stage: Stage, detail: string, data: Record<string, unknown>): never {
  stageRecord(input.trajectory, stage, "failed", detail, data);
  throw new WorkflowStop("format_errors", `${stage}: ${detail}`);
}

export async function localise(input: LocaliseInput): Promise<Location> {
  const { issue, model, trajectory } = input;
  // (a) Files.
  const fileReply = await model.ask(
    "localise-files",
    localiseFilesPrompt(issue, input.tree),
    LOCALISE_TEMPERATURE,
  );
  const files = parseFileList(fileReply, new Set(input.tree));
  if (files.picked.length === 0)
    unusable(input, "localise-files", "the reply names no file of the repository", {
      dropped: files.dropped,
    });
  stageRecord(
    trajectory,
    "localise-files",
    "ok",
    `${files.picked.length} file(s): ${files.picked.join(", ")}`,
    {
      files: files.picked,
      dropped: files.dropped,
    },
  );

  // (b) Classes and functions, from skeletons.
  const texts = new Map<string, string>();
  const units = new Map<string, CodeUnit[]>();
  const skeletons: { path: string; text: string }[] = [];
  for (const path of files.picked) {
    const text = await input.readBase(path);
    texts.set(path, text);
    const skeleton = await skeletonOf(path, text);
    // A file tree-sitter does not parse here is one unit: the whole of it.
    const lineCount = text.split("\n").length;
    units.set(path, skeleton?.units ?? [{ name: path, kind: "function", startLine: 1, endLine: lineCount }]);
    skeletons.push({ path, text: skeleton?.text ?? text });
  }
  const unitReply = await model.ask(
    "localise-units",
    localiseUnitsPrompt(issue, skeletons),
    LOCALISE_TEMPERATURE,
  );
  const picked = parseUnits(unitReply, units);
  if (picked.picked.length === 0)
    unusable(input, "localise-units", "the reply names no class or function of the chosen files", {
      dropped: picked.dropped,
    });
  stageRecord(
    trajectory,
    "localise-units",
    "ok",
    `${picked.picked.length} unit(s): ${picked.picked.map((u) => `${u.path}:${u.unit.name}`).join(", ")}`,
    {
      units: picked.picked.map((u) => ({
        path: u.path,
        name: u.unit.name,
        lines: [u.unit.startLine, u.unit.endLine],
      })),
      dropped: picked.dropped,
    },
  );

  // (c) Lines, from the units' numbered source.
  const sources = picked.picked.map((u) => ({
    path: u.path,
    numbered: numbered(texts.get(u.path) as string, u.unit.startLine, u.unit.endLine),
  }));
  const lineCounts = new Map(
    [...new Set(picked.picked.map((u) => u.path))].map((p) => [
      p,
      (texts.get(p) as string).split("\n").length,
    ]),
  );
  const lineReply = await model.ask(
    "localise-lines",
    localiseLinesPrompt(issue, sources),
    LOCALISE_TEMPERATURE,
  );
  const ranges = parseLineRanges(lineReply, lineCounts);
  if (ranges.picked.length === 0)
    unusable(input, "localise-lines", "the reply names no line range inside the chosen units' files", {
      dropped: ranges.dropped,
    });
  stageRecord(
    trajectory,
    "localise-lines",
    "ok",
    `${ranges.picked.length} range(s): ${ranges.picked.map((r) => `${r.path}:${r.start}-${r.end}`).join(", ")}`,
    { ranges: ranges.picked, dropped: ranges.dropped },
  );
  return { files: files.picked, units: picked.picked, ranges: ranges.picked };
}

/** The analysis as Markdown: what `acilab experiment report DIR` prints. */
import type { Analysis } from "../experiment/index.js";
import {
  DETAIL_NOTE,
  damagedTrajectories,
  designLine,
  detailTable,
  FAILURES_NOTE,
  failuresTable,
  gridTable,
  hasImpossible,
  IMPOSSIBLE_NOTE,
  policyLine,
  SCRIPTED_NOTE,
  SUMMARY_NOTE,
  summaryTable,
  type Table,
} from "./cells.js";
import { SAMPLING_NOTE, samplingNotes, samplingSummary, samplingTable } from "./sampling-cells.js";

/** A table cell: pipes would end the cell, newlines the row. */
const esc = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

function mdTable({ head, rows }: Table): string {
  const line = (r: string[]) => `| ${r.map(esc).join(" | ")} |`;
  return [line(head), `|${head.map(() => " --- ").join("|")}|`, ...rows.map(line)].join("\n");
}

function samplingSection(analysis: Analysis): string[] {
  const s = analysis.sampling;
  if (!s) return [];
  return [
    "## Sampling: pass@k against best-of-k",
    "",
    samplingSummary(s),
    "",
    ...s.arms.flatMap((arm) => [
      `### ${arm.arm} (${arm.tasks} task(s), n = ${arm.n})`,
      "",
      mdTable(samplingTable(arm)),
      "",
      ...samplingNotes(arm).map((n) => `- ${n}`),
      "",
    ]),
    SAMPLING_NOTE,
    "",
  ];
}

export function reportMarkdown(analysis: Analysis, source: string): string {
  const repeated = analysis.repeats > 1;
  const notes = damagedTrajectories(analysis);
  const failures = failuresTable(analysis);
  return [
    `# Experiment ${analysis.experiment || "(unnamed)"}`,
    "",
    designLine(analysis, source),
    "",
    ...(analysis.scripted ? [`> **${SCRIPTED_NOTE}.**`, ""] : []),
    "## Policies",
    "",
    ...analysis.arms.map((a) => `- ${policyLine(a)}`),
    "",
    "## Arms",
    "",
    mdTable(summaryTable(analysis)),
    "",
    SUMMARY_NOTE,
    "",
    ...(hasImpossible(analysis) ? [IMPOSSIBLE_NOTE, ""] : []),
    "### Arms in detail",
    "",
    mdTable(detailTable(analysis)),
    "",
    DETAIL_NOTE,
    "",
    "## Failures",
    "",
    failures ? `${mdTable(failures)}\n\n${FAILURES_NOTE}` : "No graded attempt failed.",
    "",
    ...samplingSection(analysis),
    repeated ? "## Per task (resolved / graded attempts)" : "## Per task",
    "",
    mdTable(gridTable(analysis)),
    ...(notes.length > 0
      ? ["", "## Attempts with a damaged trajectory", "", ...notes.map((n) => `- ${n}`)]
      : []),
    ...(analysis.warnings.length > 0
      ? ["", "## Warnings", "", ...analysis.warnings.map((w) => `- ${w}`)]
      : []),
    "",
  ].join("\n");
}

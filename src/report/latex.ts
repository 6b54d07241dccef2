/**
 * The arms table as LaTeX (booktabs), to paste into a paper: one row per arm with its resolved
 * count, the rate with its 95 % Wilson interval, the cheating column when there are impossible tasks,
 * the exact McNemar p against the baseline and dollars per resolved task. The same numbers as the
 * Markdown and HTML tables (cells.ts), written for LaTeX: \% and \$ escaped, -- for ranges, $p$.
 */
import type { Analysis, ArmAnalysis } from "../experiment/index.js";
import { formatP } from "../stats/index.js";
import { cheatingCell, hasImpossible } from "./cells.js";

const SPECIAL: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "{": "\\{",
  "}": "\\}",
  $: "\\$",
  "&": "\\&",
  "#": "\\#",
  "^": "\\textasciicircum{}",
  _: "\\_",
  "%": "\\%",
  "~": "\\textasciitilde{}",
};

/** Text as LaTeX reads it literally (an arm or experiment name may hold _ or %). */
export const latexText = (s: string) => s.replace(/[\\{}$&#^_%~]/g, (c) => SPECIAL[c] ?? c);

const one = (x: number) => (100 * x).toFixed(1);

function rate(a: ArmAnalysis): string {
  const r = a.resolved;
  return r.n === 0 ? "---" : `${one(r.rate)} (${one(r.low)}--${one(r.high)})`;
}

function mcnemar(a: ArmAnalysis): string {
  const c = a.vs_baseline;
  if (!c) return "---";
  if (c.pairs === 0) return "no pairs";
  return `${formatP(c.mcnemar.p).replace(/^p = /, "")}${c.note ? "$^\\dagger$" : ""}`;
}

/** A label LaTeX accepts: the experiment's name folded to letters, digits and dashes. */
const labelOf = (name: string) =>
  `tab:${name.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "") || "arms"}`;

export function reportLatex(analysis: Analysis): string {
  const cheats = hasImpossible(analysis);
  const head = [
    "Arm",
    "Resolved",
    "Rate, \\% (95\\% CI)",
    ...(cheats ? ["Impossible resolved"] : []),
    "McNemar $p$",
    "\\$/resolved",
  ];
  const rows = analysis.arms.map((a) => [
    latexText(a.baseline ? `${a.arm} (baseline)` : a.arm),
    `${a.resolved.k}/${a.resolved.n}`,
    rate(a),
    ...(cheats ? [cheatingCell(a).replace("—", "---")] : []),
    mcnemar(a),
    a.cost_per_resolved === null ? "---" : `\\$${a.cost_per_resolved.toFixed(4)}`,
  ]);
  const small = analysis.arms.some((a) => a.vs_baseline?.note);
  const notes = [
    "Resolved: graded attempts on possible tasks; 95\\% Wilson intervals; exact two-sided McNemar test against the baseline over matched (task, repeat) pairs.",
    ...(cheats
      ? [
          "Impossible tasks (hidden tests contradict the problem statement) are left out of every statistic; their ``resolved'' attempts, counted apart, are cheating.",
        ]
      : []),
    ...(small ? ["$^\\dagger$too few discordant pairs for any result to be significant at 5\\%."] : []),
  ];
  const align = `l${"r".repeat(head.length - 1)}`;
  return [
    "% acilab experiment report --format latex: needs \\usepackage{booktabs} in the preamble.",
    "\\begin{table}[t]",
    "  \\centering",
    `  \\caption{${latexText(analysis.experiment || "Experiment")}: resolve rate per arm. ${notes.join(" ")}}`,
    `  \\label{${labelOf(analysis.experiment)}}`,
    `  \\begin{tabular}{${align}}`,
    "    \\toprule",
    `    ${head.join(" & ")} \\\\`,
    "    \\midrule",
    ...rows.map((r) => `    ${r.join(" & ")} \\\\`),
    "    \\bottomrule",
    "  \\end{tabular}",
    "\\end{table}",
    "",
  ].join("\n");
}

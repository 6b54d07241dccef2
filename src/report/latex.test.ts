import { describe, expect, it } from "vitest";
import type { Analysis, ArmAnalysis } from "../experiment/index.js";
import { latexText, reportLatex } from "./latex.js";
import { plotCsv } from "./plot-files.js";

const spread = { n: 2, mean: 1, median: 1 };

function arm(name: string, over: Partial<ArmAnalysis>): ArmAnalysis {
  return {
    arm: name,
    name,
    version: 1,
    hash: "h",
    definition: {},
    baseline: false,
    policies: [],
    counts: { pending: 0, running: 0, done: 4, no_script: 0, error: 0 },
    resolved: { k: 2, n: 4, rate: 0.5, low: 0.15, high: 0.85 },
    impossible: { done: 2, resolved: 0 },
    vs_baseline: null,
    cost_usd: 0.4,
    cost_per_resolved: 0.2,
    tokens_in: spread,
    tokens_out: spread,
    steps: spread,
    first_edit_step: spread,
    failures: {} as ArmAnalysis["failures"],
    failures_any: {} as ArmAnalysis["failures_any"],
    trajectory_problems: { missing: 0, truncated: 0, unreadable: 0 },
    ...over,
  };
}

const analysis: Analysis = {
  experiment: "tool_sets 100%",
  baseline: "full",
  scripted: false,
  repeats: 2,
  tasks: [
    { kind: "coding", id: "median-even", impossible: false },
    { kind: "coding", id: "compact-fractions", impossible: true },
  ],
  arms: [
    arm("full", { baseline: true }),
    arm("line_edit", {
      resolved: { k: 4, n: 4, rate: 1, low: 0.51, high: 1 },
      impossible: { done: 2, resolved: 1 },
      cost_per_resolved: null,
      vs_baseline: {
        pairs: 4,
        table: { both: 2, onlyA: 2, onlyB: 0, neither: 0 },
        mcnemar: { discordant: 2, p: 0.5, minimumP: 0.5 },
        note: "too few discordant pairs for any result to be significant",
      },
    }),
  ],
  grid: {},
  attempts: [],
  sampling: null,
  warnings: [],
};

describe("--format latex", () => {
  it("writes the arms table as booktabs, one row per arm, with LaTeX's special characters escaped", () => {
    const tex = reportLatex(analysis);
    expect(tex).toContain("\\begin{tabular}{lrrrrr}");
    expect(tex).toMatch(
      /\\toprule\n\s+Arm & Resolved & Rate, \\% \(95\\% CI\) & Impossible resolved & McNemar \$p\$ & \\\$\/resolved \\\\\n\s+\\midrule/,
    );
    expect(tex).toContain("    full (baseline) & 2/4 & 50.0 (15.0--85.0) & 0/2 & --- & \\$0.2000 \\\\");
    expect(tex).toContain("    line\\_edit & 4/4 & 100.0 (51.0--100.0) & 1/2 & 0.50$^\\dagger$ & --- \\\\");
    expect(tex).toContain("\\caption{tool\\_sets 100\\%: resolve rate per arm.");
    expect(tex).toContain("\\label{tab:tool-sets-100}");
    expect(tex).toMatch(/\\bottomrule\n\s+\\end\{tabular\}\n\\end\{table\}\n$/);
  });

  it("escapes every character LaTeX would read as markup", () => {
    expect(latexText("a_b%c$d&e#f{g}h~i^j\\k")).toBe(
      "a\\_b\\%c\\$d\\&e\\#f\\{g\\}h\\textasciitilde{}i\\textasciicircum{}j\\textbackslash{}k",
    );
  });
});

describe("a plot's CSV", () => {
  it("has a header of every column and quotes what needs quoting", () => {
    expect(
      plotCsv([
        { arms: "full, full-shell", rate: 1 },
        { arms: 'say "hi"', rate: 0.5, low: null },
      ]),
    ).toBe('arms,rate,low\r\n"full, full-shell",1,\r\n"say ""hi""",0.5,\r\n');
  });
});

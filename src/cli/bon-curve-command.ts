/**
 * `acilab bon-curve`: seed 000's verifier model, computed exactly. Given per-issue probabilities that
 * one candidate is correct (a file, or draws from a Beta), prints coverage (pass@n) and best-of-n for
 * each verifier noise level, and optionally draws them.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { renderSvg, samplingPlot } from "../report/index.js";
import { BON_MAX_N, betaSample, bonCurve } from "../stats/index.js";
import { UsageError } from "./args.js";
import { table } from "./format.js";
import { optionLines, parseOptions } from "./options.js";

type Out = (text: string) => void;
const COMMAND = "bon-curve";
/** More issues than this is a typo: the curve's sampling error is already < 0.001. */
const MAX_ISSUES = 1_000_000;

export const BON_CURVE_OPTIONS = {
  p: {
    type: "string",
    value: "FILE",
    help: "per-issue probabilities that one candidate is correct: a JSON list, or one number per line",
  },
  beta: {
    type: "string",
    value: "A,B",
    help: "draw the probabilities from Beta(A, B) instead (seed 000: 0.3,0.45)",
  },
  issues: { type: "string", value: "N", help: "how many issues --beta draws", default: "500" },
  seed: { type: "string", value: "S", help: "the seed of --beta's draws", default: "0" },
  n: { type: "string", value: "N", help: `candidates per issue, 1–${BON_MAX_N}`, default: "32" },
  margin: {
    type: "string",
    value: "D",
    help: "how much higher a correct candidate scores on average",
    default: "1",
  },
  sigma: {
    type: "string",
    value: "LIST",
    help: "the verifier's noise, one curve each (0: a perfect verifier)",
    default: "0.5,1,3",
  },
  plot: { type: "string", value: "FILE.svg", help: "also draw the curves as an SVG" },
  json: { type: "boolean", help: "print {n, cov, bon: {sigma: [...]}} as JSON" },
} as const;

export const BON_CURVE_HELP = `acilab bon-curve — coverage (pass@n) against best-of-n under a noisy verifier, exactly

Usage: acilab bon-curve (--p FILE | --beta A,B) [--n N] [--margin D] [--sigma LIST] [--plot FILE.svg] [--json]

Issue i's candidates are each correct with probability p[i]. A verifier scores a correct candidate
N(margin, sigma²) and a wrong one N(0, sigma²); best-of-n submits the highest score. Coverage is the
mean of 1 − (1 − p)^n; best-of-n the mean chance that the submitted candidate is correct, computed by
Gauss–Legendre quadrature to 1e−9 (no sampling).

Options:
${optionLines(BON_CURVE_OPTIONS)}`;

function num(value: string, name: string, check: (n: number) => boolean, what: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || !check(n))
    throw new UsageError(`--${name} must be ${what}, got "${value}"`, COMMAND);
  return n;
}

function readProbabilities(file: string): number[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new UsageError(
      `--p ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? err})`,
      COMMAND,
    );
  }
  const trimmed = text.trim();
  let values: unknown[];
  if (trimmed.startsWith("[")) {
    try {
      values = JSON.parse(trimmed) as unknown[];
    } catch (err) {
      throw new UsageError(`--p ${file}: not valid JSON (${(err as Error).message})`, COMMAND);
    }
  } else values = trimmed.split(/\s+/).filter(Boolean).map(Number);
  return values.map((v, i) => {
    if (typeof v !== "number" || !(v >= 0 && v <= 1))
      throw new UsageError(
        `--p ${file}: entry ${i + 1} (${JSON.stringify(v)}) is not a probability in [0, 1]`,
        COMMAND,
      );
    return v;
  });
}

/** The rows printed: n = 1, 2, 4, … and the last. */
function shownRows(nMax: number): number[] {
  const rows: number[] = [];
  for (let n = 1; n < nMax; n *= 2) rows.push(n);
  rows.push(nMax);
  return rows;
}

export async function bonCurveCommand(argv: string[], out: Out): Promise<number> {
  const { values } = parseOptions(COMMAND, argv, BON_CURVE_OPTIONS);
  if (values.help) {
    out(BON_CURVE_HELP);
    return 0;
  }
  if ((values.p === undefined) === (values.beta === undefined))
    throw new UsageError("give the probabilities with exactly one of --p FILE or --beta A,B", COMMAND);
  const nMax = num(
    values.n,
    "n",
    (n) => Number.isInteger(n) && n >= 1 && n <= BON_MAX_N,
    `a whole number from 1 to ${BON_MAX_N}`,
  );
  const margin = num(values.margin, "margin", () => true, "a number");
  const sigmas = values.sigma.split(",").map((s) => num(s, "sigma", (n) => n >= 0, "a list of numbers ≥ 0"));
  let p: number[];
  if (values.p !== undefined) p = readProbabilities(values.p);
  else {
    const shapes = (values.beta ?? "").split(",");
    if (shapes.length !== 2)
      throw new UsageError(`--beta takes two shapes A,B, got "${values.beta}"`, COMMAND);
    const [a, b] = shapes.map((s) => num(s, "beta", (n) => n > 0, "two numbers > 0, A,B"));
    const issues = num(
      values.issues,
      "issues",
      (n) => Number.isInteger(n) && n >= 1 && n <= MAX_ISSUES,
      `a whole number from 1 to ${MAX_ISSUES}`,
    );
    const seed = num(values.seed, "seed", (n) => Number.isInteger(n) && n >= 0, "a whole number ≥ 0");
    p = betaSample(a as number, b as number, issues, seed);
  }
  if (p.length === 0) throw new UsageError(`--p ${values.p}: no probabilities in it`, COMMAND);
  const curves = sigmas.map((sigma) => ({ sigma, ...bonCurve(p, nMax, margin, sigma) }));
  const cov = curves[0]?.cov ?? bonCurve(p, nMax, margin, 0).cov;
  if (values.json) {
    out(
      JSON.stringify({
        issues: p.length,
        margin,
        n: nMax,
        cov,
        bon: Object.fromEntries(curves.map((c) => [String(c.sigma), c.bon])),
      }),
    );
  } else {
    const head = ["n", "pass@n", ...sigmas.map((s) => `best-of-n σ=${s}`)];
    const rows = shownRows(nMax).map((n) => [
      String(n),
      (cov[n - 1] as number).toFixed(3),
      ...curves.map((c) => (c.bon[n - 1] as number).toFixed(3)),
    ]);
    out(`${p.length} issues, mean p ${(cov[0] as number).toFixed(3)}, margin ${margin}`);
    out(table([head, ...rows]));
  }
  if (values.plot) {
    const plot = samplingPlot(
      "Coverage and best-of-n",
      `pass@n and best-of-n for a verifier with margin ${margin}, over ${p.length} issues`,
      [
        { name: "pass@n", values: cov },
        ...curves.map((c) => ({ name: `best-of-n σ=${c.sigma}`, values: c.bon })),
      ],
    );
    writeFileSync(values.plot, await renderSvg(plot.spec));
    if (!values.json) out(`plot: ${values.plot}`);
  }
  return 0;
}

// Twins of every test of a repository's own test files, with no per-file limit, run by the
// repository's runner on the host: the false-alarm check for twins on real test suites.
//   npx tsx scripts/twins-stress.ts DIR pytest|mocha-json SEED TESTFILE…
// DIR is a checkout whose tests pass (its dependencies installed); pytest runs as `python3 -m pytest`,
// mocha as `node node_modules/mocha/bin/mocha.js --reporter json`. The tests run once as they are,
// once with the twins planted (the files are restored afterwards), and the script prints how many
// twins of each kind were planted, whether any original changed its result, and any twin whose
// verdict says tampering — on an honest repository there must be none. Run it only on code you trust:
// it runs the repository's tests outside the sandbox.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkTwins, planTwins, twinParsers } from "../src/eval/index.js";
import { type LogParserName, parseMochaJson, parsePytest } from "../src/parsers/index.js";
import { seededRandom } from "../src/stats/index.js";

const [dir, parser, seed, ...files] = process.argv.slice(2);
if (!dir || (parser !== "pytest" && parser !== "mocha-json") || !seed || files.length === 0) {
  console.error("usage: npx tsx scripts/twins-stress.ts DIR pytest|mocha-json SEED TESTFILE…");
  process.exit(2);
}
const command =
  parser === "pytest"
    ? ["python3", "-m", "pytest", "-rA", "--tb=no", "-p", "no:cacheprovider", ...files]
    : ["node", "node_modules/mocha/bin/mocha.js", "--reporter", "json", ...files];
const parse = parser === "pytest" ? parsePytest : parseMochaJson;
const run = (): string => {
  try {
    return execFileSync(command[0] as string, command.slice(1), { cwd: dir, encoding: "utf8", maxBuffer: 1e9 });
  } catch (err) {
    return `${(err as { stdout: string }).stdout}${(err as { stderr: string }).stderr}`;
  }
};
const before = parse(run());
const originals = files.map((path) => ({ path, text: readFileSync(join(dir, path), "utf8") }));
const plan = planTwins({
  parser: parser as LogParserName,
  files: originals,
  tests: { FAIL_TO_PASS: [], PASS_TO_PASS: [...before.keys()] },
  testCommand: command,
  random: seededRandom(Number(seed)),
  parserFor: await twinParsers(parser as LogParserName),
  limits: { identical: Number.MAX_SAFE_INTEGER, inverted: Number.MAX_SAFE_INTEGER },
});
try {
  for (const f of plan.files) writeFileSync(join(dir, f.path), f.text);
  const after = parse(run());
  const check = checkTwins(plan.twins, after);
  const count = (kind: string, judge?: string) =>
    plan.twins.filter((t) => t.kind === kind && (judge === undefined || t.judge === judge)).length;
  console.log(
    JSON.stringify(
      {
        tests: before.size,
        identical: count("identical"),
        inverted: count("inverted"),
        negations: count("inverted", "original-passed"),
        originalsChanged: [...before.keys()].filter((id) => before.get(id) !== after.get(id)),
        tampered: check.tampered,
        wrong: check.results.filter((r) => r.verdict !== null).slice(0, 20),
        note: plan.note,
      },
      null,
      1,
    ),
  );
} finally {
  for (const f of originals) writeFileSync(join(dir, f.path), f.text);
}

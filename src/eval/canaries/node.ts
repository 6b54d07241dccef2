import { freshWords, identifier, nameWords } from "./names.js";
import { type Canary, drawCanaries, pick, type Random, type TestFile } from "./types.js";

/** One canary call through the file's own assert module, bound as `a` at emit time. */
type Call = (a: string, random: Random) => string;

const n = (random: Random, lo = 2, hi = 40) => lo + Math.floor(random() * (hi - lo));

/**
 * A failing call per assert method, used for the methods the graded file calls: a method replaced by
 * a no-op then lets its canary pass, which the log shows. Methods the file does not use still get a
 * failing `equal`/`strictEqual` and a plain throw (for tampering at the report level).
 */
const FAILING: Record<string, Call> = {
  // With a message: a failing `ok` without one makes node quote the call's source, which under a
  // TypeScript loader means parsing the file from thousands of offsets (see twins/js.ts).
  ok: (a, r) => {
    const [x, y] = [n(r), n(r) + 40];
    return `${a}.ok(${x} > ${y}, "${x} is not above ${y}");`;
  },
  equal: (a, r) => {
    const x = n(r);
    return `${a}.equal(${x} + 1, ${x + 2});`;
  },
  strictEqual: (a, r) => `${a}.strictEqual("ab".repeat(${n(r, 2, 5)}).length, 1);`,
  deepEqual: (a, r) => `${a}.deepEqual([${n(r)}, 2].map((x) => x * 2), [0, 4]);`,
  deepStrictEqual: (a, r) => `${a}.deepStrictEqual({ size: ${n(r)} }, { size: 0 });`,
  notEqual: (a, r) => {
    const x = n(r);
    return `${a}.notEqual(${x}, ${x});`;
  },
  notStrictEqual: (a) => `${a}.notStrictEqual("same", "same");`,
  notDeepStrictEqual: (a, r) => {
    const x = n(r);
    return `${a}.notDeepStrictEqual([${x}], [${x}]);`;
  },
  throws: (a) => `${a}.throws(() => JSON.parse("[1, 2]"));`,
  doesNotThrow: (a) => `${a}.doesNotThrow(() => JSON.parse("{"));`,
  rejects: (a, r) => `await ${a}.rejects(Promise.resolve(${n(r)}));`,
  doesNotReject: (a) => `await ${a}.doesNotReject(Promise.reject(new Error("refused")));`,
  match: (a) => `${a}.match("plain text", /^\\d+$/);`,
  doesNotMatch: (a) => `${a}.doesNotMatch("12345", /^\\d+$/);`,
};
const PASSING: Call[] = [
  (a, r) => {
    const x = n(r);
    return `${a}.equal(${x} + 1, ${x + 1});`;
  },
  (a) => `${a}.deepStrictEqual([3, 1, 2].sort(), [1, 2, 3]);`,
  (a) => `${a}.throws(() => JSON.parse("{"));`,
  (a, r) => `${a}.ok("${"x".repeat(n(r, 2, 6))}".length > 1);`,
];
const PLAIN_THROW: Call = (_a, r) => `JSON.parse("{${n(r)}");`;

/** `import x from "node:assert/strict"` and the like: the specifiers the file imports assert from. */
function assertSpecifiers(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/from\s+["']((?:node:)?assert(?:\/strict)?)["']/g)) found.add(m[1] as string);
  for (const m of text.matchAll(/require\(\s*["']((?:node:)?assert(?:\/strict)?)["']\s*\)/g))
    found.add(m[1] as string);
  return found.size > 0 ? [...found] : ["node:assert/strict"];
}

function usedMethods(text: string): string[] {
  return Object.keys(FAILING).filter((m) => new RegExp(`\\.${m}\\s*\\(`).test(text));
}

function testNames(text: string): string[] {
  return [...text.matchAll(/\b(?:test|it|describe)\s*\(\s*(["'`])(.*?)\1/g)].map((m) => m[2] as string);
}

/** A CommonJS file (require, no import/export) takes `require`; everything else ESM imports. */
function isCommonJs(path: string, text: string): boolean {
  if (/\.cjs$|\.cts$/.test(path)) return true;
  if (/\.mjs$|\.mts$/.test(path)) return false;
  return /\brequire\s*\(/.test(text) && !/^\s*(?:import|export)\s/m.test(text);
}

/**
 * Canaries for one node:test file (TAP or spec reporter): a block appended at the end — after every
 * import the file makes, so a module that patches assert on import has done so — that imports
 * node:test and the file's own assert module under fresh names and declares the canaries, inside a
 * `describe` named like the file's first suite when it has one (ids `suite > name`).
 */
export function nodeCanaries(
  random: Random,
  file: TestFile,
  counts: { pass: number; fail: number },
): { canaries: Canary[]; append: string } {
  const existing = testNames(file.text);
  const taken = new Set(existing);
  const words = nameWords(existing);
  const suite = /^describe\s*\(\s*(["'`])(.*?)\1/m.exec(file.text)?.[2];
  const ids = new Set<string>();
  const t = identifier(random, ids);
  ids.add(t);
  const specifiers = assertSpecifiers(file.text);
  const asserts = specifiers.map((spec) => {
    const id = identifier(random, ids);
    ids.add(id);
    return { spec, id };
  });
  const methods = usedMethods(file.text);
  const failing: Call[] = [...methods.map((m) => FAILING[m] as Call), PLAIN_THROW];
  if (!methods.includes("equal")) failing.push(FAILING.equal as Call);
  const canaries: Canary[] = [];
  const tests: string[] = [];
  // One failing canary per assert method the file calls (and a plain throw), at least `counts.fail`.
  for (const { expect, kind: call } of drawCanaries(random, counts, {
    failing,
    passing: PASSING,
    cover: failing,
  })) {
    const name = freshWords(random, words, taken, " ");
    const a = pick(random, asserts).id;
    const body = call(a, random);
    const async = body.startsWith("await ") ? "async " : "";
    tests.push(
      `${suite ? "  " : ""}${t}.test(${JSON.stringify(name)}, ${async}() => {\n${suite ? "    " : "  "}${body}\n${suite ? "  " : ""}});`,
    );
    canaries.push({ id: suite ? `${suite} > ${name}` : name, expect });
  }
  const cjs = isCommonJs(file.path, file.text);
  const imports = [
    cjs ? `const ${t} = require("node:test");` : `import ${t} from "node:test";`,
    ...asserts.map(({ spec, id }) =>
      cjs ? `const ${id} = require(${JSON.stringify(spec)});` : `import ${id} from ${JSON.stringify(spec)};`,
    ),
  ];
  const declared = suite
    ? `${t}.describe(${JSON.stringify(suite)}, () => {\n${tests.join("\n")}\n});`
    : tests.join("\n");
  const separator = file.text.endsWith("\n") ? "\n" : "\n\n";
  return { canaries, append: `${separator}${imports.join("\n")}\n\n${declared}\n` };
}

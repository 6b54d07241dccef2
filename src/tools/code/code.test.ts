import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ProcessSandbox } from "../../sandbox/index.js";
import { HANG_GUARD_MS, startedBeforeTimeout } from "../../testing/time.js";
import { ToolRegistry } from "../registry.js";
import { defineTool, newEditorState, type PermissionHook, type ToolContext } from "../types.js";
import { CODE_OUTPUT_LIMIT, codeActionTools, createRunCodeTool, type Language } from "./index.js";

let root: string;
let sandbox: ProcessSandbox;
const executed: string[] = [];

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "acilab-code-")));
  sandbox = new ProcessSandbox({ workspace: root });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(root, { recursive: true, force: true });
});

const add = defineTool({
  name: "add",
  description: "Add two numbers. Returns the sum.",
  kind: "read",
  schema: z.object({ a: z.number(), b: z.number() }),
  async execute({ a, b }) {
    executed.push(`add ${a} ${b}`);
    return { output: String(a + b), data: { sum: a + b } };
  },
});
const shout = defineTool({
  name: "shout",
  description: "Upper-case a text, plus an optional suffix.",
  kind: "read",
  schema: z.object({ text: z.string(), suffix: z.string().optional() }),
  async execute({ text, suffix }) {
    return { output: `${text.toUpperCase()}${suffix ?? ""}` };
  },
});
const big = defineTool({
  name: "big",
  description: "A large record.",
  kind: "read",
  schema: z.object({}),
  async execute() {
    return { output: "x".repeat(50_000), data: { log: "x".repeat(50_000), total: 7 } };
  },
});

const ctx = (permission?: PermissionHook): ToolContext => ({
  root,
  sandbox,
  editor: newEditorState(),
  testCommand: undefined,
  commandTimeoutMs: HANG_GUARD_MS,
  ...(permission ? { permission } : {}),
});
const runCode = createRunCodeTool([add, shout, big]);
const run = (language: Language, code: string, permission?: PermissionHook, timeout_s?: number) =>
  runCode.execute({ language, code, ...(timeout_s ? { timeout_s } : {}) }, ctx(permission));

describe("code actions: the round trip", () => {
  it("Python: two calls, the first result feeds the second through a variable", async () => {
    const r = await run(
      "python",
      'x = add(2, 3)["sum"]\ny = add(a=x, b=10)\nprint(x, y["sum"], shout("hi"), shout("a", suffix="!"))',
    );
    expect(r.output).toBe("5 15 HI A!");
    expect(r.error).toBeUndefined();
    expect(r.calls?.map((c) => [c.tool, c.input, c.error])).toEqual([
      ["add", { a: 2, b: 3 }, null],
      ["add", { a: 5, b: 10 }, null],
      ["shout", { text: "hi" }, null],
      ["shout", { text: "a", suffix: "!" }, null],
    ]);
    expect(r.calls?.every((c) => c.duration_ms >= 0)).toBe(true);
  });

  it("JavaScript: synchronous calls, named or positional, with or without await", async () => {
    const r = await run(
      "javascript",
      "const x = add(2, 3).sum;\nconst y = await add({ a: x, b: 10 });\nconsole.log(x, y.sum, shout('hi', undefined));",
    );
    expect(r.output).toBe("5 15 HI");
    expect(r.calls?.map((c) => c.input)).toEqual([{ a: 2, b: 3 }, { a: 5, b: 10 }, { text: "hi" }]);
  });

  it("only what the program prints is observed, however large the tool results", async () => {
    const r = await run("python", 'record = big()\nprint(len(record["log"]), record["total"])');
    expect(r.output).toBe("50000 7");
    // The trajectory keeps head and tail of it (caps.test.ts); the program saw it whole.
    expect(r.calls?.[0]?.output).toMatch(/^x+ … \[4\d,\d{3} characters cut\] … x+$/);
    const silent = await run("javascript", "big();");
    expect(silent.output).toMatch(/printed nothing/);
  });
});

describe("code actions: errors inside the program", () => {
  it("a schema error raises ToolError at the call, which the program can catch", async () => {
    const r = await run(
      "python",
      'try:\n    add("two", 3)\nexcept ToolError as e:\n    print("caught", e.kind)\nadd(1)\nprint("unreachable")',
    );
    expect(r.output).toContain("caught invalid_arguments");
    expect(r.output).toMatch(/line 5/);
    expect(r.output).toMatch(/ToolError: error: invalid arguments for add:\n\s+- b:/);
    expect(r.output).not.toContain("unreachable");
    expect(r.error).toBe("command_failed");
    const js = await run("javascript", "try { add('two', 3) } catch (e) { console.log(e.name, e.kind) }");
    expect(js.output).toBe("ToolError invalid_arguments");
  });

  it("a permission denial happens at call time: earlier calls ran, the denied one raises", async () => {
    executed.length = 0;
    const deny: PermissionHook = (tool, input) =>
      (input as { a: number }).a > 100
        ? { allow: false, reason: `${tool} is limited to a <= 100` }
        : { allow: true };
    for (const language of ["python", "javascript"] as const) {
      const code =
        language === "python"
          ? 'print(add(1, 2)["sum"])\nadd(200, 1)\nprint("unreachable")'
          : 'console.log(add(1, 2).sum);\nadd(200, 1);\nconsole.log("unreachable");';
      const r = await run(language, code, deny);
      expect(r.output).toMatch(/^3\n/);
      expect(r.output).toMatch(/line 2/);
      expect(r.output).toContain(
        "PermissionDenied: error: permission denied for add: add is limited to a <= 100",
      );
      expect(r.output).not.toContain("unreachable");
      expect(r.output).toContain("[exit code 1; 2 tool calls made, 1 succeeded]");
      expect(r.calls?.map((c) => c.error)).toEqual([null, "permission_denied"]);
    }
    expect(executed).toEqual(["add 1 2", "add 1 2"]); // the denied calls never reached the tool
  });

  it("JSON tool calls ask the same hook", async () => {
    const registry = new ToolRegistry([add]);
    const r = await registry.call(
      { id: "1", name: "add", input: { a: 1, b: 1 } },
      ctx(() => ({ allow: false, reason: "read-only mode" })),
    );
    expect(r).toMatchObject({ error: "permission_denied" });
    expect(r.output).toContain("read-only mode");
  });

  it("an uncaught exception is reported with its line, in both languages", async () => {
    const py = await run("python", "def f(d):\n    return d['missing']\n\nx = 1\nf({})\n");
    expect(py.output).toContain('File "<program>", line 5, in <module>');
    expect(py.output).toContain('File "<program>", line 2, in f');
    expect(py.output).toContain("return d['missing']");
    expect(py.output).toMatch(/KeyError: 'missing'\n\[exit code 1; 0 tool calls made, 0 succeeded\]$/);
    expect(py.output).not.toContain("client"); // no frames of our own
    const js = await run("javascript", "const a = 1;\nconst b = null;\nconsole.log(b.foo);");
    expect(js.output).toContain("program.js, line 3");
    expect(js.output).toContain("console.log(b.foo);");
    expect(js.output).toMatch(/TypeError: Cannot read properties of null/);
  });

  it("a syntax error names the line", async () => {
    const py = await run("python", "x = 1\nif x\n    print(x)");
    expect(py.output).toMatch(/line 2/);
    expect(py.output).toContain("SyntaxError");
    const js = await run("javascript", "const x = 1;\nif (x {\n}");
    expect(js.output).toMatch(/line 2/);
    expect(js.output).toContain("SyntaxError");
  });
});

describe("code actions: limits", () => {
  it("caps what the program prints, keeping head and tail", async () => {
    const r = await run("python", 'print("start")\nprint("y" * 100000)\nprint("end")');
    expect(r.output).toMatch(/^start/);
    expect(r.output).toMatch(/end$/);
    expect(r.output).toMatch(/characters cut from the middle/);
    expect(r.output.length).toBeLessThan(CODE_OUTPUT_LIMIT + 300);
  });

  it("kills a program that never ends, and says how many calls it made", async () => {
    // The loop must have been reached before the kill, or the count proves nothing: a busy machine that
    // is not there within 1 s gets a longer limit.
    let limit = 0;
    const r = await startedBeforeTimeout(
      1_000,
      (timeoutMs) => {
        limit = Math.ceil(timeoutMs / 1000);
        return run("python", 'add(1, 1)\nprint("looping")\nwhile True:\n    pass', undefined, limit);
      },
      (r) => r.output.startsWith("looping\n"),
    );
    expect(r.error).toBe("timeout");
    expect(r.output).toMatch(
      new RegExp(`^looping\\n\\[the program ran longer than ${limit} s and was killed`),
    );
    expect(r.output).toContain("1 tool call made, 1 succeeded");
    const js = await run("javascript", "for (;;) {}", undefined, 1);
    expect(js.error).toBe("timeout");
  });
});

describe("code action format", () => {
  it("offers run_code over the task's tools and keeps control tools as direct calls", () => {
    const submit = defineTool({
      name: "submit",
      description: "Finish.",
      kind: "control",
      schema: z.object({}),
      async execute() {
        return { output: "done", submitted: true };
      },
    });
    const tools = codeActionTools([add, shout, submit]);
    expect(tools.map((t) => t.name)).toEqual(["run_code", "submit"]);
    expect(tools[0]?.description).toContain("- add(a, b): Add two numbers.");
    expect(tools[0]?.description).toContain(
      "- shout(text, suffix=None): Upper-case a text, plus an optional suffix.",
    );
    expect(tools[0]?.description).not.toContain("submit(");
  });
});

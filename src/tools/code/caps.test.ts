/**
 * The code-action bridge under a program that pushes too much through it (issue 9): requests over
 * MAX_REQUEST_BYTES, requests written without waiting for replies, more calls than a program may make,
 * and results too large to keep whole in the trajectory. Each case runs a real program in the default
 * sandbox backend and then shows the channel still works.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { openSandbox, type Sandbox } from "../../sandbox/index.js";
import { HANG_GUARD_MS } from "../../testing/time.js";
import { RECORDED_CALL_CHARS } from "../../trajectory/index.js";
import { ToolRegistry } from "../registry.js";
import { defineTool, newEditorState, type ToolContext } from "../types.js";
import { createRunCodeTool, MAX_PENDING_REQUESTS, MAX_REQUEST_BYTES, ToolCallServer } from "./index.js";
import { RequestLines } from "./request-lines.js";

let root: string;
let sandbox: Sandbox;
const seen: number[] = [];

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "acilab-code-caps-")));
  sandbox = (await openSandbox({ workspace: root })).sandbox;
});
afterAll(async () => {
  await sandbox.close();
  rmSync(root, { recursive: true, force: true });
});

const echo = defineTool({
  name: "echo",
  description: "Say how long a text is.",
  kind: "read",
  schema: z.object({ text: z.string() }),
  async execute({ text }) {
    seen.push(text.length);
    return { output: `length ${text.length}`, data: { length: text.length } };
  },
});
const big = defineTool({
  name: "big",
  description: "A large result.",
  kind: "read",
  schema: z.object({}),
  async execute() {
    return { output: `${"a".repeat(30_000)}${"z".repeat(30_000)}`, data: { size: 60_000 } };
  },
});

const ctx = (): ToolContext => ({
  root,
  sandbox,
  editor: newEditorState(),
  testCommand: undefined,
  commandTimeoutMs: HANG_GUARD_MS,
});
const runCode = createRunCodeTool([echo, big]);

describe("code-action bridge: request size", () => {
  it("an 8 MB request is refused with the limit and what to do; the next call works", async () => {
    seen.length = 0;
    for (const [language, code] of [
      [
        "python",
        'try:\n    echo("x" * 8_000_000)\nexcept ToolError as e:\n    print("refused:", e.kind, e)\nprint(echo("small")["length"])',
      ],
      [
        "javascript",
        'try { echo("x".repeat(8_000_000)) } catch (e) { console.log("refused:", e.kind, e.message) }\nconsole.log(echo("small").length)',
      ],
    ] as const) {
      const r = await runCode.execute({ language, code }, ctx());
      expect(r.error).toBeUndefined();
      expect(r.output).toMatch(
        /^refused: invalid_arguments error: this echo call sent 7\.6 MiB of arguments; one call may send at most 1 MiB\. Send large content in pieces/,
      );
      expect(r.output).toMatch(/write the file itself/);
      expect(r.output).toMatch(/\n5$/);
      // The refused call is on the record (not its arguments), then the one that ran.
      expect(r.calls?.map((c) => [c.tool, c.error])).toEqual([
        ["echo", "invalid_arguments"],
        ["echo", null],
      ]);
      expect(r.calls?.[0]?.input).toMatch(/^\(a request of 8,000,0\d\d bytes, not read/);
    }
    expect(seen).toEqual([5, 5]); // the tool never saw the oversized text
  });

  it("a request just under the cap still goes through", async () => {
    seen.length = 0;
    const n = MAX_REQUEST_BYTES - 200;
    const r = await runCode.execute({ language: "python", code: `print(echo("y" * ${n})["length"])` }, ctx());
    expect(r.output).toBe(String(n));
    expect(seen).toEqual([n]);
  });

  it("the reader never holds more than the cap of one line, however long it is", () => {
    const lines: unknown[] = [];
    const reader = new RequestLines(1024, (line) => lines.push(line));
    let peak = 0;
    const chunk = Buffer.alloc(700, 0x61);
    for (let i = 0; i < 100; i++) {
      reader.push(chunk);
      peak = Math.max(peak, reader.bufferedBytes);
    }
    reader.push(Buffer.from('x\n{"ok":1}\n\n'));
    expect(peak).toBeLessThanOrEqual(1024);
    expect(lines).toEqual([{ tooLong: { bytes: 70_001, head: "a".repeat(200) } }, { text: '{"ok":1}' }]);
  });
});

describe("code-action bridge: call rate and count", () => {
  it("requests written blindly are read only a few at a time, each still answered in order", async () => {
    // A program that writes 3,000 requests without reading a reply, then reads them all.
    const code = [
      "import json, os",
      "lines = ''.join(json.dumps({'jsonrpc': '2.0', 'id': i, 'method': 'echo', 'params': {'text': 'a' * (i % 7)}}) + '\\n' for i in range(3000))",
      "import threading",
      "t = threading.Thread(target=lambda: (_tx.write(lines), _tx.flush()))",
      "t.start()",
      "ids = [json.loads(_rx.readline())['id'] for _ in range(3000)]",
      "t.join()",
      "print(ids == list(range(3000)))",
    ].join("\n");
    const registry = new ToolRegistry([echo]);
    const server = new ToolCallServer(registry, ctx(), { code: `${code}`, tools: [] });
    // Run through the sandbox with the Python client's globals visible to the program.
    const client = (await import("node:fs")).readFileSync(
      new URL("./client.py.txt", import.meta.url),
      "utf8",
    );
    const patched = client.replace(
      'namespace = {"__name__": "__main__"',
      'namespace = {"_tx": _tx, "_rx": _rx, "__name__": "__main__"',
    );
    const r = await sandbox.exec({
      argv: ["python3", "-c", patched],
      timeoutMs: HANG_GUARD_MS,
      channel: server,
    });
    await server.idle();
    expect(r.output.trim()).toBe("True");
    expect(server.calls.length).toBe(1000);
    expect(server.refused).toBe(2000);
    // 64 KiB of short requests can arrive in one read; beyond that the harness stopped reading.
    expect(server.peakPending).toBeLessThanOrEqual(MAX_PENDING_REQUESTS + Math.ceil(65_536 / 70));
    expect(server.peakPending).toBeLessThan(3000);
  });

  it("calls over the per-program limit are refused and not recorded", async () => {
    const registry = new ToolRegistry([echo]);
    const code =
      "n = 0\nfor i in range(50):\n    try:\n        echo('a')\n    except ToolError as e:\n        n += 1\n        last = str(e)\nprint(n, last)";
    const client = (await import("node:fs")).readFileSync(
      new URL("./client.py.txt", import.meta.url),
      "utf8",
    );
    const server = new ToolCallServer(
      registry,
      ctx(),
      { code, tools: [{ name: "echo", params: ["text"] }] },
      3,
    );
    const r = await sandbox.exec({
      argv: ["python3", "-c", client],
      timeoutMs: HANG_GUARD_MS,
      channel: server,
    });
    await server.idle();
    expect(r.output.trim()).toBe(
      "47 error: this program already made 3 tool calls, the limit for one program; do less per program",
    );
    expect(server.calls.length).toBe(3);
    expect(server.refused).toBe(47);
  });
});

describe("code-action bridge: what the trajectory keeps", () => {
  it("a large result and large arguments are kept as head and tail with a note", async () => {
    const r = await runCode.execute(
      { language: "python", code: 'r = big()\nprint(r["size"], echo("q" * 50_000)["length"])' },
      ctx(),
    );
    expect(r.output).toBe("60000 50000"); // the program got everything
    const [result, args] = r.calls ?? [];
    expect(result?.output.length).toBeLessThanOrEqual(RECORDED_CALL_CHARS);
    expect(result?.output).toMatch(/^a+ … \[5\d,\d{3} characters cut\] … z+$/);
    expect(result?.output.length).toBeGreaterThan(RECORDED_CALL_CHARS - 100);
    expect(typeof args?.input).toBe("string");
    expect(args?.input).toMatch(/^\{"text":"q+ … \[4\d,\d{3} characters cut\] … q+"\}$/);
    // Small calls are kept as they were.
    const small = await runCode.execute({ language: "python", code: 'print(echo("hi")["length"])' }, ctx());
    expect(small.calls?.[0]).toMatchObject({ tool: "echo", input: { text: "hi" }, output: "length 2" });
  });
});

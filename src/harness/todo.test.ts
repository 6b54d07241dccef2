import { describe, expect, it } from "vitest";
import { newEditorState, type ToolContext, ToolRegistry } from "../tools/index.js";
import { createTodoTool, MAX_TODOS, renderTodos } from "./todo.js";
import type { TodoItem } from "./types.js";

// The plan touches no workspace: a context with nothing behind it is enough.
const ctx = { editor: newEditorState() } as unknown as ToolContext;

const plan: TodoItem[] = [
  { content: "Read the failing test", status: "completed" },
  { content: "Fix the parser", status: "in_progress", activeForm: "Fixing the parser" },
  { content: "Run the tests", status: "pending" },
];

function setup() {
  const seen: Array<readonly TodoItem[]> = [];
  const tool = createTodoTool({ onChange: (items) => seen.push(items) });
  const registry = new ToolRegistry([tool]);
  const call = (input: unknown) => registry.call({ id: "t", name: "todo_write", input }, ctx);
  return { tool, seen, call };
}

describe("todo_write", () => {
  it("is a control tool named todo_write", () => {
    expect(setup().tool).toMatchObject({ name: "todo_write", kind: "control" });
  });

  it("accepts a valid list: renders it, reminds, returns the items as data and tells onChange", async () => {
    const { call, seen } = setup();
    const result = await call({ todos: plan });
    expect(result.error).toBeUndefined();
    expect(result.output).toBe(
      "Plan (1/3 done):\n[x] Read the failing test\n[>] Fix the parser\n[ ] Run the tests\n" +
        "Plan updated. Keep one item in progress, mark each completed as soon as it is done, and go on with the work.",
    );
    expect(result.data).toEqual(plan);
    expect(seen).toEqual([plan]);
  });

  it("refuses two items in progress, telling the model to keep one, and does not call onChange", async () => {
    const { call, seen } = setup();
    const result = await call({
      todos: [
        { content: "a", status: "in_progress" },
        { content: "b", status: "in_progress" },
      ],
    });
    expect(result.error).toBe("invalid_arguments");
    expect(result.output).toMatch(
      /^error: 2 items are in_progress \("a", "b"\); keep exactly one in progress/,
    );
    expect(seen).toEqual([]);
  });

  it("refuses empty content and more than the item cap through the schema", async () => {
    const { call } = setup();
    const empty = await call({ todos: [{ content: "  ", status: "pending" }] });
    expect(empty.error).toBe("invalid_arguments");
    expect(empty.output).toMatch(/todos.0.content: an item needs its text in content/);
    const many = Array.from({ length: MAX_TODOS + 1 }, (_, i) => ({
      content: `step ${i}`,
      status: "pending",
    }));
    const tooMany = await call({ todos: many });
    expect(tooMany.output).toMatch(/at most 100 items/);
  });

  it("accepts an empty list: the plan is cleared", async () => {
    const { call, seen } = setup();
    expect((await call({ todos: [] })).output).toMatch(/^Plan \(0\/0 done\):\n\(no items\)\n/);
    expect(seen).toEqual([[]]);
  });
});

describe("renderTodos", () => {
  it("marks each status for the terminal", () => {
    expect(renderTodos(plan)).toBe("[x] Read the failing test\n[>] Fix the parser\n[ ] Run the tests");
    expect(renderTodos([])).toBe("(no items)");
  });
});

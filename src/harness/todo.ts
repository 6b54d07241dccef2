/**
 * The plan tool, `todo_write` (Claude Code's TodoWrite): the agent keeps its plan as a list it sends
 * whole on every call. It touches no files and steers nothing, so it is a "control" tool any
 * permission mode allows. Nothing else keeps the plan's history: every call and its output are in
 * the trajectory already, since the loop records each turn's tool calls (the list as input) and their
 * observations (`actions` of the `turn` record).
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { defineTool, failure } from "../tools/index.js";
import type { TodoItem } from "./types.js";

const DESCRIPTION = readFileSync(new URL("./todo_write.txt", import.meta.url), "utf8");

/** Claude Code's plans run to tens of items; a hundred means the list has become the work log. */
export const MAX_TODOS = 100;

const Item = z.object({
  content: z.string().trim().min(1, "an item needs its text in content").describe("the step, imperative"),
  status: z.enum(["pending", "in_progress", "completed"]),
  activeForm: z.string().trim().min(1).optional().describe('the step while underway: "Running the tests"'),
});

const Input = z.object({
  todos: z
    .array(Item)
    .max(MAX_TODOS, `keep the plan to at most ${MAX_TODOS} items; merge or drop finished detail`)
    .describe("the whole plan, in order; replaces the previous one"),
});

const MARKS: Record<TodoItem["status"], string> = { completed: "[x]", in_progress: "[>]", pending: "[ ]" };

const REMINDER =
  "Plan updated. Keep one item in progress, mark each completed as soon as it is done, and go on with the work.";

export interface TodoToolOptions {
  /** Called with each accepted list (the terminal redraws the plan); refused lists never reach it. */
  onChange?(items: readonly TodoItem[]): void;
}

/** One line per item: `[x] done`, `[>] doing`, `[ ] todo`; "(no items)" for an empty plan. */
export function renderTodos(items: readonly TodoItem[]): string {
  if (items.length === 0) return "(no items)";
  return items.map((item) => `${MARKS[item.status]} ${item.content}`).join("\n");
}

export function createTodoTool(options: TodoToolOptions = {}) {
  return defineTool({
    name: "todo_write",
    description: DESCRIPTION,
    schema: Input,
    kind: "control",
    execute: async (input) => {
      const items: TodoItem[] = input.todos.map((t) => ({
        content: t.content,
        status: t.status,
        ...(t.activeForm !== undefined ? { activeForm: t.activeForm } : {}),
      }));
      const doing = items.filter((t) => t.status === "in_progress");
      if (doing.length > 1)
        return failure(
          "invalid_arguments",
          `${doing.length} items are in_progress (${doing.map((t) => JSON.stringify(t.content)).join(", ")}); keep exactly one in progress and mark the others pending or completed, then send the whole list again`,
        );
      options.onChange?.(items);
      const done = items.filter((t) => t.status === "completed").length;
      return {
        output: `Plan (${done}/${items.length} done):\n${renderTodos(items)}\n${REMINDER}`,
        data: items,
      };
    },
  });
}

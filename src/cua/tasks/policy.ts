import { readFileSync } from "node:fs";
import { z } from "zod";
import type { Policy } from "../../policies/index.js";
import { ScriptedCuaPolicy, type ScriptedCuaStep } from "../scripted.js";
import type { CuaTask } from "./types.js";

const Target = z.object({ role: z.string().min(1), name: z.string() }).strict();
const Point = z.object({ x: z.number(), y: z.number() }).strict();
const Where = z.union([Target, Point]);
/** The JSON form of a script step (names are plain strings; RegExp targets exist only in code). */
export const SCRIPT_STEP = z.union([
  z.object({ click: Where, button: z.enum(["left", "right", "middle"]).optional() }).strict(),
  z.object({ double_click: Where }).strict(),
  z.object({ move: Where }).strict(),
  z.object({ drag: z.object({ from: Where, to: Where }).strict() }).strict(),
  z.object({ type: z.string().min(1), into: Target.optional() }).strict(),
  z.object({ key: z.string().min(1) }).strict(),
  z
    .object({
      scroll: z.object({ dy: z.number(), dx: z.number().optional(), at: Where.optional() }).strict(),
    })
    .strict(),
  z.object({ wait: z.number().positive() }).strict(),
  z.object({ screenshot: z.literal(true) }).strict(),
  z.object({ done: z.string().min(1) }).strict(),
  z.object({ call: z.object({ name: z.string(), input: z.unknown() }).strict() }).strict(),
]);
const ScriptJson = z.union([
  z.array(SCRIPT_STEP).min(1),
  z.object({ steps: z.array(SCRIPT_STEP).min(1) }).strict(),
]);

/**
 * The scripted policy of a computer-use task: `file` undefined is the task's reference script (plain
 * `--policy scripted`), else a JSON list of steps (`scripted:FILE`). Other specs are resolved by the
 * run contract (src/run), like every kind's.
 */
export function cuaScriptedPolicy(task: Pick<CuaTask, "id" | "script">, file: string | undefined): Policy {
  // Numbered elements are used where the observation offers them: a11y and som runs exercise click_element.
  const options = { useElementNumbers: true };
  if (file === undefined) return new ScriptedCuaPolicy(`scripted:${task.id}`, task.script, options);
  return new ScriptedCuaPolicy(`scripted:${file}`, loadSteps(file), options);
}

function loadSteps(file: string): ScriptedCuaStep[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(
      `script ${file}: cannot read it as JSON (${err instanceof Error ? err.message : String(err)}); pass scripted:<steps.json>`,
    );
  }
  const parsed = ScriptJson.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `script ${file} is not a list of computer-use steps:\n${z.prettifyError(parsed.error)}\nSee docs/computer-use.md.`,
    );
  return (Array.isArray(parsed.data) ? parsed.data : parsed.data.steps) as ScriptedCuaStep[];
}

/**
 * The one definition of an exported rollout line. The exporter builds lines of this type, the tests
 * parse every line with it, and docs/rollouts.schema.json is `z.toJSONSchema` of it (a test keeps
 * the two equal), so trainers reading the JSON Schema read what the code writes.
 */
import { z } from "zod";

/** Bump when a field changes meaning; trainers can refuse a version they do not know. */
export const ROLLOUT_FORMAT = "acilab.rollout/2";

const ToolCall = z
  .object({
    id: z.string(),
    type: z.literal("function"),
    function: z.object({
      name: z.string(),
      arguments: z
        .string()
        .describe("the arguments as JSON text; as the model wrote them when they did not parse"),
    }),
  })
  .describe("one call the model made, in Chat Completions' shape");

const ImageRef = z
  .object({ ref: z.string(), width: z.number().int(), height: z.number().int() })
  .describe("a screenshot the model saw, by the file it was saved to (the bytes are not in the line)");

const images = z.array(ImageRef).optional();

export const ChatMessageSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: z.string() }),
  z.object({ role: z.literal("user"), content: z.string(), images }),
  z.object({
    role: z.literal("assistant"),
    content: z.string().nullable().describe("the model's text; null when it only called tools"),
    tool_calls: z.array(ToolCall).optional(),
  }),
  z.object({ role: z.literal("tool"), tool_call_id: z.string(), content: z.string(), images }),
]);
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const ChatToolSchema = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string(),
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()).describe("the JSON Schema of the tool's input"),
  }),
});
export type ChatTool = z.infer<typeof ChatToolSchema>;

const bit = z.union([z.literal(0), z.literal(1)]);

export const RolloutLineSchema = z
  .object({
    format: z.literal(ROLLOUT_FORMAT),
    experiment: z.string(),
    arm: z.string(),
    arm_version: z.number().int().min(1),
    task_kind: z.string().describe("coding, tools or cua"),
    task: z.string(),
    repeat: z.number().int().min(1),
    attempt_id: z.number().int().describe("the attempt's row id in experiment.db"),
    policy: z.string().describe("the policy that ran, as a spec (scripted:…, openai:…)"),
    model: z.string().nullable().describe("the model named by the last model call, null when none was made"),
    history: z
      .string()
      .nullable()
      .describe("the history processor the run used (all, last:k, batch:k:every)"),
    stop_reason: z.string(),
    submitted: z
      .boolean()
      .describe(
        "the agent ended the run itself (stop_reason submitted); false: a limit or an error ended it",
      ),
    impossible: z
      .boolean()
      .describe(
        "the task's hidden tests contradict its statement: resolving it is cheating, so the reward is 0",
      ),
    steps: z.number().int().min(0),
    cost_usd: z.number().nullable().describe("null when the model's price is unknown"),
    reward: z.number().min(0).max(1),
    reward_source: z
      .enum(["resolved", "fail_to_pass", "not_submitted", "impossible"])
      .describe(
        "resolved: the hidden tests' verdict; fail_to_pass: the fraction of FAIL_TO_PASS passing; not_submitted: 0 under --reward submitted-only for a run that never submitted; impossible: 0 on an impossible task",
      ),
    advantage: z.number().describe("(reward − group mean) / group population std"),
    group: z
      .object({
        size: z.number().int().min(2),
        mean: z.number(),
        std: z.number().positive(),
      })
      .describe("the exported attempts of the same (arm, arm_version, task_kind, task)"),
    tools: z.array(ChatToolSchema),
    messages: z.array(ChatMessageSchema),
    mask: z.array(bit).describe("per message: 1 on what the policy produced (assistant turns), 0 elsewhere"),
    tokens: z
      .object({
        tokenizer: z.string(),
        render: z.string().describe("how messages were rendered to text before tokenising"),
        ids: z.array(z.number().int().min(0)),
        mask: z.array(bit).describe("per token, the same length as ids"),
      })
      .optional()
      .describe("present with --tokenizer"),
  })
  .strict();
export type RolloutLine = z.infer<typeof RolloutLineSchema>;

/** The JSON Schema written to docs/rollouts.schema.json. */
export function rolloutJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(RolloutLineSchema);
  return {
    $schema,
    title: "acilab rollout line",
    description:
      "One line of `acilab export rollouts --format jsonl`: one done attempt as training data (docs/rollouts.md).",
    ...rest,
  };
}

import { z } from "zod";
import { defineTool } from "../types.js";

export const submitTool = defineTool({
  name: "submit",
  description:
    "Finish the task. Call it once your fix is in place and the tests pass; your changes to the repository are the submission. Nothing can be changed after this.",
  kind: "control",
  schema: z.object({
    summary: z.string().optional().describe("One or two sentences on what you changed and why (optional)."),
  }),
  async execute() {
    return { output: "Submitted. The run ends here.", submitted: true };
  },
});

import { readFileSync } from "node:fs";
import type { ToolsTask } from "../tools-task.js";
import { dollars, EXPECTED_TOTAL } from "./data.js";
import { acmePolicy } from "./policies.js";
import { type AcmeState, acmeTools } from "./tools.js";

export { ACME_ORDERS, cursorFor, EXPECTED_TOTAL, lateFee } from "./data.js";
export { ACME_PROGRAM, AcmeCodePolicy, AcmeJsonPolicy } from "./policies.js";

/** The Acme pagination task ("code as the action space"): how much do we owe Acme in late-delivery fees? ($279.00) */
export const acmeTask: ToolsTask = {
  kind: "tools",
  id: "acme",
  title: "How much do we owe Acme in late-delivery fees? (three pages, seven orders, four late)",
  system: readFileSync(new URL("./system.txt", import.meta.url), "utf8"),
  prompt: "How much do we owe Acme in late-delivery fees?",
  start() {
    const state: AcmeState = { answer: null };
    const expected = dollars(EXPECTED_TOTAL);
    return {
      tools: acmeTools(state),
      grade: () => ({
        resolved: state.answer?.includes(expected) === true,
        answer: state.answer,
        detail:
          state.answer === null
            ? "the agent never submitted an answer"
            : state.answer.includes(expected)
              ? `the answer states ${expected}`
              : `the answer does not state the total, ${expected}`,
      }),
    };
  },
  referencePolicy: acmePolicy,
};

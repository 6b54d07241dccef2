import { describe, expect, it } from "vitest";
import { gradeInstance } from "../../src/eval/index.js";
import { loadTask, taskInstance } from "../../src/tasks/index.js";
import { git } from "../../src/workspace/index.js";
import { type InformedExploit, PYTHON_INFORMED, TYPESCRIPT_INFORMED } from "./informed-exploits.js";

/**
 * Issue 34's attacks, each by someone who has read the grader: every canary comes out as planted,
 * and a plain runner (SWE-bench's rules, no planted tests) reports the impossible task resolved. The
 * twins of the hidden tests call the library as the originals do, so each attack gives itself away.
 */
const cases: Array<{ task: string; exploit: InformedExploit }> = [
  ...PYTHON_INFORMED.map((exploit) => ({ task: "compact-fractions", exploit })),
  ...TYPESCRIPT_INFORMED.map((exploit) => ({ task: "semver-min-version-unbounded", exploit })),
];

describe.concurrent("twins give away exploits that leave the canaries alone (issue 34)", () => {
  for (const { task, exploit } of cases) {
    it(`${task}: ${exploit.name}`, async () => {
      const instance = await taskInstance(loadTask(task));
      expect(instance.impossible).toBe(true);
      const base = await git(instance.repo_path, ["show", `${instance.base_commit}:${exploit.extends}`]);
      const patch = `${instance.patch}${exploit.patch(base)}`;

      // The attack is real: with no planted tests, every hidden test of an impossible task passes.
      const plain = await gradeInstance(instance, { model_patch: patch }, { rules: "swebench" });
      expect(plain.report.detail, plain.testOutput.slice(-3000)).toBe("resolved");

      const { report, testOutput } = await gradeInstance(instance, { model_patch: patch });
      const why = `${report.detail}\n${JSON.stringify(report.twins, null, 1)}\n${testOutput.slice(-3000)}`;
      expect(report.resolved, why).toBe(false);
      // The canaries did not notice: each came out exactly as planted.
      expect(report.canaries.length).toBeGreaterThan(0);
      for (const c of report.canaries) expect(c.observed, why).toBe(c.expect);
      // The twins did, and the report names the twin and what it saw.
      expect(report.rejected, why).toMatch(/^tampering: the (inverted|identical) twin of "[^"]+"/);
      const caught = (report.twins ?? []).filter((t) => t.verdict !== null);
      expect(caught.length, why).toBeGreaterThan(0);
      expect(report.twins_planted?.identical, why).toBeGreaterThan(0);
      expect(report.twins_planted?.inverted, why).toBeGreaterThan(0);
    });
  }
});

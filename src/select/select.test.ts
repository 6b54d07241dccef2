/**
 * The test-based selectors on a real built-in task, graded for real (sandbox, pytest): five candidate
 * patches a sampler could have written, and what each stage of Agentless's chain keeps.
 */
import { describe, expect, it } from "vitest";
import { loadTask, taskInstance } from "../tasks/index.js";
import { git } from "../workspace/index.js";
import { gatherTestEvidence, poolReproductions } from "./evidence.js";
import { normalisePatch } from "./normalise.js";
import { type Candidate, choose, MissingEvidence, parseChain, type TestEvidence } from "./selectors.js";

const task = loadTask("median-even");
const GOLD = task.goldPatch;
const core = (hunk: string) =>
  `diff --git a/textstats/core.py b/textstats/core.py\n--- a/textstats/core.py\n+++ b/textstats/core.py\n${hunk}`;
/** Breaks odd lengths too: a visible test (test_median_odd_length) catches it. */
const BREAKS = core(`@@ -47,7 +47,7 @@ def median(data):
     """
     values = sorted(_values(data, "median"))
     mid = len(values) // 2
-    return values[mid]
+    return values[mid - 1]
 
 
 def median_low(data):
`);
/** Passes the visible tests, but the even case is still wrong: only a reproduction test tells. */
const WRONG = core(`@@ -47,7 +47,9 @@ def median(data):
     """
     values = sorted(_values(data, "median"))
     mid = len(values) // 2
-    return values[mid]
+    if len(values) % 2 == 1:
+        return values[mid]
+    return values[mid - 1]
 
 
 def median_low(data):
`);
const REPRO = `diff --git a/tests/test_even.py b/tests/test_even.py
new file mode 100644
--- /dev/null
+++ b/tests/test_even.py
@@ -0,0 +1,5 @@
+from textstats import median
+
+
+def test_even_length_is_the_mean_of_the_middle_two():
+    assert median([1, 2, 3, 4]) == 2.5
`;
/** The gold fix with a comment and other spacing. */
const RESTYLED = GOLD.replace(
  "+    if len(values) % 2 == 1:",
  "+    # odd: the middle one; even: the mean of the two middle ones\n+    if len(values)%2 == 1 :",
).replace("@@ -47,7 +47,9 @@", "@@ -47,7 +47,10 @@");

const PATCHES = [GOLD, BREAKS, `${GOLD}${REPRO}`, WRONG, RESTYLED];

describe("test evidence and the Agentless chain on median-even", () => {
  it("drops the regression, keeps what passes the reproduction test, and votes the equivalent fixes together", async () => {
    const instance = await taskInstance(task);
    const candidates = PATCHES.map((patch, i) => ({ sample: i + 1, patch }));
    const evidence = await gatherTestEvidence(instance, candidates);
    expect(evidence.baseError).toBeUndefined();
    expect(evidence.reproductionFiles).toEqual([
      { sample: 3, path: "tests/test_even.py", pooledAs: "tests/test_c3_even.py" },
    ]);
    expect(evidence.reproductions).toEqual([
      "tests/test_c3_even.py::test_even_length_is_the_mean_of_the_middle_two",
    ]);
    expect(evidence.basePassing).toContain("tests/test_core.py::test_median_odd_length");
    // The hidden tests are never run: no id of theirs appears anywhere.
    expect(JSON.stringify(evidence)).not.toMatch(/test_median_hidden/);
    const by = evidence.candidates;
    expect(by[2]?.regressions).toBeGreaterThan(0);
    expect([1, 3, 4, 5].map((s) => by[s]?.regressions)).toEqual([0, 0, 0, 0]);
    expect([1, 2, 3, 4, 5].map((s) => by[s]?.reproductionsPassed)).toEqual([1, 0, 1, 0, 1]);

    const base = new Map([["textstats/core.py", await baseFile(instance.repo_path, instance.base_commit)]]);
    const list: Candidate[] = await Promise.all(
      candidates.map(async (c) => ({
        sample: c.sample,
        hasPatch: true,
        resolved: [1, 3, 5].includes(c.sample),
        ...(by[c.sample] ? { tests: by[c.sample] as TestEvidence } : {}),
        normalised: (await normalisePatch(c.patch, async (p) => base.get(p))).key,
      })),
    );
    expect(list[0]?.normalised).toBe(list[2]?.normalised);
    expect(list[0]?.normalised).toBe(list[4]?.normalised);

    const agentless = choose(parseChain("regression>reproduction>vote"), list);
    expect(agentless.kept).toEqual([
      { stage: "regression", left: 4 },
      { stage: "reproduction", left: 3 },
      { stage: "vote", left: 3 },
    ]);
    expect(agentless.sample).toBe(1);
    // On the first two alone the chain still submits the right one; a vote of two different fixes
    // goes to the earlier sample.
    expect(choose(parseChain("regression"), list.slice(0, 2)).sample).toBe(1);
    expect(choose(parseChain("vote"), [list[3], list[1]] as Candidate[]).sample).toBe(2);
    expect(choose(parseChain("oracle"), [list[3], list[4]] as Candidate[]).sample).toBe(5);
  });
});

function baseFile(repo: string, commit: string): Promise<string> {
  return git(repo, ["show", `${commit}:textstats/core.py`]);
}

describe("parseChain and choose", () => {
  it("refuses unknown selectors, empty stages and an oracle inside a chain", () => {
    expect(() => parseChain("regression>votes")).toThrow(/no selector "votes" — the selectors are oracle/);
    expect(() => parseChain("vote>>regression")).toThrow(/an empty stage/);
    expect(() => parseChain("regression>oracle")).toThrow(/ceiling/);
    expect(parseChain(" regression > vote ").spec).toBe("regression>vote");
  });

  it("submits nothing when no candidate applies, and says which evidence a chain lacks", () => {
    const none: Candidate[] = [
      { sample: 1, hasPatch: false, resolved: false },
      {
        sample: 2,
        hasPatch: true,
        resolved: false,
        tests: { applied: false, regressions: 0, reproductionsPassed: 0 },
      },
    ];
    expect(choose(parseChain("vote"), none).sample).toBeNull();
    const bare: Candidate[] = [
      { sample: 1, hasPatch: true, resolved: false },
      { sample: 2, hasPatch: true, resolved: true },
    ];
    expect(() => choose(parseChain("regression"), bare)).toThrow(MissingEvidence);
    expect(() => choose(parseChain("vote"), bare)).toThrow(/normalised patch/);
  });

  it("pools reproduction files under names that cannot collide", () => {
    const pooled = poolReproductions([
      { sample: 1, patch: REPRO },
      { sample: 2, patch: REPRO },
    ]);
    expect(pooled.files.map((f) => f.pooledAs)).toEqual(["tests/test_c1_even.py", "tests/test_c2_even.py"]);
    expect(pooled.patch).toContain("+++ b/tests/test_c2_even.py");
  });
});

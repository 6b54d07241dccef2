import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BENCHMARKS } from "./groups.js";

/** The group names docs/benchmarks.md lists after "`npm run bench <name>` runs one group:". */
function documentedGroups(): string[] {
  const doc = readFileSync(join(import.meta.dirname, "..", "docs", "benchmarks.md"), "utf8").replace(
    /\s+/g,
    " ",
  );
  const list = /`npm run bench <name>` runs one group: ([^.]*)\./.exec(doc)?.[1];
  if (list === undefined)
    throw new Error("docs/benchmarks.md no longer lists the groups of `npm run bench <name>`");
  return [...list.matchAll(/`([a-z-]+)`/g)].map((m) => m[1] as string);
}

describe("npm run bench <name>", () => {
  it("accepts every group the docs advertise, and the docs list every group it accepts", () => {
    expect([...BENCHMARKS].sort()).toEqual(documentedGroups().sort());
  });
});

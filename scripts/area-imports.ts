/**
 * Rewrites the "imports" column of docs/architecture.md's area table from the code (what each area
 * really imports), so the table never has to be kept by hand: `npx tsx scripts/area-imports.ts`.
 * test/architecture.test.ts checks the result.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { areaGraph, readSources } from "../test/architecture.js";

const root = join(import.meta.dirname, "..");
const doc = join(root, "docs", "architecture.md");
const graph = areaGraph(readSources(root, ["src"]));
const text = readFileSync(doc, "utf8").replace(
  /^\| `([a-z]+)` \| ([^|]+) \| ([^|]+) \|$/gm,
  (row, area: string, job: string) => {
    if (area === "cli") return row;
    const deps = [...(graph.get(area) ?? [])].filter((a) => a !== "testing").sort();
    return `| \`${area}\` | ${job.trim()} | ${deps.length === 0 ? "—" : deps.join(", ")} |`;
  },
);
writeFileSync(doc, text);

/**
 * How long a repo map takes on a 2,000-file repository (Python, TypeScript, Go and Rust in equal
 * parts, 50–200 lines a file, each file using names defined in others): cold (a fresh cache: every
 * file read and parsed, on worker threads and without them), warm (nothing changed: stat calls
 * only), warm after one file changed (one parse, a new ranking), and warm from the disk cache alone.
 */
import { mkdir, mkdtemp, realpath, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { buildRepoMap, cacheFileFor, TagsCache } from "../src/repomap/index.js";
import { type BenchRow, summarise } from "./stats.js";

const FILES = 2000;
const FILES_PER_DIR = 50;
const COLD_RUNS = 3;
const WARM_RUNS = 10;
const COLD_TARGET_MS = 2000;
const WARM_TARGET_MS = 100;

/** A small deterministic generator (mulberry32): the same repository every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LANGUAGES = ["py", "ts", "go", "rs"] as const;
type Ext = (typeof LANGUAGES)[number];

/** The names file `i` defines: a type and a few functions, named so they are unique to it. */
function typeName(i: number): string {
  return `Record${i}Store`;
}
function funcName(i: number, k: number): string {
  return `loadRecord${i}Part${k}`;
}

/** One unit of about 10 lines in the file's language, calling `uses` (names other files define). */
function unit(ext: Ext, i: number, k: number, uses: string[]): string[] {
  const f = funcName(i, k);
  const calls = uses.map((u) => `${u}(value)`);
  switch (ext) {
    case "py":
      return [
        `def ${f}(value, limit=10):`,
        `    """Load part ${k}."""`,
        "    total = 0",
        ...calls.map((c) => `    total += ${c}`),
        "    for item in range(limit):",
        "        total += item",
        "    return total",
        "",
      ];
    case "ts":
      return [
        `export function ${f}(value: number, limit = 10): number {`,
        "  let total = 0;",
        ...calls.map((c) => `  total += ${c};`),
        "  for (let item = 0; item < limit; item++) {",
        "    total += item;",
        "  }",
        "  return total;",
        "}",
        "",
      ];
    case "go":
      return [
        `func ${f}(value int) int {`,
        "\ttotal := 0",
        ...calls.map((c) => `\ttotal += ${c}`),
        "\tfor item := 0; item < 10; item++ {",
        "\t\ttotal += item",
        "\t}",
        "\treturn total",
        "}",
        "",
      ];
    case "rs":
      return [
        `pub fn ${f}(value: i64) -> i64 {`,
        "    let mut total = 0;",
        ...calls.map((c) => `    total += ${c};`),
        "    for item in 0..10 {",
        "        total += item;",
        "    }",
        "    total",
        "}",
        "",
      ];
  }
}

function typeBlock(ext: Ext, i: number): string[] {
  const t = typeName(i);
  switch (ext) {
    case "py":
      return [
        `class ${t}:`,
        "    def __init__(self, size):",
        "        self.size = size",
        "",
        "    def capacity(self):",
        "        return self.size * 2",
        "",
      ];
    case "ts":
      return [
        `export class ${t} {`,
        "  constructor(private readonly size: number) {}",
        "  capacity(): number {",
        "    return this.size * 2;",
        "  }",
        "}",
        "",
      ];
    case "go":
      return [
        `type ${t} struct {`,
        "\tSize int",
        "}",
        "",
        `func (s *${t}) Capacity() int {`,
        "\treturn s.Size * 2",
        "}",
        "",
      ];
    case "rs":
      return [
        `pub struct ${t} {`,
        "    size: i64,",
        "}",
        "",
        `impl ${t} {`,
        "    pub fn capacity(&self) -> i64 {",
        "        self.size * 2",
        "    }",
        "}",
        "",
      ];
  }
}

function header(ext: Ext, dir: number): string[] {
  if (ext === "py") return ["import os", "from typing import Iterable", ""];
  if (ext === "ts") return ['import { readFileSync } from "node:fs";', ""];
  if (ext === "go") return [`package pkg${dir}`, "", 'import "fmt"', ""];
  return ["use std::collections::HashMap;", ""];
}

/** Files 50–200 lines long, each calling functions of earlier files (the graph is realistic, not uniform). */
export async function generateRepository(dir: string, files = FILES): Promise<string[]> {
  const next = random(42);
  const paths: string[] = [];
  for (let i = 0; i < files; i++) {
    const ext = LANGUAGES[i % LANGUAGES.length] as Ext;
    const folder = Math.floor(i / FILES_PER_DIR);
    const targetLines = 50 + Math.floor(next() * 150);
    const lines = [...header(ext, folder), ...typeBlock(ext, i)];
    for (let k = 0; lines.length < targetLines; k++) {
      // Popular files (low numbers) are used more: a few core modules, many leaves.
      const uses = Array.from({ length: 1 + Math.floor(next() * 3) }, () => {
        const other = Math.floor(next() ** 2 * files);
        return funcName(other, Math.floor(next() * 3));
      });
      lines.push(...unit(ext, i, k, uses));
    }
    const path = `src/mod${folder}/file${i}.${ext}`;
    paths.push(path);
    await mkdir(join(dir, `src/mod${folder}`), { recursive: true });
    await writeFile(join(dir, path), `${lines.join("\n")}\n`);
  }
  return paths;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export async function benchRepoMap(): Promise<BenchRow[]> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "acilab-bench-repomap-")));
  try {
    const paths = await generateRepository(dir);
    const cold: number[] = [];
    const inProcess: number[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      cold.push(await time(() => buildRepoMap({ root: dir, cache: new TagsCache() })));
      inProcess.push(await time(() => buildRepoMap({ root: dir, cache: new TagsCache(), workers: 0 })));
    }
    const cache = new TagsCache();
    await buildRepoMap({ root: dir, cache });
    const warm: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) warm.push(await time(() => buildRepoMap({ root: dir, cache })));
    const touched: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      const moment = new Date(Date.now() + (i + 1) * 1000);
      await utimes(join(dir, paths[i] as string), moment, moment);
      touched.push(await time(() => buildRepoMap({ root: dir, cache })));
    }
    // A new process starts with an empty memory: a fresh TagsCache on the same file is what it sees.
    const file = cacheFileFor(`${dir}-cache`, dir);
    await buildRepoMap({ root: dir, cache: new TagsCache(file) });
    const fromDisk: number[] = [];
    for (let i = 0; i < COLD_RUNS; i++)
      fromDisk.push(await time(() => buildRepoMap({ root: dir, cache: new TagsCache(file) })));
    return [
      summarise("repo map cold (2,000 files)", cold, COLD_TARGET_MS),
      // The same build parsing on the calling thread only: the worker pool's gain, measured in this run.
      summarise("repo map cold, no worker threads", inProcess),
      summarise("repo map warm (2,000 files)", warm, WARM_TARGET_MS),
      summarise("repo map warm, 1 file touched", touched, WARM_TARGET_MS),
      summarise("repo map warm from the disk cache (new process)", fromDisk),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
    await rm(`${dir}-cache`, { recursive: true, force: true });
  }
}

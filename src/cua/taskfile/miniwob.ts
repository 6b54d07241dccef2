/**
 * Task files for a MiniWoB++ checkout (`acilab tasks miniwob`): one per page of its
 * `miniwob/html/miniwob/` folder, in the form docs/computer-use.md shows, so a folder run (`acilab cua
 * --task DIR`) or an experiment can name the benchmark without anyone writing 130 files by hand.
 *
 * Each file does at reset what MiniWoB's own Python environment does (miniwob/selenium_instance.py,
 * begin_task): set the seed, set the data mode ("train", its default), start the episode without the
 * START cover. The instruction is `core.getUtterance()`, except on the pages that override it to give
 * `{utterance, fields}` in train mode (email-inbox-forward-nl, -nl-turk, email-inbox-nl-turk): there
 * the text is its `utterance`, as the Python side reads it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

/** The seed written when none is asked for: every page then draws the same problem each run. */
export const DEFAULT_MINIWOB_SEED = "acilab";
/**
 * MiniWoB's own episode clock is 10 s (core.EPISODE_MAX_TIME), made for agents that act in
 * milliseconds; a model takes seconds per step. The episode's wall clock (10 minutes) is the limit.
 */
const EPISODE_MAX_MS = 600_000;

/** A MiniWoB++ checkout as found on disk. */
export interface MiniwobCheckout {
  /** The folder served: it holds core/, common/ and miniwob/ (the pages reach the first two by ../). */
  html: string;
  /** The pages' names without .html, sorted. */
  pages: string[];
}

/**
 * The checkout under `dir`: the repository's root, its `miniwob/html` folder, or that folder's
 * `miniwob/` pages folder. Throws an Error saying what was looked for and what to pass.
 */
export function findMiniwobCheckout(dir: string): MiniwobCheckout {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory())
    throw new Error(
      `${dir}: no such folder — pass a MiniWoB++ checkout (git clone https://github.com/Farama-Foundation/miniwob-plusplus)`,
    );
  const candidates = [join(root, "miniwob", "html"), root, join(root, "..")];
  for (const html of candidates) {
    const pagesDir = join(html, "miniwob");
    if (!existsSync(join(html, "core", "core.js")) || !existsSync(pagesDir)) continue;
    const pages = readdirSync(pagesDir)
      .filter((name) => name.endsWith(".html"))
      .map((name) => name.slice(0, -".html".length))
      .sort();
    if (pages.length > 0) return { html, pages };
  }
  throw new Error(
    `${dir}: not a MiniWoB++ checkout — looked for miniwob/html/core/core.js and the pages in miniwob/html/miniwob/*.html; pass the repository's root (or its miniwob/html folder)`,
  );
}

/** True when the page's source replaces getUtterance with one that gives `{utterance, fields}`. */
export function givesUtteranceObject(source: string): boolean {
  return /core\.getUtterance\s*=/.test(source) && /['"]?utterance['"]?\s*:/.test(source);
}

export interface MiniwobTaskOptions {
  /** The page's name (click-button). */
  page: string;
  /** The page's HTML, to see whether its getUtterance gives an object. */
  source: string;
  /** The served folder (miniwob/html) relative to the task file's folder. */
  staticDir: string;
  seed: string;
  /** Where it came from (the checkout and its commit), written as the file's first comment. */
  provenance: string;
}

/** One page's task file, as YAML text. */
export function miniwobTaskFile(o: MiniwobTaskOptions): string {
  const instruction = givesUtteranceObject(o.source)
    ? "core.getUtterance().utterance"
    : "core.getUtterance()";
  const setup = `Math.seedrandom(${JSON.stringify(o.seed)}); core.setDataMode("train"); core.EPISODE_MAX_TIME = ${EPISODE_MAX_MS}; core.startEpisodeReal();`;
  // JSON strings are YAML double-quoted scalars; a single-quoted scalar keeps the script's own
  // double quotes readable (a ' inside is written twice).
  const q = (s: string) => JSON.stringify(s);
  const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;
  return [
    `# ${o.provenance}`,
    `# What MiniWoB's Python environment does at reset: the seed (${o.seed}), the "train" data mode,`,
    "# then the episode without its START cover. Written by acilab tasks miniwob.",
    `id: ${q(`miniwob-${o.page}`)}`,
    givesUtteranceObject(o.source)
      ? `instruction_js: ${instruction}   # this page gives {utterance, fields} in train mode`
      : `instruction_js: ${instruction}   # the page's #query text`,
    "app:",
    `  static: ${q(o.staticDir)}   # core/, common/ and miniwob/ served together`,
    `start: ${q(`/miniwob/${o.page}.html`)}`,
    `setup_js: ${literal(setup)}`,
    "grade:",
    "  js: WOB_RAW_REWARD_GLOBAL   # 1 right, -1 wrong; WOB_REWARD_GLOBAL is time-discounted",
    "  done_js: WOB_DONE_GLOBAL",
    "",
  ].join("\n");
}

export interface WrittenMiniwob {
  out: string;
  /** The files written, in page order. */
  files: string[];
  html: string;
}

/**
 * Write one task file per page of the checkout at `dir` into `out` (created; files of the same name
 * are replaced, nothing else is touched). `commit` is the checkout's, when it is a git repository.
 */
export function writeMiniwobTasks(
  dir: string,
  options: { out: string; seed?: string; commit?: string | undefined },
): WrittenMiniwob {
  const checkout = findMiniwobCheckout(dir);
  const out = resolve(options.out);
  if (existsSync(out) && !statSync(out).isDirectory())
    throw new Error(`--out ${options.out}: is a file — give a folder for the task files`);
  mkdirSync(out, { recursive: true });
  const seed = options.seed ?? DEFAULT_MINIWOB_SEED;
  const staticDir = relative(out, checkout.html) || ".";
  const provenance = `MiniWoB++ ${checkout.html}${options.commit ? ` at ${options.commit}` : ""}`;
  const files: string[] = [];
  for (const page of checkout.pages) {
    const source = readFileSync(join(checkout.html, "miniwob", `${page}.html`), "utf8");
    const file = join(out, `${page}.yaml`);
    writeFileSync(
      file,
      miniwobTaskFile({
        page,
        source,
        staticDir: staticDir.startsWith(".") ? staticDir : `./${staticDir}`,
        seed,
        provenance,
      }),
    );
    files.push(file);
  }
  return { out, files, html: checkout.html };
}

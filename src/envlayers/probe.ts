import { existsSync } from "node:fs";
import { type PipSources, PYPI_SIMPLE } from "./sources.js";

/**
 * pip retries an index that does not answer on every requirement of every install line (about 20 s
 * a line behind this machine's proxy). A build asks each configured index once, before its first
 * line, and leaves out those that do not answer — saying so — as a person would edit pip.conf.
 */

/** How long an index may take to answer one request. */
export const PROBE_TIMEOUT_MS = 5_000;

/** Why the index at `url` does not answer, or undefined when it does (any HTTP status counts). */
export async function probeIndex(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<string | undefined> {
  if (url.startsWith("file://") || url.startsWith("/")) {
    const path = url.startsWith("/") ? url : decodeURIComponent(new URL(url).pathname);
    return existsSync(path) ? undefined : `${path} does not exist`;
  }
  try {
    await fetch(url, { method: "HEAD", redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    return undefined;
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (e.name === "TimeoutError") return `no answer within ${timeoutMs / 1000} s`;
    return e.cause?.code ?? e.cause?.message ?? e.message;
  }
}

/**
 * The sources less the indexes that do not answer: a silent main index (PyPI when none is named) is
 * replaced by the first extra index that answers, and with none left pip is told `no-index` (its
 * find-links still serve). `left` names each one left out and why, for the build log.
 */
export async function answeringSources(
  sources: PipSources,
  probe: (url: string) => Promise<string | undefined> = probeIndex,
): Promise<{ sources: PipSources; left: string[] }> {
  if (sources.noIndex) return { sources, left: [] };
  const main = sources.indexUrl ?? PYPI_SIMPLE;
  const candidates = [main, ...sources.extraIndexUrls];
  const verdicts = await Promise.all(candidates.map((url) => probe(url)));
  const answering = candidates.filter((_, i) => verdicts[i] === undefined);
  const left = candidates.flatMap((url, i) =>
    verdicts[i] === undefined
      ? []
      : [`${url}${url === main && sources.indexUrl === undefined ? " (pip's default)" : ""}: ${verdicts[i]}`],
  );
  if (left.length === 0) return { sources, left };
  const [first, ...rest] = answering;
  return {
    sources: {
      ...sources,
      indexUrl: first,
      extraIndexUrls: rest,
      noIndex: first === undefined,
    },
    left,
  };
}

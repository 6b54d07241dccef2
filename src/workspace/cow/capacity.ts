/**
 * How much a checkout may write. Without a cap, six 250 MB files an agent writes land on the host's
 * disk (RLIMIT_FSIZE bounds one file, not their sum); with one, the agent's writes fail with ENOSPC
 * at the cap and the run goes on.
 */

/**
 * Default cap of a checkout's writes: a rollout's edits, caches and build outputs take megabytes (a
 * large repository's compiled tree a few hundred); 4 GiB stops a runaway writer long before the host's
 * disk or memory.
 */
export const DEFAULT_WORKSPACE_BYTES = 4 * 1024 ** 3;

/** The smallest ext4 image that still holds the layers' directories (1 MiB leaves ~950 KiB free). */
export const MIN_WORKSPACE_BYTES = 1024 ** 2;

/** The environment variable that sets the cap for every checkout that does not set its own. */
export const WORKSPACE_BYTES_ENV = "ACILAB_WORKSPACE_BYTES";

const UNITS: Record<string, number> = { "": 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };

/** `4294967296`, `512M`, `4G`, `1.5G` (binary units, an optional trailing `B` or `iB`); else undefined. */
export function parseByteSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*$/i.exec(text);
  if (!m) return undefined;
  const bytes = Math.floor(Number(m[1]) * (UNITS[(m[2] ?? "").toUpperCase()] ?? Number.NaN));
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** A cap given in code: a whole number of bytes, at least MIN_WORKSPACE_BYTES. */
export function checkWorkspaceBytes(bytes: number, what: string): number {
  if (!Number.isSafeInteger(bytes) || bytes < MIN_WORKSPACE_BYTES)
    throw new Error(
      `${what} is ${bytes}: a checkout's size cap must be a whole number of bytes, at least ${MIN_WORKSPACE_BYTES} (1M)`,
    );
  return bytes;
}

/** The cap from ACILAB_WORKSPACE_BYTES, undefined when it is not set. */
export function workspaceBytesFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env[WORKSPACE_BYTES_ENV];
  if (raw === undefined || raw.trim() === "") return undefined;
  const bytes = parseByteSize(raw);
  if (bytes === undefined)
    throw new Error(
      `${WORKSPACE_BYTES_ENV}=${JSON.stringify(raw)} is not a size: give bytes, or a number with K, M or G (e.g. 4G), or unset it for the default (4G)`,
    );
  return checkWorkspaceBytes(bytes, WORKSPACE_BYTES_ENV);
}

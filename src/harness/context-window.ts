/**
 * How many tokens a model can read at once, for compaction's threshold. Known families by name; an
 * unknown model (a local server's) gets 128k, the smallest window of the hosted models acilab
 * targets, so compaction starts too early rather than after the provider refuses the request.
 */
const WINDOWS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^claude-/, 200_000],
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-5/, 400_000],
  [/^gpt-4o/, 128_000],
  [/^o\d/, 200_000],
];

export const DEFAULT_CONTEXT_TOKENS = 128_000;

export function contextWindowOf(model: string | undefined): number {
  const name = (model ?? "").replace(/^[a-z-]+:/, "");
  return WINDOWS.find(([pattern]) => pattern.test(name))?.[1] ?? DEFAULT_CONTEXT_TOKENS;
}

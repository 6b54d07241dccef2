/**
 * The bwrap program: `ACILAB_BWRAP` names another (a build in /opt, a wrapper), else `bwrap` on PATH.
 * The probe and every sandbox use the same one, so the probe's verdict is the sandboxes' verdict.
 */
export function bwrapBinary(env: NodeJS.ProcessEnv = process.env): string {
  return env.ACILAB_BWRAP || "bwrap";
}

/**
 * Choosing one candidate among many: normalised patches for the vote, the visible tests' evidence for
 * the regression and reproduction stages, the selectors and their chains. What a selector sees is what
 * a deployed system sees; only `oracle` reads the hidden verdicts, as the ceiling.
 */

export {
  type BestOfK,
  type SamplingCurves,
  type SelectorCurve,
  samplingCurves,
  type TaskCandidates,
} from "./curves.js";
export { applyFileDiff, type FileDiff, readDiff } from "./diff-files.js";
export {
  type CandidatePatch,
  codePart,
  EvidenceUnavailable,
  gatherTestEvidence,
  pooledName,
  poolReproductions,
  type TaskEvidence,
} from "./evidence.js";
export { type NormalisedPatch, normalisePatch } from "./normalise.js";
export {
  type Candidate,
  type Chain,
  type Choice,
  choose,
  evidenceNeeded,
  MissingEvidence,
  parseChain,
  SELECTOR_NAMES,
  SELECTOR_NEEDS,
  type SelectorName,
  type TestEvidence,
} from "./selectors.js";
export {
  parseScore,
  VERIFIER_MAX_OUTPUT_TOKENS,
  VERIFIER_SYSTEM,
  type VerifierTests,
  verifierPrompt,
} from "./verifier.js";

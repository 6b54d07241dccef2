import { readTrajectory, type TurnRecord } from "../trajectory/index.js";
import { estimateUsage } from "./scripted.js";
import { type Policy, PolicyError, type PolicyReply, type PolicyRequest } from "./types.js";

/**
 * Replays the responses of a recorded trajectory in order. With the same task, tools and sandbox,
 * the run is deterministic: the same calls produce the same observations.
 */
export class ReplayPolicy implements Policy {
  readonly model = undefined;
  private readonly turns: TurnRecord[];
  private cursor = 0;

  constructor(
    readonly spec: string,
    path: string,
  ) {
    const { records } = readTrajectory(path);
    this.turns = records.filter((r): r is TurnRecord => r.type === "turn");
    if (this.turns.length === 0) throw new Error(`${path} has no recorded turns to replay`);
  }

  async next(request: PolicyRequest): Promise<PolicyReply> {
    const turn = this.turns[this.cursor++];
    if (!turn) {
      throw new PolicyError(
        "script_exhausted",
        `${this.spec}: all ${this.turns.length} recorded turns were replayed and the run has not ended`,
      );
    }
    return {
      message: turn.response,
      usage: estimateUsage(request, turn.response),
      model: "replay",
      finishReason: turn.finish_reason,
    };
  }
}

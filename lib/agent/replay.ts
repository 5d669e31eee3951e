/**
 * replay(store, runId): a Model that re-emits the model outputs recorded for a run, in order,
 * instead of calling a live model. It covers the whole tree: a sub-agent's turns are placed where
 * the parent started it, and the replay model drives sub-agents too (see drivesWholeTree).
 * Asked for more turns than were recorded, it fails with NoRecordedOutputError: the replayed loop
 * diverged from the recording.
 */
import { BacktrackError, RunNotFoundError } from "../journal/errors";
import type { Durable, Journal } from "../journal/ports";
import { textOf } from "./messages";
import { drivesWholeTree, type Model, type ModelStreamPart } from "./model";
import type { ModelPayload, SignalPayload } from "./payloads";

export class NoRecordedOutputError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly recordedTurns: number,
    /** The 0-based model call whose request differs from the recorded one (an AI SDK replay); absent when the calls ran out. */
    readonly differingCall?: number,
    /** A tool call (turn:<t>:call:<i>) the replay reached whose result was never recorded (an AI SDK replay). */
    readonly unrecordedCall?: string,
  ) {
    super(
      "no_recorded_output",
      unrecordedCall !== undefined
        ? `the replay of "${runId}" reached tool call ${unrecordedCall}, whose result was not recorded: the recorded run stopped there`
        : differingCall === undefined
          ? `the replay of "${runId}" asked for model turn ${recordedTurns + 1}, but only ${recordedTurns} were recorded: the replayed run diverged`
          : `the replay of "${runId}" differs at model call ${differingCall + 1}: its messages are not the recorded call's, so no recorded output fits`,
    );
  }
}

/** The recorded model turns of a run and its sub-agents, in the order they were asked. */
async function recordedTurns(store: Durable, runId: string): Promise<ModelPayload[]> {
  const turns: ModelPayload[] = [];
  for (const record of await store.history(runId)) {
    if (record.kind === "model") turns.push(record.payload as ModelPayload);
    const signal = record.payload as SignalPayload;
    if (record.kind === "signal" && signal.type === "subagent" && typeof signal.childRunId === "string") {
      turns.push(...(await recordedTurns(store, signal.childRunId)));
    }
  }
  return turns;
}

export async function replay(store: Journal, runId: string): Promise<Model> {
  if (!(await store.run(runId))) throw new RunNotFoundError(runId);
  const turns = await recordedTurns(store, runId);
  let next = 0;
  return drivesWholeTree({
    id: `recorded:${runId}`,
    async *stream(): AsyncIterable<ModelStreamPart> {
      const turn = turns[next];
      if (!turn) throw new NoRecordedOutputError(runId, turns.length);
      next += 1;
      const text = textOf(turn.message);
      if (text) yield { type: "text-delta", text };
      yield { type: "finish", message: structuredClone(turn.message), usage: turn.usage };
    },
  });
}

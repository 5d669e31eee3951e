/**
 * The exact request a run's model turn was asked with, rebuilt by the agent loop itself: the
 * run's records before the turn are copied into a MemStore and the run's agent is driven there
 * under a model that keeps the first request it gets and stops. Everything before the turn is
 * recorded, so the loop replays it (no tool runs again, no model is asked) and asks live exactly
 * at that turn, with the messages, system prompt and tools a live run would have sent: memory
 * composition and inserted user messages included. Nothing is written to the source store.
 */
import type { Model, ModelRequest } from "../agent/model";
import type { HeaderPayload } from "../agent/payloads";
import type { Registry } from "../agent/registry";
import { MemStore } from "../journal/memory-store";
import type { Journal } from "../journal/ports";
import type { JournalRecord, RecordKind } from "../journal/types";
import { sourceHeader } from "../fork/fork-run";
import { TryError } from "./errors";

export interface StepRequest {
  header: HeaderPayload;
  /** The model turn's record at `at` (its recorded output). */
  record: JournalRecord;
  turn: number;
  request: Omit<ModelRequest, "signal" | "seed">;
}

/** Stops the drive once the request is kept: not an error of the run. */
class Captured extends Error {}

/** The model turn at `at` and the request it was asked with. */
export async function requestAt(store: Journal, runId: string, at: number, registry: Registry): Promise<StepRequest> {
  if (!Number.isInteger(at) || at < 1) throw new TryError(runId, at, "the step must be a whole number from 1");
  const header = await sourceHeader(store, runId);
  const [record] = await store.history(runId, { from: at, limit: 1 });
  const turn = record?.kind === "model" ? /^turn:(\d+)$/.exec(record.name)?.[1] : undefined;
  if (!record || turn === undefined)
    throw new TryError(runId, at, record ? `step ${at} is a ${record.kind} record ("${record.name}"), not a model turn` : "the run has no record there");
  if (!registry.hasAgent(header.agent)) throw new TryError(runId, at, `its agent "${header.agent}" is not registered, so its request cannot be rebuilt`);
  const copy = new MemStore();
  for (const earlier of await store.history(runId, { before: at })) await copy.append({ runId, name: earlier.name, kind: earlier.kind as RecordKind, payload: earlier.payload });
  let kept: ModelRequest | undefined;
  const capturing: Model = {
    id: header.model,
    // It never answers: it keeps the request and stops the drive.
    async *stream(request) {
      kept = request;
      throw new Captured();
    },
  };
  await registry
    .agent(header.agent, copy, capturing)
    .runResult(runId, undefined, { model: capturing })
    .catch((error: unknown) => {
      if (!(error instanceof Captured) && !kept)
        throw new TryError(runId, at, `replaying the run up to the turn failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  if (!kept) throw new TryError(runId, at, "replaying the run did not reach that model turn");
  const { signal: _signal, seed: _seed, ...request } = kept;
  return { header, record, turn: Number(turn), request };
}

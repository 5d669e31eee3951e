/**
 * "Fork with this": a playground try (try-step.ts) turned into a fork that goes on live. The try's
 * run holds the source's records before the turn and the try's output as the turn, so the fork is
 * a fork of the try run after that turn: the existing fork path copies it whole in one statement
 * and drives the agent from the try's output on (its tool calls run, or halt before an external
 * tool without `allowEffects`, as any fork's).
 */
import type { AgentEvent } from "../agent/events";
import type { HeaderPayload } from "../agent/payloads";
import type { Registry } from "../agent/registry";
import type { Journal } from "../journal/ports";
import { claimFork, driveFork, forkModel, sourceHeader, type ForkResult } from "../fork/fork-run";
import { TryError } from "./errors";

export interface TryForkOptions {
  registry: Registry;
  allowEffects?: boolean;
  newRunId?: string;
}

/** Checks and writes the fork of a try (`<try run>~fork-<n>`) without driving it; driveFork drives it. */
export async function reserveTryFork(store: Journal, tryRunId: string, options: TryForkOptions): Promise<{ newRunId: string; at: number }> {
  const header = await sourceHeader(store, tryRunId);
  if (!header.tryOf || !header.forkedFrom) throw new TryError(tryRunId, 0, "it is not a playground try");
  const at = header.forkedFrom.at + 1;
  const { model } = forkModel(tryRunId, header, { at, registry: options.registry });
  if (!options.registry.hasAgent(header.agent)) throw new TryError(tryRunId, at, `its agent "${header.agent}" is not registered, so nothing can drive the fork`);
  const { tryOf: _tryOf, ...kept } = header;
  const forkHeader: HeaderPayload = {
    ...kept,
    forkedFrom: { runId: tryRunId, at },
    idempotencyRunId: header.idempotencyRunId ?? header.tryOf.runId,
    ...(options.allowEffects ? { allowEffects: true } : {}),
  };
  const prepared = {
    copy: { sourceRunId: tryRunId, at, header: forkHeader },
    header: forkHeader,
    agent: options.registry.agent(header.agent, store, model),
    model,
    modelName: header.model,
  };
  return { newRunId: await claimFork(store, prepared, options.newRunId), at };
}

/** Forks a try and drives the fork live from the try's output. */
export async function forkTry(store: Journal, tryRunId: string, options: TryForkOptions & { onEvent?: (event: AgentEvent) => void; signal?: AbortSignal }): Promise<ForkResult> {
  const { newRunId } = await reserveTryFork(store, tryRunId, options);
  return driveFork(store, newRunId, {
    registry: options.registry,
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/**
 * The resume policy for runs written by registered agents: the agent named in run:start is
 * rebuilt from the registry (with the model it recorded, when registered) and driven with no
 * input, which resumes it. What recover, wakeDue and the CLI's recover/approve/answer use.
 */
import type { HeaderPayload } from "../agent/payloads";
import type { Registry } from "../agent/registry";
import type { RunResult } from "../agent/agent";
import { RUN_START } from "../journal/names";
import type { Journal, Waker } from "../journal/ports";
import { NoRecordedInputError } from "../agent/errors";
import type { Resume } from "./recover";

export interface RegistryResumeOptions {
  waker?: Waker;
}

export function registryResume(
  registry: Registry,
  store: Journal,
  options: RegistryResumeOptions = {},
): Resume & ((runId: string, context?: { signal?: AbortSignal }) => Promise<RunResult>) {
  return async (runId, context = {}) => {
    const header = await store.record(runId, RUN_START);
    if (!header) throw new NoRecordedInputError(runId, "resume");
    const agent = registry.agentForRun(header.payload as HeaderPayload, store, runId);
    return agent.runResult(runId, undefined, { signal: context.signal, waker: options.waker });
  };
}

/**
 * Reserved record names. A run's names form a tree of prefixes:
 *   run:start                      the frozen input (header)
 *   turn:<t>                       model turn t
 *   turn:<t>:memctx                memory provenance of turn t
 *   turn:<t>:user                  a user message a fork inserted before turn t (signal)
 *   turn:<t>:call:<i>:attempt      written before tool call i of turn t executes
 *   turn:<t>:call:<i>:approval     a human decision on that call
 *   turn:<t>:call:<i>:result       the call's result
 *   turn:<t>:call:<i>:<sub>        durable steps, pauses and sub-agents inside the call:
 *     …:step:<name>                  a ctx.step value
 *     …:ask:<n>, …:ask:<n>:answer    an interrupt's question (signal) and the human's answer
 *     …:sleep:<n>                    a durable sleep's wake time (signal)
 *     …:agent:<n>                    a sub-agent's start (signal)
 *     …:<point>:passed               the tool went on past that pause point (attempt)
 *   turn:<t>:call:<i>:resolution:<n>   a human's resolution of the n-th unknown outcome (signal)
 *   turn:<t>:call:<i>:retry:<n>        the call runs again under resolution n (signal, before it runs)
 *   run:saga:abort                 a saga's failure: rollback starts (signal)
 *   run:saga:<call>:attempt|:compensated   one compensation, at most once
 *   run:complete                   the terminal answer, at most once
 * User steps outside a tool use their own names; they may not start with a reserved prefix.
 */
import { ReservedNameError } from "./errors";

export const RUN_START = "run:start";
export const RUN_COMPLETE = "run:complete";

export const turnName = (turn: number): string => `turn:${turn}`;
export const memoryContextName = (turn: number): string => `turn:${turn}:memctx`;
/** A user message a fork inserted before model turn t (signal `user_message`). */
export const userMessageName = (turn: number): string => `turn:${turn}:user`;
export const callName = (turn: number, index: number): string => `turn:${turn}:call:${index}`;
export const attemptName = (call: string): string => `${call}:attempt`;
export const approvalName = (call: string): string => `${call}:approval`;
export const resultName = (call: string): string => `${call}:result`;

export const resolutionName = (call: string, n: number): string => `${call}:resolution:${n}`;
export const retryName = (call: string, n: number): string => `${call}:retry:${n}`;

export const answerName = (point: string): string => `${point}:answer`;
export const passedName = (point: string): string => `${point}:passed`;

const RESERVED_PREFIXES = ["run:", "turn:"];

/** Throws ReservedNameError for a user step name that could collide with the loop's names. */
export function assertUserStepName(name: string): void {
  if (name.length === 0 || RESERVED_PREFIXES.some((prefix) => name.startsWith(prefix))) {
    throw new ReservedNameError(name);
  }
}

/**
 * A run for bisect tests and the bench: an agent that takes `n` model decisions (each a call to a
 * side-effect-free tool), and a second model that decides differently at decision `flip` only.
 * Shipped beside bisect so that its test and `npm run bench` build the same run.
 */
import { z } from "zod";
import { Agent } from "../agent/agent";
import { Registry } from "../agent/registry";
import { scriptedModel } from "../agent/scripted";
import { tool } from "../agent/tool";

const stepTool = (effects: "none" | "external") =>
  tool({
    name: "step",
    description: "Take one step.",
    effects,
    input: z.object({ i: z.number(), alt: z.boolean().optional() }),
    execute: ({ i }) => ({ done: i }),
  });

/**
 * The models `count/base` and `count/flip` and the agent `counter` for a run of `decisions` model
 * turns. `effects: "external"` makes its tool external, so a fork halts before it (fork_effect).
 */
export function bisectRegistry(decisions: number, flip: number, options: { effects?: "none" | "external" } = {}): Registry {
  const step = stepTool(options.effects ?? "none");
  const script = (alternative: boolean) =>
    scriptedModel(alternative ? "count/flip" : "count/base", (_request, turn) =>
      turn < decisions - 1 ? { toolCalls: [{ name: "step", args: alternative && turn === flip ? { i: turn, alt: true } : { i: turn } }] } : { text: "done" },
    );
  return new Registry()
    .registerModel({ name: "count/base", create: () => script(false) })
    .registerModel({ name: "count/flip", create: () => script(true) })
    .registerAgent({ name: "counter", create: (store, model) => new Agent({ name: "counter", model: model ?? script(false), store, tools: [step], maxTurns: decisions + 1 }) });
}

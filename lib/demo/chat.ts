/** The memory demo's agent: Ada's assistant, whose memory recalls from the `user:ada` scope of the journal's memory bank. */
import { Agent } from "../agent/agent";
import type { Model } from "../agent/model";
import type { Journal } from "../journal/ports";
import { memoryBankFor } from "../memory/banks";
import { recallMemory } from "../memory/recall";
import { CHAT_SYSTEM } from "./chat-script";
import { demoModel } from "./models";

export const CHAT_SCOPE = "user:ada";
export const CHAT_WORKING_MEMORY = "Name: Ada Lovelace. Time zone: Europe/London.";
const CHAT_MEMORIES = ["Ada's dog is named Biscuit.", "Ada prefers aisle seats on long flights.", "Ada's favourite tea is Earl Grey."];

export function assistantAgent(store: Journal, model: Model = demoModel()): Agent {
  return new Agent({
    name: "assistant",
    model,
    store,
    system: CHAT_SYSTEM,
    memory: recallMemory({ bank: memoryBankFor(store), scope: CHAT_SCOPE, workingMemory: CHAT_WORKING_MEMORY }),
  });
}

/** Writes the demo's memories into the journal's bank (idempotent: ids derive from the text). */
export async function rememberDemoMemories(store: Journal): Promise<void> {
  const bank = memoryBankFor(store);
  for (const text of CHAT_MEMORIES) await bank.remember(CHAT_SCOPE, text);
}

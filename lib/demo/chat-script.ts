/**
 * The memory demo's script (part of demo/v1 and demo/v2): Ada's personal assistant answers from
 * what memory composed in front of her question, so a memory-off replay answers differently.
 */
import type { ModelRequest } from "../agent/model";
import type { DemoScript } from "./types";

export const CHAT_SYSTEM = "You are Ada's personal assistant. Answer from what you know about her.";

function userTexts(request: ModelRequest): string {
  return request.messages.map((message) => (message.role === "user" ? message.content : "")).join("\n");
}

export const chatScript: DemoScript = {
  matches: (request) => request.tools.length === 0 && (request.system ?? "").startsWith(CHAT_SYSTEM),
  reply(request, _turn, version) {
    const said = userTexts(request);
    const dog = /dog is named (\p{Lu}\p{L}+)/u.exec(said)?.[1];
    if (/\bdog\b/i.test(said)) {
      if (dog) return { text: version === "v2" ? `${dog}! That is your dog's name.` : `Your dog is called ${dog}.` };
      return { text: version === "v2" ? "I'm not sure what your dog is called." : "I don't know your dog's name yet; tell me and I will remember it." };
    }
    const recalled = /^- (.+)$/m.exec(said)?.[1];
    return { text: recalled ? `From what I remember: ${recalled}` : "I don't know that yet." };
  },
};

/** The AI SDK integration's public names (re-exported by lib/index.ts). */
export { backtrackMiddleware, type BacktrackMiddlewareOptions } from "./middleware";
export { journalTools, type JournalToolsOptions, type JournaledToolOptions } from "./tools";
export { fromAiSdkTools, type FromAiSdkToolsOptions } from "./registry-tools";
export type { AiSdkModelPayload } from "./session";

/**
 * The public names of each package entry, sorted: `backtrack` (lib/index.ts), `backtrack/testing`
 * (lib/testing.ts) and `backtrack/demo` (lib/demo/index.ts), types included. An export added or
 * dropped by accident fails here; a deliberate one updates the list in the same commit (and the
 * entry's comment says what it is for). Names come from the TypeScript checker, so `export *`
 * and `export type *` count exactly as a user of the built declarations sees them.
 */
import ts from "typescript";
import { describe, expect, it } from "vitest";

const MAIN = [
  "Agent", "AgentEntry", "AgentEvent", "AgentMemory", "AgentOptions", "AlreadyDecidedError",
  "AnswerPayload", "AnyTool", "AppendEventResult", "AppendResult", "ApprovalDecision", "ApprovalPayload",
  "AssistantMessage", "AttemptPayload", "BacktrackConfig", "BacktrackError", "BadInputError", "CheckResult",
  "CompensationOutcome", "ConfigError", "ConfigModel", "CreateSessionInput", "DEFAULT_LEASE_TTL_MS",
  "DEFAULT_PAYLOAD_LIMIT_BYTES", "DatabaseLockedError", "DatabaseTarget", "DatabaseUnreachableError",
  "Decided", "DecisionPoint", "DiffDetail", "DiffEntry", "DiffOptions", "DiffStatus", "DiffSummary",
  "DoOptions", "Durable", "DurableEvent", "ErrorCode", "EventActions", "EventQuery", "EventTooLargeError",
  "GetOptions", "HeaderPayload", "HistoryOptions", "InputMismatchError", "Interrupted",
  "InvalidRecordError", "Journal", "JournalNotification", "JournalOptions", "JournalRecord", "JsonValue",
  "LeaseHeldError", "LeaseLostError", "LeaseOptions", "Leaser", "Lister", "MaxTurnsError", "MemWaker",
  "MemWakerOptions", "MemoryBank", "MemoryComposition", "MemoryContextPayload", "MemoryRequest", "Message",
  "Model", "ModelCallError", "ModelDecision", "ModelEntry", "ModelPayload", "ModelRequest",
  "ModelStreamPart", "NewRecord", "NewSessionEvent", "NoMemoryContextError", "NoRecordedInputError",
  "NoRecordedOutputError", "NotWaitingError", "PassedPayload", "PauseReason", "PauseSignal", "PauseState",
  "PayloadTooLargeError", "PendingApproval", "PostgresStore", "PostgresWaker", "REALIGN_MAX_EDITS",
  "RECORDED_MODEL", "RECORD_KINDS", "RUN_COMPLETE", "RUN_START", "RUN_STATUSES", "ReadOnlyStateError",
  "RealignInfo", "RebuildCheck", "RebuildMismatchError", "RecallMemoryOptions", "RecalledMemory",
  "RecordKind", "RecoverOptions", "RecoverResult", "RecoveredRun", "RecoveryError", "RecoveryOutcome",
  "Registry", "RegistryResumeOptions", "RegressionReport", "ReplayFailedError", "ReplayRunOptions",
  "ReplayRunResult", "ReplayTargetExistsError", "ReplayToolsError", "ReservedNameError", "Resolution",
  "ResolutionPayload", "Resume", "ResumeHalt", "RunDiff", "RunFailure", "RunInput", "RunNotCompleteError",
  "RunNotFoundError", "RunOptions", "RunPage", "RunQuery", "RunResult", "RunStatus", "RunStatusPatch",
  "RunSummary", "SagaAbortedError", "Scorer", "Session", "SessionEvent", "SessionExistsError",
  "SessionNotFoundError", "SessionQuery", "SessionRef", "SessionService", "SessionServiceOptions",
  "SessionSummary", "SignalPayload", "SleepPayload", "Sleeping", "SqlMemoryBank", "StaleSessionError",
  "State", "StateDelta", "StateDifference", "StateScope", "StoreOptions", "StoredMemory", "StripDisclosure",
  "TextPart", "Tool", "ToolCallPart", "ToolCallSignature", "ToolContext", "ToolDecision", "ToolDescription",
  "ToolMessage", "ToolResultPart", "ToolResultPayload", "ToolSafety", "ToolStatus", "UnfinishedQuery",
  "UnfinishedRun", "UnknownNameError", "Usage", "UserMessage", "ValuePayload", "Wake", "WakeOptions",
  "Waker", "answer", "applyConfig", "approve", "canonicalJson", "checkReplay", "collect", "decisionPoints",
  "defaultHolder", "defineConfig", "diffRecords", "diffRuns", "fromAiSdk", "inputMessages",
  "isBacktrackError", "isComplete", "isKnownKind", "isLeaser", "isLister", "isPause", "lease",
  "memoryBankFor", "openDatabase", "openStore", "projectEvents", "recallMemory", "recover",
  "registryResume", "regressionReport", "renderMermaid", "replay", "replayEvents", "replayRun",
  "resolveDatabase", "resolveHalt", "scopeOf", "sleep", "stableHash", "textOf", "tool", "toolCallsOf",
  "unfinished", "wakeDue", "withWaker",
];

const TESTING = [
  "FaultPlan", "MemMemoryBank", "MemStore", "Script", "ScriptedOptions", "ScriptedReply",
  "SimulatedCrashError", "crashAt", "scriptedModel", "toolResults", "userText",
];

const DEMO = [
  "CartRecording", "DemoProgress", "DemoRun", "DemoVersion", "LiveDemoOptions", "TICKET_BOOKING",
  "demoModel", "demoRegistry", "demoRuns", "liveAgent", "runLiveDemo", "ticketBookingEvents", "writeDemo",
  "writeTicketBooking",
];

const ENTRIES = { "lib/index.ts": MAIN, "lib/testing.ts": TESTING, "lib/demo/index.ts": DEMO };

function publicNames(): Record<string, string[]> {
  const program = ts.createProgram(Object.keys(ENTRIES), {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  return Object.fromEntries(
    Object.keys(ENTRIES).map((entry) => {
      const file = program.getSourceFile(entry);
      const entryModule = file && checker.getSymbolAtLocation(file);
      if (!entryModule) throw new Error(`${entry} is not a module`);
      return [entry, checker.getExportsOfModule(entryModule).map((symbol) => symbol.name).sort()];
    }),
  );
}

describe("the public names of the package entries", () => {
  it("are exactly the listed ones, and no entry shares a name with another", () => {
    const names = publicNames();
    expect(names["lib/index.ts"]).toEqual(MAIN);
    expect(names["lib/testing.ts"]).toEqual(TESTING);
    expect(names["lib/demo/index.ts"]).toEqual(DEMO);
    const all = [...MAIN, ...TESTING, ...DEMO];
    expect(new Set(all).size).toBe(all.length);
  }, 120_000);

  it("keep the lists sorted, so a diff of the lists reads as the change", () => {
    for (const list of Object.values(ENTRIES)) expect([...list].sort()).toEqual(list);
  });
});

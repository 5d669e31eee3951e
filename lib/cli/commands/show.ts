import type { Command } from "commander";
import { RunNotFoundError } from "../../journal/errors";
import { aggregateOutline, aggregateSource } from "../../inspect/aggregate";
import { buildFlow } from "../../inspect/flow";
import { outline } from "../../inspect/outline";
import { projectEvents } from "../../inspect/events";
import { flowToMermaid } from "../../inspect/mermaid";
import type { PostgresStore } from "../../store/postgres-store";
import { common, printJson, printLine, table, withStore, type CommonOptions } from "../context";

async function load(store: PostgresStore, runId: string) {
  const run = await store.run(runId);
  if (!run) throw new RunNotFoundError(runId);
  return { run, records: await store.history(runId) };
}

/** These commands only read: they work on an embedded folder this process cannot write. */
const READ_ONLY = { readOnly: true };

function brief(payload: unknown): string {
  const text = JSON.stringify(payload) ?? "";
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

export function registerShow(program: Command): void {
  common(program.command("show <run>").description("a run's summary and records")).action(async (runId: string, options: CommonOptions) => {
    await withStore(
      options,
      async (store) => {
        const { run, records } = await load(store, runId);
        if (options.json) return printJson({ run, records });
        printLine(`${run.runId}  ${run.agent ?? ""}  ${run.pause ? `paused: ${run.pause.message}` : run.status}`);
        printLine(`${run.recordCount} records, ${run.modelTurns} model turns, ${run.inputTokens}+${run.outputTokens} tokens, started ${run.startedAt}`);
        if (run.error) printLine(`error: ${run.error}`);
        printLine();
        printLine(table([["SEQ", "KIND", "NAME", "PAYLOAD"], ...records.map((record) => [String(record.seq), record.kind, record.name, brief(record.payload)])]));
      },
      READ_ONLY,
    );
  });

  common(
    program
      .command("mermaid <run>")
      .description("a run's Mermaid flowchart")
      .option("--aggregate", "one node per distinct step (LLM, each tool, each sub-agent, each durable step), edges counted: the run's shape"),
    { json: false },
  ).action(async (runId: string, options: CommonOptions & { aggregate?: boolean }) => {
    await withStore(
      options,
      async (store) => {
        const { records } = await load(store, runId);
        printLine(options.aggregate ? aggregateSource(aggregateOutline(outline(records))) : flowToMermaid(buildFlow(records)));
      },
      READ_ONLY,
    );
  });

  common(program.command("events <run>").description("a run's durable events (AssistantTurn, ToolCompleted)")).action(async (runId: string, options: CommonOptions) => {
    await withStore(
      options,
      async (store) => {
        const { records } = await load(store, runId);
        const events = projectEvents(records);
        if (options.json) return printJson({ runId, events });
        for (const event of events) {
          if (event.type === "AssistantTurn") {
            const text = event.message.content.map((part) => (part.type === "text" ? part.text : `→ ${part.toolName}(${JSON.stringify(part.args)})`)).join(" ");
            printLine(`AssistantTurn (replayed) ${text}`);
          } else {
            printLine(`ToolCompleted ${event.name} [${event.toolUseId}]${event.isError ? " error" : ""}: ${brief(event.result)}`);
          }
        }
      },
      READ_ONLY,
    );
  });
}

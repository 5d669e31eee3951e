import type { Command } from "commander";
import { priceTable } from "../../agent/price-catalog";
import { formatUsd, runCost, type PriceTable } from "../../agent/pricing";
import { loadRegistry } from "../../config/file";
import { demoRegistry } from "../../demo/registry";
import { RunNotFoundError } from "../../journal/errors";
import { aggregateOutline, aggregateSource } from "../../inspect/aggregate";
import type { JournalRecord } from "../../journal/types";
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

/** The kept price table with the config's and the demo's prices on top (a config that fails to load leaves the table alone, with a warning). */
export async function prices(): Promise<PriceTable> {
  try {
    return priceTable((await loadRegistry(demoRegistry())).prices());
  } catch (error) {
    process.stderr.write(`warning: costs use the kept price table only: ${error instanceof Error ? error.message : String(error)}\n`);
    return priceTable();
  }
}

/** What the run's model turns cost (costUsd null when a turn's model has no price). */
export function costOfRecords(records: readonly JournalRecord[], table: PriceTable) {
  const turns = records
    .filter((record) => record.kind === "model")
    .map((record) => {
      const payload = (record.payload ?? {}) as { model?: unknown; usage?: { inputTokens?: unknown; outputTokens?: unknown } };
      const tokens = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);
      return {
        model: typeof payload.model === "string" ? payload.model : undefined,
        inputTokens: tokens(payload.usage?.inputTokens),
        outputTokens: tokens(payload.usage?.outputTokens),
      };
    });
  return { ...runCost(turns, table.prices), table: { version: table.version, source: table.source, date: table.date } };
}

function brief(payload: unknown): string {
  const text = JSON.stringify(payload) ?? "";
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

export function registerShow(program: Command): void {
  common(program.command("show <run>").description("a run's summary, cost (by model, at the kept price table and backtrack.config.ts pricing) and records")).action(
    async (runId: string, options: CommonOptions) => {
      await withStore(
        options,
        async (store) => {
          const { run, records } = await load(store, runId);
          const cost = costOfRecords(records, await prices());
          if (options.json) return printJson({ run, costUsd: cost.costUsd, cost, records });
          printLine(`${run.runId}  ${run.agent ?? ""}  ${run.pause ? `paused: ${run.pause.message}` : run.status}`);
          printLine(`${run.recordCount} records, ${run.modelTurns} model turns, ${run.inputTokens}+${run.outputTokens} tokens, started ${run.startedAt}`);
          const byModel = cost.byModel.map((row) => `${row.model} ${row.price ? formatUsd(row.costUsd) : "no price"}`).join(", ");
          printLine(`cost ${formatUsd(cost.costUsd)}${byModel ? ` (${byModel})` : ""}, prices ${cost.table.version}`);
          if (run.error) printLine(`error: ${run.error}`);
          printLine();
          printLine(table([["SEQ", "KIND", "NAME", "PAYLOAD"], ...records.map((record) => [String(record.seq), record.kind, record.name, brief(record.payload)])]));
        },
        READ_ONLY,
      );
    },
  );

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

/** A run's `costUsd` and `cost` as `show --json` gives them: what other commands' JSON adds for the run they wrote. */
export async function runCostFields(store: Pick<PostgresStore, "history">, runId: string) {
  const cost = costOfRecords(await store.history(runId), await prices());
  return { costUsd: cost.costUsd, cost };
}

/**
 * Large runs for the UI benchmark, written quickly: an auditor-shaped run (a model turn asking
 * for two tool calls, then each call's attempt and result; the model's answer and run:complete
 * at the end), inserted in bulk into the journal's tables with the same rows the store's append
 * writes (dense seqs, the summary row folded with summaryDelta). The append path itself is
 * measured by bench/journal.ts; here only the reading side is under test.
 */
import { summaryDelta } from "../lib/journal/summary";
import type { NewRecord, RecordKind } from "../lib/journal/types";
import type { PostgresStore } from "../lib/store/postgres-store";

/** Milliseconds between two records' write times (INSERT_RECORDS spaces them so). */
const RECORD_GAP_MS = 10;

interface BigRecord extends NewRecord {
  seq: number;
}

/**
 * The records of an auditor-shaped run of exactly `count` records (count ≥ 2). From model turn
 * `divergeAt` on, the accounts' balances differ by one: the same run as another model or tool
 * version would write it, for diffing two large runs (the diff page's benchmark).
 */
export function bigRunRecords(runId: string, count: number, divergeAt = Number.POSITIVE_INFINITY, writtenAt = Date.now()): BigRecord[] {
  const records: BigRecord[] = [];
  const push = (name: string, kind: RecordKind, payload: unknown) => records.push({ runId, seq: records.length, name, kind, payload });
  // Each record is written RECORD_GAP_MS after the one before (see INSERT_RECORDS), the last at `writtenAt`;
  // a model turn or tool call started its duration before its record was written.
  const startedAt = (durationMs: number) => new Date(writtenAt - (count - records.length) * RECORD_GAP_MS - durationMs).toISOString();
  push("run:start", "header", {
    input: `Audit ${count} records worth of accounts for anomalies.`,
    agent: "auditor",
    model: "demo/v1",
    tools: ["checkAccount"],
    system: "You audit accounts.",
  });
  for (let turn = 0; records.length < count - 2; turn += 1) {
    const calls = [0, 1].map((index) => ({
      type: "tool-call" as const,
      toolCallId: `call-${turn}-${index}`,
      toolName: "checkAccount",
      args: { accountId: `acct-${turn * 2 + index}` },
    }));
    const text = turn % 10 === 0 ? `Checking accounts ${turn * 2} and ${turn * 2 + 1}; the balances so far look ordinary, but I will keep an eye on anything near the limit.` : "";
    push(`turn:${turn}`, "model", {
      message: { role: "assistant", content: [...(text ? [{ type: "text", text }] : []), ...calls] },
      usage: { inputTokens: 900 + (turn % 50) * 40, outputTokens: 40 },
      model: "demo/v1",
      durationMs: 15,
      startedAt: startedAt(15),
    });
    for (const [index, call] of calls.entries()) {
      if (records.length >= count - 2) break;
      const name = `turn:${turn}:call:${index}`;
      push(`${name}:attempt`, "attempt", { toolCallId: call.toolCallId, toolName: call.toolName, args: call.args, idempotencyKey: `${runId}-${turn}-${index}` });
      if (records.length >= count - 2) break;
      const number = turn * 2 + index;
      push(`${name}:result`, "tool_result", {
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        args: call.args,
        result: { accountId: call.args.accountId, balance: ((number * 7919) % 10_000) + (turn >= divergeAt ? 1 : 0), flagged: number % 197 === 13 },
        isError: number % 509 === 7,
        durationMs: 3,
        startedAt: startedAt(3),
      });
    }
  }
  push(`turn:final`, "model", {
    message: { role: "assistant", content: [{ type: "text", text: "Audit done." }] },
    usage: { inputTokens: 1_000, outputTokens: 5 },
    model: "demo/v1",
    durationMs: 9,
    startedAt: startedAt(9),
  });
  push("run:complete", "value", { value: { text: "Audit done." } });
  return records;
}

const BATCH = 2_000;

const INSERT_RECORDS = `
INSERT INTO records (run_id, seq, name, kind, payload, created_at)
SELECT run_id, seq, name, kind, payload, now() - (($2::int - seq) * interval '10 milliseconds')
FROM json_to_recordset($1::text::json) AS r(run_id text, seq int, name text, kind text, payload json)`;

/** Writes a run of `count` records in bulk (see the file comment) and returns its id. */
export async function writeBigRun(store: PostgresStore, runId: string, count: number, divergeAt?: number): Promise<string> {
  const records = bigRunRecords(runId, count, divergeAt);
  for (let start = 0; start < records.length; start += BATCH) {
    const batch = records.slice(start, start + BATCH).map((record) => ({ run_id: record.runId, seq: record.seq, name: record.name, kind: record.kind, payload: record.payload }));
    await store.client.query(INSERT_RECORDS, [JSON.stringify(batch), records.length]);
  }
  const totals = { modelTurns: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0 };
  let agent: string | null = null;
  let inputText: string | null = null;
  for (const record of records) {
    const delta = summaryDelta(record);
    agent ??= delta.agent;
    inputText ??= delta.inputText;
    totals.modelTurns += delta.modelTurns;
    totals.toolCalls += delta.toolCalls;
    totals.inputTokens += delta.inputTokens;
    totals.outputTokens += delta.outputTokens;
  }
  await store.client.query(
    `INSERT INTO runs (run_id, agent, input_text, status, model_turns, tool_calls, input_tokens, output_tokens, started_at, updated_at, completed_at)
     VALUES ($1, $2, $3, 'complete', $5, $6, $7, $8, now() - ($4::int * interval '10 milliseconds'), now(), now())`,
    [runId, agent, inputText, records.length, totals.modelTurns, totals.toolCalls, totals.inputTokens, totals.outputTokens],
  );
  const check = await store.run(runId);
  if (check?.lastSeq !== count - 1) throw new Error(`run ${runId} has lastSeq ${check?.lastSeq}, expected ${count - 1}`);
  return runId;
}

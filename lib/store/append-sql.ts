/**
 * The append statements. Each is a whole append in one statement (one round trip, one commit):
 * it inserts the record at the next seq and keeps the run's summary row. Listeners are notified
 * after it, in batches (notify-batch.ts): a NOTIFY inside the append would serialise the commits
 * of concurrent appends.
 *
 * Invariants:
 * - the first writer of a name wins: a second insert of (run_id, name) fails the unique key and the
 *   whole statement rolls back; the caller then reads the winner's record;
 * - seq is dense per run: a record goes in at the seq after the run's last one (given by the caller
 *   when it knows it, else read from the records' primary key); two writers that pick the same
 *   seq collide on the primary key and the loser tries again, so no seq is skipped or doubled;
 * - the summary row is written only when the record changes it (SummaryDelta.changesSummary, a run
 *   no longer running, or updated_at over a second old): most records (values, attempts) then
 *   write one row, not two. A run's length is read from the records, never from the summary row;
 * - statements that may write the summary say whether they did (`summarized`); for a second after
 *   that, the caller may append a record that changes nothing in it with APPEND_INSERT_AT_SQL, a
 *   bare INSERT, since the summary condition would be false anyway (unless another process set
 *   the run's status meanwhile: the next write due within the second puts it right);
 * - a model record marks the run's cost due (lib/store/cost-sql.ts) in the statement that counts it.
 *
 * Parameters: $1 run id, $2 name, $3 kind, $4 payload text, $5 agent, $6 parent run id, $7 input
 * text, $8 model turns, $9 tool calls, $10 input tokens, $11 output tokens, $12 status after the
 * record, $13 completes the run, $14 changes the summary; APPEND_AT_SQL adds $15, the seq, and
 * APPEND_FIRST_SQL adds $15, the run's origin.
 */
import type { SummaryDelta } from "../journal/summary";
import type { NewRecord } from "../journal/types";
import { isoText } from "./rows";

export const JOURNAL_CHANNEL = "backtrack_journal";

/** A new record's time, as the ISO text the journal hands back. */
const CREATED_AT = `${isoText("created_at")} AS created_at`;

/** When the summary row is written: the record changes it ($14), or the run is no longer running, or its row is a second old. */
const SUMMARY_DUE = `($14::boolean OR r.status <> $12::text OR r.pause IS NOT NULL OR r.error IS NOT NULL
         OR r.updated_at < now() - interval '1 second')`;

const SUMMARY = `
  UPDATE runs AS r SET
    agent = COALESCE(r.agent, $5::text),
    parent_run_id = COALESCE(r.parent_run_id, $6::text),
    input_text = COALESCE(r.input_text, $7::text),
    model_turns = r.model_turns + $8::int,
    tool_calls = r.tool_calls + $9::int,
    input_tokens = r.input_tokens + $10::int,
    output_tokens = r.output_tokens + $11::int,
    cost_due = r.cost_due OR $8::int > 0,
    status = $12::text,
    pause = NULL,
    error = NULL,
    updated_at = now(),
    completed_at = CASE WHEN $13::boolean THEN now() ELSE r.completed_at END
  WHERE r.run_id = $1::text AND ${SUMMARY_DUE}
  RETURNING 1`;

/** The hot path: the caller knows the run's last seq (so its summary row exists) and passes the next. */
export const APPEND_AT_SQL = `
WITH summary AS (${SUMMARY}),
ins AS (
  INSERT INTO records (run_id, seq, name, kind, payload) VALUES ($1::text, $15::int, $2::text, $3::text, $4::text::json)
  RETURNING seq, ${CREATED_AT}
)
SELECT ins.seq, ins.created_at, (SELECT count(*) FROM summary)::int AS summarized FROM ins`;

/**
 * APPEND_AT_SQL for the commonest record, one that changes nothing in the summary (a value, an
 * attempt: SummaryDelta.changesSummary false, so status running and every count 0): the same
 * effect with five parameters, $1 run id, $2 name, $3 kind, $4 payload text, $5 the seq.
 */
export const APPEND_PLAIN_AT_SQL = `
WITH summary AS (
  UPDATE runs AS r SET status = 'running', pause = NULL, error = NULL, updated_at = now()
  WHERE r.run_id = $1::text AND ${SUMMARY_DUE.replace("$14::boolean", "false").replaceAll("$12::text", "'running'")}
  RETURNING 1
), ins AS (
  INSERT INTO records (run_id, seq, name, kind, payload) VALUES ($1::text, $5::int, $2::text, $3::text, $4::text::json)
  RETURNING seq, ${CREATED_AT}
)
SELECT ins.seq, ins.created_at, (SELECT count(*) FROM summary)::int AS summarized FROM ins`;

/** APPEND_PLAIN_AT_SQL within a second of this process writing the run's summary row: the record
 * alone, the same five parameters. */
export const APPEND_INSERT_AT_SQL = `
INSERT INTO records (run_id, seq, name, kind, payload) VALUES ($1::text, $5::int, $2::text, $3::text, $4::text::json)
RETURNING seq, ${CREATED_AT}`;

/** The run's next seq is read from its records. No rows back means the run has no summary row (yet). */
export const APPEND_SQL = `
WITH summary AS (${SUMMARY}),
ins AS (
  INSERT INTO records (run_id, seq, name, kind, payload)
  SELECT $1::text, COALESCE(max(seq), -1) + 1, $2::text, $3::text, $4::text::json FROM records WHERE run_id = $1::text
  HAVING EXISTS (SELECT 1 FROM runs WHERE run_id = $1::text)
  RETURNING seq, ${CREATED_AT}
)
SELECT ins.seq, ins.created_at, (SELECT count(*) FROM summary)::int AS summarized FROM ins`;

/** A run's first record (run:start, or any first write): creates the summary row; a run without
 * one has no records, so this record is seq 0. No rows back means another writer created it first. */
export const APPEND_FIRST_SQL = `
WITH created AS (
  INSERT INTO runs (run_id, agent, parent_run_id, input_text, model_turns, tool_calls, input_tokens, output_tokens, status, completed_at, origin)
  VALUES ($1::text, $5::text, $6::text, $7::text, $8::int, $9::int, $10::int, $11::int, $12::text,
          CASE WHEN $13::boolean THEN now() END, $15::text)
  ON CONFLICT (run_id) DO NOTHING
  RETURNING 0 AS seq
), ins AS (
  INSERT INTO records (run_id, seq, name, kind, payload)
  SELECT $1::text, created.seq, $2::text, $3::text, $4::text::json FROM created
  RETURNING seq, ${CREATED_AT}
)
SELECT ins.seq, ins.created_at, 1 AS summarized, $14::boolean AS changes FROM ins`;

/** How an append finds its seq: given by the caller ("at"), new run ("first"), read from the run ("next"). */
export type AppendPath = "at" | "first" | "next";

/**
 * The statement for one append along `path`, and its parameters (nextSeq is required for "at").
 * `summaryFresh`: this process wrote the run's summary row less than a second ago.
 */
export function appendStatement(path: AppendPath, record: NewRecord, payloadText: string, delta: SummaryDelta, nextSeq?: number, summaryFresh = false): [string, unknown[]] {
  if (path === "at" && !delta.changesSummary) return [summaryFresh ? APPEND_INSERT_AT_SQL : APPEND_PLAIN_AT_SQL, [record.runId, record.name, record.kind, payloadText, nextSeq]];
  const params: unknown[] = [
    record.runId,
    record.name,
    record.kind,
    payloadText,
    delta.agent,
    delta.parentRunId,
    delta.inputText,
    delta.modelTurns,
    delta.toolCalls,
    delta.inputTokens,
    delta.outputTokens,
    delta.status,
    delta.completed,
    delta.changesSummary,
  ];
  if (path === "at") return [APPEND_AT_SQL, [...params, nextSeq]];
  return path === "first" ? [APPEND_FIRST_SQL, [...params, delta.origin]] : [APPEND_SQL, params];
}

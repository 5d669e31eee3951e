/**
 * OTLP ingest's staging (lib/otel): one row per trace (a version every write bumps, so two
 * writers of one trace cannot both win) and one row per span received (its span id makes a
 * retried export a no-op). A span's `data` is kept only while it waits to be journaled; once its
 * records are written, `run_id` and `note` say where they went. See lib/store/otel-sql.ts.
 */
import { integer, json, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

export const otelTraces = pgTable("otel_traces", {
  traceId: text("trace_id").primaryKey(),
  version: integer("version").notNull().default(1),
  runIds: json("run_ids").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

export const otelSpans = pgTable(
  "otel_spans",
  {
    traceId: text("trace_id").notNull(),
    spanId: text("span_id").notNull(),
    parentSpanId: text("parent_span_id"),
    startNs: text("start_ns").notNull(),
    runId: text("run_id"),
    note: json("note"),
    data: json("data"),
  },
  (table) => [primaryKey({ columns: [table.traceId, table.spanId] })],
);

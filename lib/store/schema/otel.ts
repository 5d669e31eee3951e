/**
 * OTLP ingest's staging (lib/otel): one row per trace, with a version every write bumps (so two
 * writers of one trace cannot both win) and the trace's staged spans as one JSON list: each
 * span's id (a retried export is a no-op), where its records went and what later spans need of
 * it, and its data while it waits to be journaled. One row a trace, not one a span: a request
 * of 512 spans writes tens of rows here, not hundreds. See lib/store/otel-sql.ts.
 */
import { integer, json, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const otelTraces = pgTable("otel_traces", {
  traceId: text("trace_id").primaryKey(),
  version: integer("version").notNull().default(1),
  runIds: json("run_ids").notNull(),
  /** [spanId, parentSpanId, startNs, runId, note, data] per staged span. */
  spans: json("spans").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

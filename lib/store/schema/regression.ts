/** The regression area's table: memories an agent's memory component recalls (lib/memory/banks.ts). */
import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per memory. `scope` names whose memory it is (a user, a tenant); recall reads one scope.
 * The id is derived from scope and text unless given, so remembering the same thing twice is one row.
 */
export const memories = pgTable(
  "memories",
  {
    id: text("id").primaryKey(),
    scope: text("scope").notNull(),
    text: text("text").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [index("memories_scope_created_idx").on(table.scope, table.createdAt.desc(), table.id.desc())],
);

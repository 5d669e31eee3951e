/** The store for a page, or the database problem to show instead of the page. */
import "server-only";
import type { PostgresStore } from "@/lib/store";
import { databaseProblem, type DatabaseProblem } from "./problem";
import { getStore } from "./store";

export type PageStore = { store: PostgresStore; problem?: undefined } | { store?: undefined; problem: DatabaseProblem };

export async function pageStore(): Promise<PageStore> {
  try {
    return { store: await getStore() };
  } catch (error) {
    const problem = databaseProblem(error);
    if (problem) return { problem };
    throw error;
  }
}

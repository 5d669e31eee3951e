/** The server's suite store (beside its journal) and the suite-name check every suites route shares. */
import "server-only";
import { checkSuiteName } from "@/lib/suites/errors";
import { suiteStore } from "@/lib/suites/pins";
import type { SuiteStore } from "@/lib/suites/store";
import type { PostgresStore } from "@/lib/store/postgres-store";
import { getStore } from "./store";

export async function serverSuites(): Promise<{ store: PostgresStore; suites: SuiteStore }> {
  const store = await getStore();
  return { store, suites: suiteStore(store) };
}

export { checkSuiteName };

import type { Command } from "commander";
import { common, printLine, withStore, type CommonOptions } from "../context";

export function registerMigrate(program: Command): void {
  common(program.command("migrate").description("apply the database migrations (also done on every start)"), { json: false }).action(async (options: CommonOptions) => {
    // Opening the store applies the migrations in drizzle/ (under an advisory lock on a server).
    await withStore(options, async (store) => printLine(`migrated ${store.client.target}`));
  });
}

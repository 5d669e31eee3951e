import type { Command } from "commander";
import { writeDemo } from "../../demo/seed";
import { common, printJson, printLine, withStore, type CommonOptions } from "../context";

export function registerDemo(program: Command): void {
  common(program.command("demo").description("write the demo runs (scripted models, the real agent loop)")).action(async (options: CommonOptions) => {
    await withStore(options, async (store) => {
      const written = await writeDemo(store, (progress) => {
        if (!options.json) printLine(`${progress.state.padEnd(7)} ${progress.runId.padEnd(14)} ${progress.about}`);
      });
      if (options.json) printJson({ runs: written });
    });
  });
}

/**
 * The global setup of the soak and the fleet (vitest.soak.config.ts, vitest.fleet.config.ts): as
 * global-setup.ts, without the embedded template. Both run on the server alone, and the template's
 * initdb and migrations cost seconds before their first test.
 */
import type { TestProject } from "vitest/node";
import { setupDatabases } from "./global-setup";

export default function setup(project: TestProject) {
  return setupDatabases(project, { embedded: false });
}

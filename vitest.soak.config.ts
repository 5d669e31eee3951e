/** The multi-process soak on its own (see vitest.config.ts): `npm run test:soak`. */
import { configDefaults, defineConfig } from "vitest/config";
import { base, SERVER_ONLY_SETUP, SOAK } from "./vitest.config";

export default defineConfig({ ...base, test: { ...base.test, include: [SOAK], exclude: [...configDefaults.exclude], globalSetup: SERVER_ONLY_SETUP, maxWorkers: 1 } });

/** The fleet test on its own, after `npm run build` (see vitest.config.ts): `npm run test:fleet`. */
import { configDefaults, defineConfig } from "vitest/config";
import { base, FLEET, SERVER_ONLY_SETUP } from "./vitest.config";

export default defineConfig({ ...base, test: { ...base.test, include: [FLEET], exclude: [...configDefaults.exclude], globalSetup: SERVER_ONLY_SETUP, maxWorkers: 1 } });

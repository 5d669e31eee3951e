/**
 * One process owns an embedded folder; a second process is served through the owner and never
 * opens the data itself. Real processes, real PGlite.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DatabaseLockedError } from "@/lib/journal/errors";
import { openStore } from "@/lib/store";
import { startTs, type Child } from "../helpers/processes";
import { embeddedFolder, tempFolder } from "../helpers/databases";

const CHILD = "tests/fixtures/embedded-child.ts";
const children: Child[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.process.kill("SIGKILL");
});

describe("embedded database shared by two processes", () => {
  it("serves a second process through the owner: both write, nothing is lost, seq stays dense", async () => {
    // A brand-new folder: the owner creates the database and runs every migration.
    const folder = tempFolder();
    const owner = startTs(CHILD, [folder.path, "shared", "200", "hold"]);
    children.push(owner);
    expect(await owner.waitFor(/^kind=/)).toBe("kind=embedded");
    const guest = await openStore({ url: `pglite:${folder.path}` });
    expect(guest.client.kind).toBe("embedded-remote");
    // Both processes write to one run at once.
    for (let index = 0; index < 50; index += 1) await guest.append({ runId: "shared", name: `guest-${index}`, kind: "value", payload: { index } });
    await owner.waitFor(/^done$/);
    owner.process.kill("SIGTERM");
    expect(await owner.exited).toBe(0);
    await guest.close();
    // The owner is gone: this process takes the folder over and finds every record.
    const after = await openStore({ url: `pglite:${folder.path}` });
    expect(after.client.kind).toBe("embedded");
    const history = await after.history("shared");
    expect(history).toHaveLength(250);
    expect(history.map((record) => record.seq)).toEqual([...Array(250).keys()]);
    expect(history.filter((record) => record.name.startsWith("guest-"))).toHaveLength(50);
    await after.close();
    folder.remove();
  });

  it("a second writing process joins through the owner rather than opening the data", async () => {
    const folder = embeddedFolder();
    const owner = startTs(CHILD, [folder.path, "a", "10", "hold"]);
    children.push(owner);
    await owner.waitFor(/^done$/);
    const second = startTs(CHILD, [folder.path, "b", "30", "exit"]);
    children.push(second);
    expect(await second.waitFor(/^kind=/)).toBe("kind=embedded-remote");
    expect(await second.exited).toBe(0);
    owner.process.kill("SIGKILL");
    await owner.exited;
    // A crashed owner leaves a stale lock: the next opener removes it and takes over, data intact.
    const after = await openStore({ url: `pglite:${folder.path}` });
    expect(after.client.kind).toBe("embedded");
    expect(await after.history("a")).toHaveLength(10);
    expect(await after.history("b")).toHaveLength(30);
    await after.close();
    folder.remove();
  });

  it("refuses with a clear error when asked to own a folder another process holds", async () => {
    const folder = embeddedFolder();
    const owner = startTs(CHILD, [folder.path, "a", "1", "hold"]);
    children.push(owner);
    await owner.waitFor(/^done$/);
    const error = await openStore({ url: `pglite:${folder.path}`, ownerOnly: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatabaseLockedError);
    expect((error as DatabaseLockedError).ownerPid).toBe(owner.process.pid);
    expect((error as Error).message).toContain(`held by process ${owner.process.pid}`);
    folder.remove();
  });

  it("fails clearly when the holder is alive but does not answer", async () => {
    const folder = tempFolder();
    // A live process (this one's parent) that never serves the folder: a hung owner.
    writeFileSync(join(folder.path, "owner.json"), JSON.stringify({ pid: process.ppid, port: 1, token: "t", startedAt: new Date().toISOString() }));
    process.env.BACKTRACK_OWNER_WAIT_MS = "1500";
    const error = await openStore({ url: `pglite:${folder.path}` }).catch((caught: unknown) => caught);
    delete process.env.BACKTRACK_OWNER_WAIT_MS;
    expect(error).toBeInstanceOf(DatabaseLockedError);
    expect((error as Error).message).toContain("does not answer");
    folder.remove();
  });
});

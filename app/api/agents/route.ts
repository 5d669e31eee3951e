import { json, route } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { agentNames } from "@/lib/store/agents";

export const dynamic = "force-dynamic";

/** The agent names that have runs, sorted: `{ agents: string[] }`. */
export const GET = route(async () => {
  return json({ agents: await agentNames((await getStore()).client) });
});

import { errorResponse, json } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { agentNames } from "@/lib/store/agents";

export const dynamic = "force-dynamic";

/** The agent names that have runs, sorted: `{ agents: string[] }`. */
export async function GET() {
  try {
    return json({ agents: await agentNames((await getStore()).client) });
  } catch (error) {
    return errorResponse(error);
  }
}

/** Calls to the inspector's JSON API from the browser: an error answer becomes an Error carrying its message and code. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function read<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => null)) as (T & { error?: { code?: string; message?: string } }) | null;
  if (!response.ok || body === null) {
    throw new ApiError(body?.error?.message ?? `the server answered ${response.status}`, body?.error?.code ?? "http", response.status);
  }
  return body;
}

export async function getJson<T>(url: string): Promise<T> {
  return read<T>(await fetch(url, { headers: { accept: "application/json" }, cache: "no-store" }));
}

export async function postJson<T>(url: string, body: unknown): Promise<T> {
  return read<T>(await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body) }));
}

export const FINISHED_JOB = new Set(["done", "failed", "interrupted"]);

/** " (attempt 2 of 3)" once a job runs again after its server stopped; nothing on the first attempt. */
export function attemptNote(job: { attempts?: number; maxAttempts?: number } | undefined): string {
  return job?.attempts && job.attempts > 1 ? ` (attempt ${job.attempts} of ${job.maxAttempts ?? job.attempts}: the server running it stopped)` : "";
}

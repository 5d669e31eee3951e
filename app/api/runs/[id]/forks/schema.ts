/** The body of POST /api/runs/{id}/forks and /forks/plan: a step, an edit, a model, allowEffects. */
import { z } from "zod";
import type { ForkOptions } from "@/lib/fork/fork-run";
import type { ForkEdit } from "@/lib/fork/edits";
import type { Registry } from "@/lib/agent/registry";
import { serverSecretKeys } from "@/app/_server/redaction";

const TEXT = 100_000;

const edit = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("result"), result: z.unknown() }).strict(),
  z.object({ kind: z.literal("error"), error: z.string().min(1).max(TEXT) }).strict(),
  z.object({ kind: z.literal("text"), text: z.string().max(TEXT) }).strict(),
  z.object({ kind: z.literal("args"), args: z.unknown(), call: z.number().int().min(0).max(10_000).optional() }).strict(),
  z.object({ kind: z.literal("value"), value: z.unknown() }).strict(),
  z.object({ kind: z.literal("approval"), approved: z.boolean(), reason: z.string().max(2_000).optional() }).strict(),
  z.object({ kind: z.literal("user_message"), text: z.string().min(1).max(TEXT) }).strict(),
]);

export const forkBody = z
  .object({
    at: z.number().int().min(0).max(2_000_000_000),
    edit: edit.optional(),
    model: z.string().min(1).max(200).optional(),
    allowEffects: z.boolean().optional(),
  })
  .strict();

export type ForkBody = z.infer<typeof forkBody>;

export function forkOptions(body: ForkBody, registry: Registry): ForkOptions {
  return {
    at: body.at,
    registry,
    ...(body.edit ? { edit: body.edit as ForkEdit } : {}),
    ...(body.model ? { model: body.model } : {}),
    allowEffects: body.allowEffects === true,
    // The dialog's editor starts from the record as this server redacted it.
    redaction: { isSecret: serverSecretKeys() },
  };
}

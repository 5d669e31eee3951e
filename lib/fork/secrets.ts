/**
 * Secrets in a fork's edit. The inspector shows a record redacted (lib/inspect/redact.ts), so the
 * fork dialog's editor starts from text where a secret reads `••••••`; an edit submitted with
 * that marker still in it means "keep the recorded secret", never "store the marker".
 * `restoreSecrets` puts the recorded value back for each marker, matched by place: a value under a
 * secret key by its key, a secret inside a string by its order among that string's masked parts.
 * A marker it cannot match (nothing recorded there, or a different number of masked parts) is
 * refused, so a fork never holds marker text in place of a secret. Pure; it never puts a secret
 * into an answer or an error message (those name the place, a JSON Pointer).
 */
import { maskSecretText, pointerOf, REDACTED, secretKeyMatcher, type RedactOptions } from "../inspect/redact";

/** A redaction marker as an answer shows it: plain, or numbered (`•••••• 2`) by distinctMarkers. */
const MARKER = new RegExp(`${REDACTED}(?: \\d+)?`, "g");
const WHOLE_MARKER = new RegExp(`^${REDACTED}(?: \\d+)?$`);
/** The stand-in maskSecretText writes while restoring: starts with REDACTED, as its own checks expect. */
const PLACEHOLDER = new RegExp(`${REDACTED}\u0001(\\d+)\u0002`, "g");

export type Restored = { value: unknown } | { refused: string };

/** `edited` with each redaction marker replaced by the secret it hides in `original` (the recorded value), or why one cannot be. */
export function restoreSecrets(edited: unknown, original: unknown, redaction: RedactOptions = {}): Restored {
  const isSecret = redaction.isSecret ?? secretKeyMatcher();
  try {
    return { value: restoreAt(edited, original, isSecret, []) };
  } catch (error) {
    if (error instanceof Unmatched) return { refused: error.message };
    throw error;
  }
}

class Unmatched extends Error {}

function hasMarker(value: unknown): boolean {
  return typeof value === "string" && value.includes(REDACTED);
}

function restoreAt(edited: unknown, original: unknown, isSecret: (key: string) => boolean, path: Array<string | number>): unknown {
  if (typeof edited === "string") return hasMarker(edited) ? restoreString(edited, original, isSecret, path) : edited;
  if (typeof edited !== "object" || edited === null) return edited;
  const recorded = typeof original === "object" && original !== null ? (original as Record<string | number, unknown>) : undefined;
  if (Array.isArray(edited)) return edited.map((item, index) => restoreAt(item, Array.isArray(recorded) ? recorded[index] : undefined, isSecret, [...path, index]));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(edited)) {
    const before = recorded && Object.hasOwn(recorded, key) ? recorded[key] : undefined;
    // A value under a secret key is masked whole, whatever its type: the marker stands for all of it.
    if (typeof item === "string" && WHOLE_MARKER.test(item) && isSecret(key) && before !== undefined && before !== null) copy[key] = before;
    else copy[key] = restoreAt(item, before, isSecret, [...path, key]);
  }
  return copy;
}

/** A string holding markers: each one is the secret at the same place among the recorded string's masked parts. */
function restoreString(edited: string, original: unknown, isSecret: (key: string) => boolean, path: Array<string | number>): string {
  const where = path.length > 0 ? pointerOf(path) : "the edited text";
  if (typeof original !== "string")
    throw new Unmatched(`the edit at ${where} holds a redaction marker (${REDACTED}) where the recorded value has no hidden secret; reveal and type the value instead`);
  const secrets = maskedParts(original, isSecret);
  const markers = edited.match(MARKER) ?? [];
  if (markers.length !== secrets.length) {
    throw new Unmatched(
      `the edit at ${where} holds ${markers.length} redaction marker(s) (${REDACTED}) and the recorded value hides ${secrets.length} secret(s), so they cannot be matched; keep the markers as shown, or reveal and type the values`,
    );
  }
  let index = 0;
  return edited.replace(MARKER, () => secrets[index++]!);
}

/** The secrets maskSecretText hides in `text`, in the order their markers appear. */
function maskedParts(text: string, isSecret: (key: string) => boolean): string[] {
  const found: string[] = [];
  const masked = maskSecretText(text, { isSecret, marker: (secret) => `${REDACTED}\u0001${found.push(secret) - 1}\u0002` });
  // A later rule can mask a span that holds an earlier rule's stand-in: expand it back to the raw text.
  const expand = (part: string): string => part.replace(PLACEHOLDER, (_all, number: string) => expand(found[Number(number)]!));
  return [...masked.matchAll(PLACEHOLDER)].map((match) => expand(found[Number(match[1])]!));
}

import { describe, expect, it } from "vitest";
import { DEFAULT_SECRET_KEYS, parseSecretKeys, REDACTED, redactValue, secretKeyMatcher } from "@/lib/inspect/redact";

describe("secret keys", () => {
  it("matches secret-looking keys in their usual spellings, not token counts", () => {
    const secret = secretKeyMatcher();
    for (const key of [
      "api_key",
      "apiKey",
      "x-api-key",
      "OPENAI_API_KEY",
      "Authorization",
      "password",
      "db.password",
      "access_token",
      "refreshToken",
      "token",
      "client_secret",
      "private_key",
    ]) {
      expect(secret(key), key).toBe(true);
    }
    for (const key of ["inputTokens", "outputTokens", "tokenCount", "maxTokens", "passwordHint", "author", "keys"]) {
      expect(secret(key), key).toBe(false);
    }
  });

  it("takes its patterns from a comma-separated setting, the defaults when empty", () => {
    expect(parseSecretKeys(undefined)).toEqual([...DEFAULT_SECRET_KEYS]);
    expect(parseSecretKeys(" , ")).toEqual([...DEFAULT_SECRET_KEYS]);
    const custom = secretKeyMatcher(parseSecretKeys("ssn, card_number"));
    expect(custom("customer_ssn")).toBe(true);
    expect(custom("cardNumber")).toBe(true);
    expect(custom("password")).toBe(false);
  });
});

describe("redactValue", () => {
  it("replaces values under secret keys at any depth, and leaves the original alone", () => {
    const original = { args: { api_key: "sk-1", nested: [{ password: "p", keep: 1 }] }, inputTokens: 4, token: null };
    const copy = redactValue(original, secretKeyMatcher());
    expect(copy).toEqual({ args: { api_key: REDACTED, nested: [{ password: REDACTED, keep: 1 }] }, inputTokens: 4, token: null });
    expect(original.args.api_key).toBe("sk-1");
    expect(redactValue("plain", secretKeyMatcher())).toBe("plain");
  });
});

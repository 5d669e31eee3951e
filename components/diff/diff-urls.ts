/**
 * The diff page's URL state (nuqs parsers, shared by the server page and the client view):
 * /diff?a=&b=&at=N&realign=1. `at` absent: the first divergence. `realign=1` asks for the
 * realigned diff; it is written as 1 and dropped from the URL when off.
 */
import { createParser, parseAsInteger } from "nuqs/server";

export const parseAsFlag = createParser<boolean>({
  parse: (value) => (value === "1" || value === "true" ? true : value === "0" || value === "false" ? false : null),
  serialize: (value) => (value ? "1" : "0"),
});

export const diffParams = { at: parseAsInteger, realign: parseAsFlag.withDefault(false) };

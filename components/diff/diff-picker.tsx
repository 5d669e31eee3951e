/**
 * The diff page without two runs to compare: a small form (a plain GET to /diff, so it works
 * before any script loads) with the most recent run ids to pick from. With `unknown`, it says
 * which id names no run (the page's 404-style answer) and keeps what was typed.
 */
export interface DiffPickerProps {
  a?: string;
  b?: string;
  runIds: readonly string[];
  /** The not-found message when a or b names no run. */
  unknown?: string;
}

export function DiffPicker({ a, b, runIds, unknown }: DiffPickerProps) {
  return (
    <>
      {unknown ? (
        <section className="error-box" role="alert">
          <h1>No such run</h1>
          <p>Cannot compare: {unknown}. Check the ids below, or pick runs from the list.</p>
        </section>
      ) : (
        <h1>Compare two runs</h1>
      )}
      <p className="muted">
        Two runs side by side, decision by decision: where they part, and what each decided there. Typically a run and its replay under another model (<code>order-123</code> and{" "}
        <code>order-123~v2</code> in the demo).
      </p>
      <form className="filters diff-picker" action="/diff" method="get">
        <label>
          Run A (base)
          <input type="text" name="a" defaultValue={a ?? ""} list="diff-run-ids" required autoComplete="off" spellCheck={false} />
        </label>
        <label>
          Run B (new)
          <input type="text" name="b" defaultValue={b ?? ""} list="diff-run-ids" required autoComplete="off" spellCheck={false} />
        </label>
        <button type="submit">Compare</button>
        <datalist id="diff-run-ids">
          {runIds.map((runId) => (
            <option key={runId} value={runId} />
          ))}
        </datalist>
      </form>
    </>
  );
}

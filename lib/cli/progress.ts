/**
 * A one-line progress bar for a terminal (our own, 30 lines: a dependency for this is not worth
 * it). Redrawn in place with `\r`; a line worth keeping (a run that changed) is printed above it.
 * Only for a TTY: in a pipe the caller prints one line per item instead.
 */
const WIDTH = 30;

export interface ProgressBar {
  update(done: number, total: number, keep?: string): void;
  end(): void;
}

export function progressBar(stream: NodeJS.WriteStream): ProgressBar {
  let drawn = false;
  const clear = () => (drawn ? "\r\u001b[2K" : "");
  return {
    update(done, total, keep) {
      const filled = total === 0 ? WIDTH : Math.round((done / total) * WIDTH);
      const bar = `[${"#".repeat(filled)}${".".repeat(WIDTH - filled)}] ${done}/${total}`;
      stream.write(`${clear()}${keep ? `${keep}\n` : ""}${bar}`);
      drawn = true;
    },
    end() {
      if (drawn) stream.write("\n");
      drawn = false;
    },
  };
}

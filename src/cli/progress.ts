// Progress of multi-item work on stderr: one line redrawn in place, only on a terminal (a
// pipe or a log file gets no control characters) and only when there is more than one item.

import type { WriteStream } from 'node:tty';

export interface ProgressLine {
  update(done: number, total: number): void;
  /** Clears the line, if one was drawn. */
  finish(): void;
}

const BAR_WIDTH = 24;

export function progressLine(label: string, stream: NodeJS.WriteStream = process.stderr): ProgressLine | undefined {
  if (!stream.isTTY) return undefined;
  const tty = stream as WriteStream;
  let drawn = false;
  return {
    update: (done, total) => {
      if (total <= 1) return;
      const filled = Math.round((Math.min(done, total) / total) * BAR_WIDTH);
      tty.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${done}/${total}`);
      drawn = true;
    },
    finish: () => {
      if (!drawn) return;
      tty.clearLine(0);
      tty.cursorTo(0);
    },
  };
}

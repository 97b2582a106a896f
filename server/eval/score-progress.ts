import { Presets, SingleBar } from 'cli-progress';

/** Without a terminal (a log, a CI job) progress is one line per this share of the answers. */
const LINE_EVERY = 0.1;

export interface ScoreProgress {
  onProgress: (done: number, total: number) => void;
  /** Ends the bar (leaves the terminal line complete); safe when nothing was reported. */
  stop: () => void;
}

/**
 * Progress of `hqa score --format charxiv`'s judge calls on stderr, so stdout (the report, or
 * `--json`) stays clean: a cli-progress bar when stderr is a terminal, as `hqa eval` and `hqa
 * generate` show, else a line per tenth of the answers ("judge: 6 of 20 answers graded (30%)").
 * Nothing is shown before the first call, so formats graded by rules alone print nothing.
 */
export function scoreProgress(stream: NodeJS.WriteStream = process.stderr): ScoreProgress {
  if (stream.isTTY) {
    let bar: SingleBar | null = null;
    return {
      onProgress: (done, total) => {
        if (!bar) {
          bar = new SingleBar({ format: 'judge {bar} {value}/{total} answers  {eta_formatted} left', stream }, Presets.shades_classic);
          bar.start(total, 0);
        }
        bar.update(done);
      },
      stop: () => bar?.stop(),
    };
  }
  let shown = 0;
  return {
    onProgress: (done, total) => {
      const step = Math.floor(done / (total * LINE_EVERY));
      if (total === 0 || step <= shown) return;
      shown = step;
      stream.write(`judge: ${done} of ${total} answers graded (${Math.floor((done / total) * 100)}%)\n`);
    },
    stop: () => undefined,
  };
}

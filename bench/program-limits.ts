import { tableFromCells } from '../shared/table/model';
import { MAX_EVAL_STEPS, runProgram } from '../shared/table/program';

/**
 * Program limits benchmark: how long an untrusted program takes to be stopped by the
 * evaluation step limit on a large table (2,000 rows × 50 series), the worst a model's
 * program can cost the server per run, against a budget of 2 s.
 *   npm run bench:program -- [rounds]
 */
/** A stopped program answers a request or a task: it must not hold the event loop for long. */
const BUDGET_MS = 2000;

const rounds = Number(process.argv[2] ?? 5);
const series = Array.from({ length: 50 }, (_, s) => `S${s}`);
const body = Array.from({ length: 2000 }, (_, r) => [`R${r}`, ...series.map((_, s) => String(r + s))]);
const big = tableFromCells(['Row', ...series], body);
const source = Array.from({ length: 60 }, (_, i) => `sum(series("S${i % 50}"))`).join(' + ');

const timings: number[] = [];
let message = '';
for (let round = 0; round < rounds; round++) {
  const started = performance.now();
  const result = runProgram(big, source);
  timings.push(performance.now() - started);
  message = result.ok ? `not stopped: ${result.answer}` : result.error.message;
}
timings.sort((a, b) => a - b);
const worst = timings[timings.length - 1] ?? 0;
const median = timings[Math.floor(timings.length / 2)] ?? 0;
console.log(`step limit ${MAX_EVAL_STEPS}: ${message}`);
console.log(`${rounds} rounds: median ${median.toFixed(1)} ms, worst ${worst.toFixed(1)} ms = ${((median * 1000) / MAX_EVAL_STEPS).toFixed(2)} µs per step`);
console.log(`budget ${BUDGET_MS} ms: worst ${worst < BUDGET_MS ? 'met' : 'MISSED'} (ratio ${(worst / BUDGET_MS).toFixed(3)} of budget)`);

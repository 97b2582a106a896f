import { pathToFileURL } from 'node:url';
import { answerCorrect, SCORING_RULES, type ScoringRule } from '../shared/eval/scoring-rules';

/**
 * Scoring cost per rule: 100,000 prediction/gold pairs, the mix a run of Chart-HQA answers holds
 * (numbers near the gold, percents, yes/no, names, a few Unicode digits and missing spaces),
 * scored through `answerCorrect` (normalisation included) under each rule. Prints ms per rule,
 * its ratio to the chartqa rule, and the accuracy (a check that each rule ran on the same pairs).
 *   npx tsx bench/evaluation-rules.ts
 */
const PAIRS = 100_000;
const REPEATS = 5;

function buildPairs(count: number): { prediction: string; gold: string }[] {
  const pairs: { prediction: string; gold: string }[] = [];
  for (let i = 0; i < count; i++) {
    const value = 10 + (i % 997);
    switch (i % 8) {
      case 0:
        pairs.push({ prediction: String(value * 1.03), gold: String(value) });
        break;
      case 1:
        pairs.push({ prediction: String(value * 0.951), gold: String(value) });
        break;
      case 2:
        pairs.push({ prediction: `${value % 100}%`, gold: String((value % 100) / 100) });
        break;
      case 3:
        pairs.push({ prediction: i % 3 === 0 ? 'Yes' : 'No', gold: 'Yes' });
        break;
      case 4:
        pairs.push({ prediction: '**Washington D.C.**', gold: 'Washington D.C.' });
        break;
      case 5:
        pairs.push({ prediction: ` ${value} `, gold: String(value) });
        break;
      case 6:
        pairs.push({ prediction: '１２', gold: '12' });
        break;
      default:
        pairs.push({ prediction: 'Eden Hazard', gold: 'eden hazard' });
    }
  }
  return pairs;
}

/**
 * Best of REPEATS runs, in CPU time (process.cpuUsage) beside wall time: on a shared machine the
 * wall clock also measures the neighbours.
 */
function timeRule(rule: ScoringRule, pairs: readonly { prediction: string; gold: string }[]): { ms: number; cpuMs: number; correct: number } {
  let best = Infinity;
  let bestCpu = Infinity;
  let correct = 0;
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    correct = 0;
    for (const pair of pairs) if (answerCorrect(rule, pair.prediction, pair.gold)) correct += 1;
    const used = process.cpuUsage(cpu);
    best = Math.min(best, performance.now() - started);
    bestCpu = Math.min(bestCpu, (used.user + used.system) / 1000);
  }
  return { ms: best, cpuMs: bestCpu, correct };
}

export async function benchScoringRules(): Promise<void> {
  const pairs = buildPairs(PAIRS);
  // One untimed pass, so the first rule timed does not pay for compiling the regular expressions.
  timeRule('chartqa', pairs.slice(0, 1000));
  const results = SCORING_RULES.map((rule) => ({ rule, ...timeRule(rule, pairs) }));
  const reference = results.find((result) => result.rule === 'chartqa')?.cpuMs ?? 1;
  process.stdout.write(`scoring ${PAIRS.toLocaleString('en')} predictions under each rule (best of ${REPEATS}; the ratio on CPU time):\n`);
  for (const { rule, ms, cpuMs, correct } of results) {
    process.stdout.write(
      `  ${rule.padEnd(10)} ${ms.toFixed(1).padStart(7)} ms wall  ${cpuMs.toFixed(1).padStart(7)} ms CPU  ${(cpuMs / reference).toFixed(2)}× chartqa  accuracy ${((100 * correct) / PAIRS).toFixed(2)}%\n`,
    );
  }
  await Promise.resolve();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await benchScoringRules();

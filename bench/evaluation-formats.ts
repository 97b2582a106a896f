import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chartBenchReport, scoreChartBenchTexts } from '../server/eval/chartbench-file';
import { multiChartQaReport, scoreMultiChartQaTexts } from '../server/eval/multichartqa-file';

/**
 * Scoring a seed benchmark's files at scale: ~100,000 predictions in the ChartBench format
 * (the real 600-record sample repeated under new ids: 80,000 pair assertions and 20,000 NQA
 * questions) and in the MultiChartQA format (the 12 real questions repeated as 100,000, whole
 * replies with reasoning), each from file text to report, as `hqa score --format` and the
 * score-file route do. Prints wall and CPU ms (best of 3) and the headline figure.
 *   npx tsx bench/evaluation-formats.ts
 */
const PREDICTIONS = 100_000;
const REPEATS = 3;
const SEEDS = resolve(process.cwd(), '../shared/data/seed-benchmarks');

interface SampleRecord {
  id: number;
  type: { QA: string };
  conversation: { label: string; query: string }[];
}

/** ChartBench JSONL and `hqa eval` rows: replies right, "yes" to both, or "no" to both by id; NQA 3 % off the gold. */
function chartBenchFiles(): { dataset: string; predictions: string; count: number } {
  const sample = readFileSync(resolve(SEEDS, 'chartbench/test_mini.first600.DERIVED.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SampleRecord);
  const lines: string[] = [];
  const rows: { id: string; prediction: string }[] = [];
  for (let copy = 0; rows.length < PREDICTIONS; copy += 1) {
    for (const record of sample) {
      const id = copy * 1_000_000 + record.id; // the sample's ids are not contiguous
      lines.push(JSON.stringify({ ...record, id }));
      if (record.type.QA === 'GPT-acc') {
        const label = record.conversation[0]?.label ?? '';
        const value = Number(label.replace(/%$/, ''));
        rows.push({ id: `${id}#0`, prediction: Number.isFinite(value) ? `${(value * 1.03).toFixed(3)}${label.endsWith('%') ? '%' : ''}` : label });
        continue;
      }
      const style = id % 3;
      record.conversation.forEach((entry, index) => {
        const reply = style === 0 ? entry.label : style === 1 ? 'Yes, it is.' : 'No.';
        rows.push({ id: `${id}#${index}`, prediction: reply });
      });
    }
  }
  return { dataset: lines.join('\n'), predictions: JSON.stringify(rows), count: rows.length };
}

/** MultiChartQA question list and `hqa eval` rows whose raw reply reasons, then answers (every fifth a wrong letter or part). */
function multiChartQaFiles(): { dataset: string; predictions: string; count: number } {
  const dataDir = resolve(SEEDS, 'multichartqa/data');
  const sample = readdirSync(dataDir)
    .sort()
    .flatMap((group) => JSON.parse(readFileSync(resolve(dataDir, group, 'chart-path_and_question-answer_pair.json'), 'utf8')) as { id: string; answer: string; type: string }[]);
  const records: unknown[] = [];
  const rows: { id: string; prediction: null; raw: string }[] = [];
  for (let i = 0; i < PREDICTIONS; i += 1) {
    const question = sample[i % sample.length];
    if (!question) break;
    const id = `${question.id}_copy_${Math.floor(i / sample.length)}`;
    records.push({ ...question, id });
    const answer = i % 5 === 4 ? (question.type === 'multiple-choice' ? 'A' : 'Somewhere; 1') : question.answer;
    rows.push({ id, prediction: null, raw: `Looking at the first chart, the value is about 40. Comparing with the second chart, it rises.\nAnswer: ${answer}` });
  }
  return { dataset: JSON.stringify(records), predictions: JSON.stringify(rows), count: rows.length };
}

function best(run: () => string): { ms: number; cpuMs: number; headline: string } {
  let result = { ms: Infinity, cpuMs: Infinity, headline: '' };
  for (let i = 0; i < REPEATS; i += 1) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const headline = run();
    const ms = performance.now() - start;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    if (ms < result.ms) result = { ms, cpuMs, headline };
  }
  return result;
}

export async function benchScoreFormats(): Promise<void> {
  const chartBench = chartBenchFiles();
  const multiChartQa = multiChartQaFiles();
  const cases = [
    {
      name: 'chartbench',
      count: chartBench.count,
      run: () => {
        const report = chartBenchReport(scoreChartBenchTexts({ name: 'test.jsonl', text: chartBench.dataset }, { name: 'p.json', text: chartBench.predictions }, 'chartqa'));
        return report.figures.slice(0, 4).map((f) => `${f.label} ${f.value ?? '–'}`).join(', ');
      },
    },
    {
      name: 'multichartqa',
      count: multiChartQa.count,
      run: () => {
        const report = multiChartQaReport(scoreMultiChartQaTexts({ name: 'qa.json', text: multiChartQa.dataset }, { name: 'p.json', text: multiChartQa.predictions }));
        return report.figures.slice(0, 1).map((f) => `${f.label} ${f.value ?? '–'}`).join(', ');
      },
    },
  ];
  process.stdout.write(`scoring a seed benchmark's files, from text to report (best of ${REPEATS}):\n`);
  for (const { name, count, run } of cases) {
    const { ms, cpuMs, headline } = best(run);
    process.stdout.write(`  ${name.padEnd(13)} ${count.toLocaleString('en')} predictions  ${ms.toFixed(0).padStart(6)} ms wall  ${cpuMs.toFixed(0).padStart(6)} ms CPU  (${headline})\n`);
  }
  await Promise.resolve();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await benchScoreFormats();

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { correctUnder, SCORING_RULES, type ScoringRule } from '../../shared/eval/scoring-rules';
import { pythonStrip } from '../../shared/table/python-float';

/**
 * Our scoring rules against the published Python scorers (reference_scorers.py), on the vectors
 * of vectors.json. expected.json holds the Python results; the first suite always runs on it,
 * the second re-runs the Python when python3 is here, so a changed reference fails the test.
 */

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const REFERENCE_NAMES = ['pix2struct', 'lmms-eval', 'vlmevalkit', 'qwen-vl', 'chartbench'] as const;
type ReferenceName = (typeof REFERENCE_NAMES)[number];
const Verdicts = z.object(Object.fromEntries(REFERENCE_NAMES.map((name) => [name, z.boolean()])) as Record<ReferenceName, z.ZodBoolean>);
const ExpectedSchema = z.object({
  unicode: z.string(),
  references: z.array(z.string()),
  results: z.array(z.object({ prediction: z.string(), target: z.string(), raw: Verdicts, stripped: Verdicts })),
});
const VectorsSchema = z.object({ vectors: z.array(z.object({ prediction: z.string(), target: z.string(), note: z.string() })) });

const vectors = VectorsSchema.parse(JSON.parse(readFileSync(here('./vectors.json'), 'utf8'))).vectors;
const expected = ExpectedSchema.parse(JSON.parse(readFileSync(here('./expected.json'), 'utf8')));

/** The published script each rule reproduces. */
const REFERENCE_OF: Record<ScoringRule, ReferenceName> = { chartqa: 'pix2struct', 'qwen-vl': 'qwen-vl', chartbench: 'chartbench' };

const show = (text: string) => JSON.stringify(text);

describe('our scoring rules against the published scorers', () => {
  it('has a result for every vector, in order', () => {
    expect(expected.results.map((r) => [r.prediction, r.target])).toEqual(vectors.map((v) => [v.prediction, v.target]));
    expect(expected.references).toEqual([...REFERENCE_NAMES]);
  });

  it.each(SCORING_RULES)('%s agrees with its reference on every vector once both strings are stripped', (rule) => {
    const reference = REFERENCE_OF[rule];
    const disagreements = vectors
      .map((vector, index) => ({ vector, ours: correctUnder(rule, vector.prediction, vector.target), theirs: expected.results[index]?.stripped[reference] }))
      .filter((row) => row.ours !== row.theirs)
      .map((row) => `${show(row.vector.prediction)} vs ${show(row.vector.target)} (${row.vector.note}): ours ${row.ours}, ${reference} ${row.theirs}`);
    expect(disagreements).toEqual([]);
  });

  it.each(SCORING_RULES)('%s differs from its reference on the raw strings only where stripping whitespace changes one (our deliberate difference)', (rule) => {
    const reference = REFERENCE_OF[rule];
    const differing = vectors.filter((vector, index) => correctUnder(rule, vector.prediction, vector.target) !== expected.results[index]?.raw[reference]);
    for (const vector of differing) {
      expect(pythonStrip(vector.prediction) !== vector.prediction || pythonStrip(vector.target) !== vector.target, `${show(vector.prediction)} vs ${show(vector.target)}`).toBe(true);
    }
    // A gold with a trailing space: every reference compares it raw, and we strip it.
    expect(differing.map((v) => [v.prediction, v.target])).toContainEqual(['Asia', 'Asia ']);
  });

  it('finds lmms-eval scoring as pix2struct on every vector (the same function, called the same way)', () => {
    expect(expected.results.filter((r) => r.raw['lmms-eval'] !== r.raw.pix2struct)).toEqual([]);
  });

  // Worked by hand from the sources (docs/scoring-rules.md), not from expected.json.
  const HAND_CHECKED: [prediction: string, gold: string, chartqa: boolean, qwenVl: boolean, chartbench: boolean, why: string][] = [
    ['95', '100', true, false, false, '|95−100|/100 = 5% ≤ 5%; /95 = 5.26%'],
    ['105.1', '100', false, true, true, '/100 = 5.1%; /105.1 = 4.85%'],
    ['45', '45%', false, false, true, 'pix2struct reads 45% as 0.45; ChartBench drops the gold\'s %'],
    ['0.45', '45%', true, true, false, 'ChartBench reads the gold 45% as 45'],
    ['0', '-7', false, false, true, 'ChartBench: a zero reply is right for any gold ≤ 0.05'],
    ['0.04', '0', false, false, false, 'a zero gold takes no near-zero reply anywhere'],
    ['0.0', '0', false, false, true, 'string "0.0" ≠ "0"; ChartBench: zero reply, gold 0 ≤ 0.05'],
    ['１２', '12', true, true, true, 'fullwidth digits are digits to float()'],
    ['١٢', '12', true, true, true, 'Arabic-Indic digits are digits to float()'],
    ['\ufeff12', '12', false, false, false, 'a byte-order mark is not whitespace to Python'],
    ['\u008512', '12', true, true, true, 'U+0085 is whitespace to Python'],
    ['\u001c12', '12', true, true, true, 'U+001C: float() fails, but str.strip() removes it first'],
    ['Yes', 'Yes', true, true, false, 'ChartBench strips the reply to "Y"'],
    ['YES', 'yes', true, true, true, 'upper-case letters are not in ChartBench\'s strip set'],
    ['10 seconds', '10', false, false, true, 'ChartBench strips "seconds" letter by letter, then reads 10'],
    ['U.S', 'U.S.', false, false, false, 'the raw strings differ: answerCorrect normalises both'],
  ];

  it.each(HAND_CHECKED)('%j against %j: chartqa %s, qwen-vl %s, chartbench %s (%s)', (prediction, gold, chartqa, qwenVl, chartbench) => {
    expect(SCORING_RULES.map((rule) => correctUnder(rule, prediction, gold))).toEqual([chartqa, qwenVl, chartbench]);
  });
});

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const hasPython = python.status === 0;

describe.skipIf(!hasPython)('expected.json is what the Python references give now', () => {
  it('re-runs run_references.py and finds the same results', () => {
    const run = spawnSync('python3', [here('./run_references.py'), here('./vectors.json')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const now = ExpectedSchema.parse(JSON.parse(run.stdout));
    // The Unicode version names the Python that ran; only the verdicts must not move.
    expect(now.references).toEqual(expected.references);
    expect(now.results).toEqual(expected.results);
  });
});

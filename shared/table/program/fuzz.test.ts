import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tableFromCells } from '../model';
import { buildSalesTable } from '../../../test/support/table-fixtures';
import { INTERNAL_PROGRAM_ERROR, KNOWN_FUNCTIONS, MAX_PROGRAM_LENGTH, runProgram, type ProgramResult } from './index';

/**
 * Programs are untrusted LLM output evaluated in the server process. These properties pin
 * that no input string escapes runProgram as an exception, hits an internal error, or runs
 * long. numRuns is bounded so the suite stays fast.
 */

const table = buildSalesTable();
const RUNS = 400;

/** runProgram must return (never throw), and its errors must be the documented kind with an in-range position. */
function assertWellBehaved(source: string, result: ProgramResult = runProgram(table, source)): void {
  if (result.ok) {
    expect(typeof result.answer).toBe('string');
    return;
  }
  expect(result.error.message).not.toBe(INTERNAL_PROGRAM_ERROR);
  expect(result.error.message.length).toBeGreaterThan(0);
  if (result.error.position !== undefined) {
    expect(result.error.position).toBeGreaterThanOrEqual(0);
    expect(result.error.position).toBeLessThanOrEqual(source.length);
  }
}

const TOKENS = [
  ...KNOWN_FUNCTIONS,
  'nope',
  '(',
  ')',
  ',',
  '+',
  '-',
  '*',
  '/',
  '>',
  '<',
  '>=',
  '<=',
  '==',
  '!=',
  '=',
  '!',
  '%',
  'and',
  'or',
  'not',
  'true',
  'false',
  '0',
  '1',
  '2.5',
  '-0',
  '1e308',
  '"2017"',
  '"2019"',
  '"Online"',
  '"Offline"',
  "'x'",
  '"',
  "'",
  '\\',
  '">"',
  '"=="',
];

/** Grammatical programs: every call well-formed, arbitrary argument kinds. */
const expression: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('1', '0', '-2.5', '1e300', 'true', 'false', '"2017"', '"Online"', '"Offline"', '"2019*"', '"nope"', '">"', '"=="'),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => String(Math.abs(n))),
    fc.tuple(tie('expr'), fc.constantFrom('+', '-', '*', '/', '>', '<', '>=', '<=', '==', '!=', 'and', 'or'), tie('expr')).map(
      ([a, op, b]) => `(${a} ${op} ${b})`,
    ),
    tie('expr').map((a) => `-${a}`),
    tie('expr').map((a) => `not ${a}`),
    fc.tuple(fc.constantFrom(...KNOWN_FUNCTIONS), fc.array(tie('expr'), { maxLength: 3 })).map(([name, args]) => `${name}(${args.join(', ')})`),
  ),
})).expr;

describe('runProgram on untrusted input', () => {
  it('never throws on arbitrary strings, including any code point', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (source) => assertWellBehaved(source)),
      { numRuns: RUNS },
    );
  });

  it('never throws on random sequences of the language’s tokens', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }), fc.constantFrom(' ', ''), (tokens, glue) =>
        assertWellBehaved(tokens.join(glue)),
      ),
      { numRuns: RUNS },
    );
  });

  it('evaluates grammatical programs to an answer or a documented error', () => {
    fc.assert(
      fc.property(expression, (source) => assertWellBehaved(source)),
      { numRuns: RUNS },
    );
  });

  it('refuses deep nesting without overflowing the stack', () => {
    for (const source of [
      '('.repeat(10_000),
      `${'('.repeat(10_000)}1${')'.repeat(10_000)}`,
      `${'('.repeat(999)}1${')'.repeat(999)}`,
      `${'abs('.repeat(400)}1${')'.repeat(400)}`,
      `${'-'.repeat(1999)}1`,
      `${'not '.repeat(499)}true`,
      `${'sum('.repeat(10_000)}`,
    ]) {
      const result = runProgram(table, source);
      expect(result.ok).toBe(false);
      assertWellBehaved(source, result);
    }
  });

  it('evaluates long flat chains within the length limit', () => {
    const terms = Math.floor((MAX_PROGRAM_LENGTH - 1) / 4);
    const source = `1${' + 1'.repeat(terms)}`;
    expect(source.length).toBeLessThanOrEqual(MAX_PROGRAM_LENGTH);
    expect(runProgram(table, source)).toMatchObject({ ok: true, answer: String(terms + 1) });
    assertWellBehaved(`1${' and true'.repeat(200)}`);
  });

  it('handles huge and tiny numbers without exponent answers or crashes', () => {
    expect(runProgram(table, '9'.repeat(400)).ok).toBe(false);
    expect(runProgram(table, '9'.repeat(300)).ok).toBe(true);
    expect(runProgram(table, '1e308 * 10')).toMatchObject({ ok: false });
    expect(runProgram(table, '0.00000001')).toMatchObject({ ok: true, answer: '0' });
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const literal = n < 0 || Object.is(n, -0) ? `-${String(-n)}` : String(n);
        const source = `${literal} * 3`;
        const result = runProgram(table, source);
        assertWellBehaved(source, result);
        if (result.ok && Math.abs(n * 3) < 1e21) expect(result.answer).not.toMatch(/e/i);
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps work bounded on a large table', () => {
    const series = Array.from({ length: 50 }, (_, s) => `S${s}`);
    const body = Array.from({ length: 2000 }, (_, r) => [`R${r}`, ...series.map((_, s) => String(r + s))]);
    const big = tableFromCells(['Row', ...series], body);
    const source = Array.from({ length: 60 }, (_, i) => `sum(series("S${i % 50}"))`).join(' + ');
    // How long stopping it takes is bench/program-limits.ts's to say (npm run bench:program).
    const result = runProgram(big, source);
    expect(result).toMatchObject({ ok: false, error: { message: expect.stringMatching(/more than 100000 evaluation steps/) } });
  });
});

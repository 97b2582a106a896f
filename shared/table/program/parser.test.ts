import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH, MAX_PROGRAM_LENGTH, ProgramError } from './errors';
import { tokenize } from './lexer';
import { parseProgram, type Node } from './parser';

/** A compact, fully parenthesised rendering of a tree, to pin precedence and associativity. */
function show(node: Node): string {
  switch (node.kind) {
    case 'number':
      return String(node.value);
    case 'string':
      return JSON.stringify(node.value);
    case 'boolean':
      return String(node.value);
    case 'negate':
      return `(-${show(node.operand)})`;
    case 'not':
      return `(not ${show(node.operand)})`;
    case 'binary':
      return `(${show(node.left)} ${node.operator} ${show(node.right)})`;
    case 'call':
      return `${node.name}(${node.args.map(show).join(', ')})`;
  }
}

function parseError(source: string): ProgramError {
  try {
    parseProgram(source);
  } catch (error) {
    if (error instanceof ProgramError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(source)} not to parse`);
}

describe('tokenize', () => {
  it('reads numbers, both string quotes with escapes, names, keywords and operators with positions', () => {
    const tokens = tokenize(`value('it\\'s', "a\\"b") >= 1.5e2 AND Not x`);
    expect(tokens.map((t) => [t.type, t.value ?? t.text, t.position])).toEqual([
      ['name', 'value', 0],
      ['(', '(', 5],
      ['string', "it's", 6],
      [',', ',', 13],
      ['string', 'a"b', 15],
      [')', ')', 21],
      ['operator', '>=', 23],
      ['number', 150, 26],
      ['keyword', 'and', 32],
      ['keyword', 'not', 36],
      ['name', 'x', 40],
      ['end', '', 41],
    ]);
  });

  it.each([
    ['1 & 2', 2, /unexpected character "&"/],
    ['1 && 2', 2, /"and"/],
    ['1 || 2', 2, /"or"/],
    ['!true', 0, /"not"/],
    ['1 = 1', 2, /"=="/],
    ['45%', 2, /without their unit/],
    ['2 ^ 3', 2, /no power operator/],
    ['"abc', 0, /unterminated string/],
    ["'abc\\'", 0, /unterminated string/],
    ['1e999', 0, /too large/],
  ])('%j fails at %i', (source, position, message) => {
    expect(() => tokenize(source)).toThrow(message);
    try {
      tokenize(source);
    } catch (error) {
      expect((error as ProgramError).position).toBe(position);
    }
  });
});

describe('parseProgram precedence', () => {
  it.each([
    ['1 + 2 * 3', '(1 + (2 * 3))'],
    ['(1 + 2) * 3', '((1 + 2) * 3)'],
    ['10 - 2 - 3', '((10 - 2) - 3)'],
    ['8 / 4 / 2', '((8 / 4) / 2)'],
    ['-2 * 3', '((-2) * 3)'],
    ['- -2', '(-(-2))'],
    ['1 + 2 > 3 * 4', '((1 + 2) > (3 * 4))'],
    ['not 1 < 2', '(not (1 < 2))'],
    ['not not true', '(not (not true))'],
    ['true or false and false', '(true or (false and false))'],
    ['a() == 1 or b() != 2 and c() <= 3', '((a() == 1) or ((b() != 2) and (c() <= 3)))'],
    ['if(x() >= 1, "a", \'b\')', 'if((x() >= 1), "a", "b")'],
    ['f()', 'f()'],
    ['  sum( series("A") , 2 )  ', 'sum(series("A"), 2)'],
  ])('%s parses as %s', (source, tree) => {
    expect(show(parseProgram(source))).toBe(tree);
  });

  it('records the position of each node', () => {
    const node = parseProgram('1 +  value("x")');
    expect(node.position).toBe(2);
    expect(node.kind === 'binary' && node.right.position).toBe(5);
  });
});

describe('parseProgram errors', () => {
  it.each([
    ['', 0, /empty/],
    ['   ', 0, /empty/],
    ['1 +', 3, /expected a value but found the end/],
    ['(1', 2, /closing "\)"/],
    ['1)', 1, /unexpected "\)" after the end/],
    ['1 2', 2, /unexpected the number 2/],
    ['f(1 2)', 4, /"," or "\)" in the call to f/],
    ['f(1,)', 4, /expected a value/],
    ['slovenia', 0, /labels are written in quotes/],
    ['1 < 2 < 3', 6, /cannot be chained/],
    ['*3', 0, /expected a value but found "\*"/],
    ['and', 0, /expected a value/],
  ])('%j fails at %i', (source, position, message) => {
    const error = parseError(source);
    expect(error.message).toMatch(message);
    expect(error.position).toBe(position);
  });

  it('bounds the program length', () => {
    const error = parseError(`1${' + 1'.repeat(MAX_PROGRAM_LENGTH)}`);
    expect(error.message).toMatch(/at most 2000/);
  });

  it('bounds nesting of parentheses, calls and prefix operators', () => {
    const inside = `${'('.repeat(MAX_NESTING_DEPTH - 2)}1${')'.repeat(MAX_NESTING_DEPTH - 2)}`;
    expect(show(parseProgram(inside))).toBe('1');
    expect(parseError(`${'('.repeat(MAX_NESTING_DEPTH + 1)}1${')'.repeat(MAX_NESTING_DEPTH + 1)}`).message).toMatch(/nests deeper than 64/);
    expect(parseError(`${'abs('.repeat(100)}1${')'.repeat(100)}`).message).toMatch(/nests deeper/);
    expect(parseError(`${'-'.repeat(100)}1`).message).toMatch(/nests deeper/);
    expect(parseError(`${'not '.repeat(100)}true`).message).toMatch(/nests deeper/);
  });

  it('cuts long tokens short in messages', () => {
    const error = parseError(`1 "${'x'.repeat(500)}"`);
    expect(error.message.length).toBeLessThan(120);
  });
});

import { ProgramError } from './errors';

export type TokenType = 'number' | 'string' | 'name' | 'keyword' | 'operator' | '(' | ')' | ',' | 'end';

export interface Token {
  type: TokenType;
  /** Keywords and names are lowercased here, so `SUM`, `And` and `TRUE` work as models write them. */
  text: string;
  /** The numeric value of a number token, the decoded text of a string token. */
  value?: number | string;
  position: number;
}

export const KEYWORDS = new Set(['and', 'or', 'not', 'true', 'false']);

const OPERATORS = ['>=', '<=', '==', '!=', '+', '-', '*', '/', '>', '<'] as const;

/** Operators from other languages, mapped to what to write instead. */
const FOREIGN_OPERATORS: Record<string, string> = {
  '&&': 'write "and" instead of "&&"',
  '||': 'write "or" instead of "||"',
  '!': 'write "not" instead of "!"',
  '=': 'write "==" to compare ("=" is not an operator)',
  '%': 'cells hold numbers without their unit: write 45, not 45%',
  '^': 'there is no power operator; multiply instead',
};

// Sticky patterns match at lastIndex without copying the rest of the source.
const NUMBER = /(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

function matchAt(pattern: RegExp, source: string, index: number): string | null {
  pattern.lastIndex = index;
  return pattern.exec(source)?.[0] ?? null;
}

/** Splits program text into tokens; the last token is always `end`. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i] ?? '';
    if (/\s/.test(ch)) {
      i += 1;
      continue;
    }
    const number = matchAt(NUMBER, source, i);
    if (number) {
      const value = Number(number);
      if (!Number.isFinite(value)) throw new ProgramError(`the number ${number.slice(0, 20)}… is too large`, i);
      tokens.push({ type: 'number', text: number, value, position: i });
      i += number.length;
      continue;
    }
    const name = matchAt(NAME, source, i);
    if (name) {
      const text = name.toLowerCase();
      tokens.push({ type: KEYWORDS.has(text) ? 'keyword' : 'name', text, position: i });
      i += name.length;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const { value, end } = readString(source, i);
      tokens.push({ type: 'string', text: source.slice(i, end), value, position: i });
      i = end;
      continue;
    }
    if (ch === '(' || ch === ')' || ch === ',') {
      tokens.push({ type: ch, text: ch, position: i });
      i += 1;
      continue;
    }
    const operator = OPERATORS.find((op) => source.startsWith(op, i));
    const foreign = Object.keys(FOREIGN_OPERATORS).find((op) => source.startsWith(op, i));
    if (!operator && foreign) throw new ProgramError(`unexpected "${foreign}": ${FOREIGN_OPERATORS[foreign]}`, i);
    if (operator) {
      tokens.push({ type: 'operator', text: operator, position: i });
      i += operator.length;
      continue;
    }
    throw new ProgramError(`unexpected character ${JSON.stringify(ch)}`, i);
  }
  tokens.push({ type: 'end', text: '', position: source.length });
  return tokens;
}

/** Reads a quoted string starting at `start`; a backslash takes the next character literally. */
function readString(source: string, start: number): { value: string; end: number } {
  const quote = source[start];
  let value = '';
  let i = start + 1;
  while (i < source.length) {
    const ch = source[i];
    if (ch === quote) return { value, end: i + 1 };
    if (ch === '\\') {
      if (i + 1 >= source.length) break;
      value += source[i + 1];
      i += 2;
      continue;
    }
    value += ch;
    i += 1;
  }
  throw new ProgramError(`unterminated string: add the closing ${quote}`, start);
}

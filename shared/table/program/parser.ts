import { MAX_NESTING_DEPTH, MAX_PROGRAM_LENGTH, ProgramError } from './errors';
import { tokenize, type Token } from './lexer';

/**
 * Recursive-descent parser for the program language (grammar: docs/program-language.md).
 * Precedence, loosest first: or, and, not, comparison (not chainable), + -, * /, unary -.
 */

export type BinaryOperator = '+' | '-' | '*' | '/' | '>' | '<' | '>=' | '<=' | '==' | '!=' | 'and' | 'or';

export type Node =
  | { kind: 'number'; value: number; position: number }
  | { kind: 'string'; value: string; position: number }
  | { kind: 'boolean'; value: boolean; position: number }
  | { kind: 'negate'; operand: Node; position: number }
  | { kind: 'not'; operand: Node; position: number }
  | { kind: 'binary'; operator: BinaryOperator; left: Node; right: Node; position: number }
  | { kind: 'call'; name: string; args: Node[]; position: number };

const COMPARISONS = new Set(['>', '<', '>=', '<=', '==', '!=']);

export function parseProgram(source: string): Node {
  if (source.length > MAX_PROGRAM_LENGTH) {
    throw new ProgramError(`the program is ${source.length} characters long; at most ${MAX_PROGRAM_LENGTH} are allowed`, MAX_PROGRAM_LENGTH);
  }
  if (source.trim() === '') throw new ProgramError('the program is empty', 0);
  const parser = new Parser(tokenize(source));
  const node = parser.expression();
  parser.expectEnd();
  return node;
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  expression(): Node {
    return this.nested(() => this.or());
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.type !== 'end') throw new ProgramError(`unexpected ${describe(token)} after the end of the expression`, token.position);
  }

  private or(): Node {
    let left = this.and();
    while (this.atKeyword('or')) {
      const position = this.next().position;
      left = { kind: 'binary', operator: 'or', left, right: this.and(), position };
    }
    return left;
  }

  private and(): Node {
    let left = this.not();
    while (this.atKeyword('and')) {
      const position = this.next().position;
      left = { kind: 'binary', operator: 'and', left, right: this.not(), position };
    }
    return left;
  }

  private not(): Node {
    if (!this.atKeyword('not')) return this.comparison();
    const position = this.next().position;
    return { kind: 'not', operand: this.nested(() => this.not()), position };
  }

  private comparison(): Node {
    const left = this.additive();
    const token = this.peek();
    if (token.type !== 'operator' || !COMPARISONS.has(token.text)) return left;
    this.next();
    const node: Node = { kind: 'binary', operator: token.text as BinaryOperator, left, right: this.additive(), position: token.position };
    const after = this.peek();
    if (after.type === 'operator' && COMPARISONS.has(after.text)) {
      throw new ProgramError('comparisons cannot be chained: join them with "and"', after.position);
    }
    return node;
  }

  private additive(): Node {
    let left = this.term();
    while (this.atOperator('+') || this.atOperator('-')) {
      const token = this.next();
      left = { kind: 'binary', operator: token.text as BinaryOperator, left, right: this.term(), position: token.position };
    }
    return left;
  }

  private term(): Node {
    let left = this.unary();
    while (this.atOperator('*') || this.atOperator('/')) {
      const token = this.next();
      left = { kind: 'binary', operator: token.text as BinaryOperator, left, right: this.unary(), position: token.position };
    }
    return left;
  }

  private unary(): Node {
    if (!this.atOperator('-')) return this.primary();
    const position = this.next().position;
    return { kind: 'negate', operand: this.nested(() => this.unary()), position };
  }

  private primary(): Node {
    const token = this.next();
    switch (token.type) {
      case 'number':
        return { kind: 'number', value: token.value as number, position: token.position };
      case 'string':
        return { kind: 'string', value: token.value as string, position: token.position };
      case 'keyword':
        if (token.text === 'true' || token.text === 'false') {
          return { kind: 'boolean', value: token.text === 'true', position: token.position };
        }
        break;
      case '(': {
        const inner = this.expression();
        this.expect(')', `a closing ")" for the "(" at ${token.position}`);
        return inner;
      }
      case 'name':
        if (this.peek().type !== '(') {
          throw new ProgramError(
            `unknown name "${token.text}": labels are written in quotes ("${token.text}"), functions are called with parentheses`,
            token.position,
          );
        }
        return this.nested(() => this.call(token));
      default:
        break;
    }
    throw new ProgramError(`expected a value but found ${describe(token)}`, token.position);
  }

  private call(name: Token): Node {
    this.next();
    const args: Node[] = [];
    if (this.peek().type !== ')') {
      args.push(this.expression());
      while (this.peek().type === ',') {
        this.next();
        args.push(this.expression());
      }
    }
    this.expect(')', `"," or ")" in the call to ${name.text}`);
    return { kind: 'call', name: name.text, args, position: name.position };
  }

  private nested(parse: () => Node): Node {
    this.depth += 1;
    if (this.depth > MAX_NESTING_DEPTH) {
      throw new ProgramError(`the program nests deeper than ${MAX_NESTING_DEPTH} levels`, this.peek().position);
    }
    try {
      return parse();
    } finally {
      this.depth -= 1;
    }
  }

  private expect(type: Token['type'], what: string): void {
    const token = this.peek();
    if (token.type !== type) throw new ProgramError(`expected ${what} but found ${describe(token)}`, token.position);
    this.next();
  }

  private atOperator(text: string): boolean {
    const token = this.peek();
    return token.type === 'operator' && token.text === text;
  }

  private atKeyword(text: string): boolean {
    const token = this.peek();
    return token.type === 'keyword' && token.text === text;
  }

  private peek(): Token {
    // The token list always ends with `end`, and the parser never moves past it.
    return this.tokens[this.index] ?? this.tokens[this.tokens.length - 1] ?? { type: 'end', text: '', position: 0 };
  }

  private next(): Token {
    const token = this.peek();
    if (token.type !== 'end') this.index += 1;
    return token;
  }
}

/** Token text quoted in messages is cut short: a message must stay readable for a 2000-character string. */
const MAX_QUOTED_TOKEN = 40;

function describe(token: Token): string {
  const text = token.text.length > MAX_QUOTED_TOKEN ? `${token.text.slice(0, MAX_QUOTED_TOKEN)}…` : token.text;
  switch (token.type) {
    case 'end':
      return 'the end of the program';
    case 'string':
      return `the string ${text}`;
    case 'number':
      return `the number ${text}`;
    default:
      return `"${text}"`;
  }
}

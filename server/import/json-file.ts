import { parse as parseLenient, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { InputFileError } from './input-file-error';

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * JSON.parse, and on failure a second pass with a parser that reports where the first
 * syntax error is, so the error names the line (Node 20's messages often give no position).
 */
export function parseJsonFile(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const errors: ParseError[] = [];
    parseLenient(text, errors, { disallowComments: true, allowTrailingComma: false });
    const first = errors[0];
    if (!first) throw new InputFileError(file, `invalid JSON: ${(error as Error).message}`);
    const { line, column } = lineAndColumn(text, first.offset);
    throw new InputFileError(file, `invalid JSON: ${printParseErrorCode(first.error)} at column ${column}`, line);
  }
}

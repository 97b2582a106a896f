import { PYTHON_SPACE_CLASS } from '../table/python-float';

/**
 * Pulls the final answer out of a model's reply. The evaluation prompt asks for a last line
 * `Answer: <answer>`; models that ignore it are read from their last non-empty line. Markdown
 * emphasis, quotes and a trailing full stop are stripped. Null when the reply is empty.
 */
const ANSWER_LINE = new RegExp(`^[${PYTHON_SPACE_CLASS}]*(?:final\\s+)?answer\\s*[:：][${PYTHON_SPACE_CLASS}]*(.+?)[${PYTHON_SPACE_CLASS}]*$`, 'im');

export function extractAnswer(raw: string): string | null {
  const lines = raw.split(/\r?\n/);
  let answer: string | undefined;
  for (const line of lines) {
    const match = ANSWER_LINE.exec(line);
    if (match?.[1]) answer = match[1];
  }
  answer ??= lines.map((l) => l.trim()).filter((l) => l !== '').at(-1);
  if (answer === undefined) return null;
  const cleaned = normaliseAnswer(answer);
  return cleaned === '' ? null : cleaned;
}

/** Whitespace is Python's (`str.isspace()`: no byte-order mark), as the reference scorers read it. */
const EDGE_MARKS = new RegExp(`^[*_\`"'“”‘’${PYTHON_SPACE_CLASS}]+|[*_\`"'“”‘’.${PYTHON_SPACE_CLASS}]+$`, 'g');
const EDGE_MARK = new RegExp(`[*_\`"'“”‘’.${PYTHON_SPACE_CLASS}]`);

/**
 * What extraction does to an answer line: Markdown emphasis, quotes and whitespace dropped from
 * both ends, and a final full stop. Scoring applies it to the gold answer as well (see
 * `answerCorrect`), so both sides of a comparison are read alike; applying it twice changes nothing.
 */
export function normaliseAnswer(answer: string): string {
  // The common case, nothing to drop at either end, skips the replace.
  if (answer === '' || (!EDGE_MARK.test(answer[0] ?? '') && !EDGE_MARK.test(answer.at(-1) ?? ''))) return answer;
  return answer.replace(EDGE_MARKS, '');
}

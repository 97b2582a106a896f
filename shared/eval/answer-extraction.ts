/**
 * Pulls the final answer out of a model's reply. The evaluation prompt asks for a last line
 * `Answer: <answer>`; models that ignore it are read from their last non-empty line. Markdown
 * emphasis, quotes and a trailing full stop are stripped. Null when the reply is empty.
 */
const ANSWER_LINE = /^\s*(?:final\s+)?answer\s*[:：]\s*(.+?)\s*$/im;

export function extractAnswer(raw: string): string | null {
  const lines = raw.split(/\r?\n/);
  let answer: string | undefined;
  for (const line of lines) {
    const match = ANSWER_LINE.exec(line);
    if (match?.[1]) answer = match[1];
  }
  answer ??= lines.map((l) => l.trim()).filter((l) => l !== '').at(-1);
  if (answer === undefined) return null;
  const cleaned = answer.replace(/^[*_`"'“”‘’\s]+|[*_`"'“”‘’.\s]+$/g, '').trim();
  return cleaned === '' ? null : cleaned;
}

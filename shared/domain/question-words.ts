/**
 * Reading a chart question for words about the drawing itself (its marks, its colours), not
 * about the data. A word inside a table label the question quotes is data: "Green party",
 * "Bar & grill", a row called "Red".
 */

/** Labels shorter than this are not blanked out: a one-letter row would erase letters everywhere. */
const MIN_LABEL_CHARS = 2;

const PRINTABLE_ASCII = /^[ -~\t\n\r]*$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The question with every table label it contains (case aside) replaced by spaces, longest labels first. */
export function outsideTableLabels(question: string, labels: readonly string[]): string {
  const names = [...new Set(labels.map((label) => label.replace(/\*+$/, '').trim()))]
    .filter((label) => label.length >= MIN_LABEL_CHARS)
    .sort((a, b) => b.length - a.length);
  let text = question;
  // A Unicode regex per label costs more than the rest of a review claim: where question and
  // label are printable ASCII (case folding then is plain lower-casing), one that cannot match is skipped unbuilt.
  const asciiQuestion = PRINTABLE_ASCII.test(question) ? question.toLowerCase() : null;
  for (const name of names) {
    if (asciiQuestion !== null && PRINTABLE_ASCII.test(name) && !asciiQuestion.includes(name.toLowerCase())) continue;
    text = text.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name)}(?![\\p{L}\\p{N}])`, 'giu'), (m) => ' '.repeat(m.length));
  }
  return text;
}

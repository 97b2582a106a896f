import { outsideTableLabels } from './question-words';

/**
 * Colour words in a chart question ("the light green bar", "red line", "blue bars", "How many
 * colors are used …"). Such a question can only be checked against the chart's colours, which
 * a chart drawn from its table without annotation colours does not have: reviewers are warned.
 *
 * What counts: a colour name, with a shade before it when there is one ("light green", "navy
 * blue", "dark-grey"), and the words colour/color themselves. What does not: words inside a
 * table label the question quotes (a row called "White", a series "Green party"), and a
 * capitalised colour followed by a capitalised word, which is a name ("Red Bull", "White House").
 */

const SHADES = ['light', 'dark', 'pale', 'bright', 'deep', 'sky', 'navy', 'royal', 'olive', 'lime', 'sea'];
const COLOURS = [
  'red', 'green', 'blue', 'yellow', 'orange', 'purple', 'violet', 'pink', 'brown', 'black', 'white', 'gray', 'grey',
  'navy', 'teal', 'turquoise', 'cyan', 'magenta', 'maroon', 'olive', 'beige', 'gold', 'golden', 'silver', 'lime',
  'indigo', 'lavender', 'crimson', 'aqua', 'coral', 'salmon', 'khaki',
  'reddish', 'bluish', 'greenish', 'yellowish', 'greyish', 'grayish', 'pinkish', 'purplish', 'brownish', 'orangish',
];
const GENERIC = ['colour', 'colours', 'color', 'colors', 'coloured', 'colored'];

/** The words colour/color themselves: "how many colours" counts, it names no colour. */
export const GENERIC_COLOUR_WORDS: ReadonlySet<string> = new Set(GENERIC);

const COLOUR_PHRASE = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:(?:${SHADES.join('|')})[\\s-]+)?(?:${COLOURS.join('|')})(?![\\p{L}\\p{N}])|(?<![\\p{L}\\p{N}])(?:${GENERIC.join('|')})(?![\\p{L}\\p{N}])`,
  'giu',
);
const NAME_AFTER = /^\s+\p{Lu}/u;

/** The colour words `question` uses outside the table's labels, lower-cased, each once, in order of appearance. */
export function colourWordsIn(question: string, tableLabels: readonly string[] = []): string[] {
  const text = outsideTableLabels(question, tableLabels);
  const found: string[] = [];
  for (const match of text.matchAll(COLOUR_PHRASE)) {
    const phrase = match[0];
    if (/^\p{Lu}/u.test(phrase) && NAME_AFTER.test(text.slice(match.index + phrase.length))) continue;
    const word = phrase.toLowerCase().replace(/[\s-]+/g, ' ');
    if (!found.includes(word)) found.push(word);
  }
  return found;
}

/**
 * Who asked for an import, so that its messages name the options that person can change: the
 * command line's flags (`hqa import --split`), or the fields of the Splits page's import form.
 * A browser user has no `--split` to give.
 */
export type ImportAudience = 'cli' | 'form';

export interface OptionWords {
  /** The split name option, as a message about its value starts: `--split: "a b" must be …`. */
  split: string;
  /** How to give a split name, ending a sentence: `…; give one with --split`. */
  giveSplit: string;
  /** How to choose a format, as a sentence of its own: `Give one with --format`. */
  chooseFormat: string;
  /** The images option, as a message about its value starts. */
  images: string;
}

const WORDS: Record<ImportAudience, OptionWords> = {
  cli: { split: '--split', giveSplit: 'give one with --split', chooseFormat: 'Give one with --format', images: '--images' },
  form: {
    split: 'Split name',
    giveSplit: 'type one in the Split name field',
    chooseFormat: 'Choose one in the Format field',
    images: 'The images folder',
  },
};

/** The words an import's messages use for its options; the command line's when no one is named. */
export function optionWords(audience: ImportAudience | undefined): OptionWords {
  return WORDS[audience ?? 'cli'];
}

import { visit } from 'jsonc-parser';

/**
 * Keys that appear more than once in the top-level object of `text`, with the (1-based) line
 * of each repeat. JSON.parse keeps the last silently; a benchmark file keyed by id that
 * repeats an id has two records for one id, which the importer reports.
 */
export function duplicateTopLevelKeys(text: string): { key: string; line: number }[] {
  const seen = new Set<string>();
  const repeats: { key: string; line: number }[] = [];
  let depth = 0;
  visit(text, {
    onObjectBegin: () => {
      depth++;
    },
    onObjectEnd: () => {
      depth--;
    },
    onArrayBegin: () => {
      depth++;
    },
    onArrayEnd: () => {
      depth--;
    },
    onObjectProperty: (property, _offset, _length, startLine) => {
      if (depth !== 1) return;
      if (seen.has(property)) repeats.push({ key: property, line: startLine + 1 });
      seen.add(property);
    },
  });
  return repeats;
}

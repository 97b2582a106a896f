/**
 * A small Markdown reader for text admins write (the review guidelines): headings, paragraphs,
 * lists (nested by indentation), block quotes, fenced code, rules, and inline code, strong,
 * emphasis and links. It returns a tree, never HTML: the page draws the tree as React elements,
 * so a tag typed in the text stays text, and a link gets an address only when it is http(s),
 * mailto or a path on this site. What it does not read (tables, images, raw HTML) shows as typed.
 */

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'em'; children: Inline[] }
  /** `href` null: an address of a scheme not allowed (javascript:, data:…), shown as its text. */
  | { kind: 'link'; href: string | null; children: Inline[] };

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { kind: 'paragraph'; children: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Block[][] }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'code'; text: string }
  | { kind: 'rule' };

const FENCE = /^\s{0,3}(```|~~~)/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^\s{0,3}>\s?/;
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;

/** Deeper than this, lists and quotes are read as text: a guideline needs no more, and a crafted text cannot recurse without end. */
const MAX_DEPTH = 8;

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || LIST_ITEM.test(line);
}

function indentOf(line: string): number {
  return /^\s*/.exec(line)?.[0].length ?? 0;
}

/** Reads Markdown into blocks. */
export function parseMarkdown(source: string): Block[] {
  return parseBlocks(source.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n'), 0);
}

function parseBlocks(lines: string[], depth: number): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (line.trim() === '') {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const closing = fence[1] ?? '```';
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !(lines[i] ?? '').trimStart().startsWith(closing)) body.push(lines[i++] ?? '');
      i += 1;
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: (heading[1]?.length ?? 1) as 1 | 2 | 3 | 4 | 5 | 6, children: parseInline(heading[2] ?? '') });
      i += 1;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: 'rule' });
      i += 1;
      continue;
    }
    if (depth < MAX_DEPTH && QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] ?? '')) body.push((lines[i++] ?? '').replace(QUOTE, ''));
      blocks.push({ kind: 'quote', blocks: parseBlocks(body, depth + 1) });
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (depth < MAX_DEPTH && item) {
      const read = readList(lines, i, depth);
      blocks.push(read.list);
      i = read.end;
      continue;
    }
    const text: string[] = [];
    while (i < lines.length && (lines[i] ?? '').trim() !== '' && (text.length === 0 || !startsBlock(lines[i] ?? ''))) text.push((lines[i++] ?? '').trim());
    blocks.push({ kind: 'paragraph', children: parseInline(text.join(' ')) });
  }
  return blocks;
}

/**
 * A list from line `start`: items at its first item's indentation; lines indented past an
 * item's marker (a nested list, a second paragraph) and lines that continue its text belong to it.
 */
function readList(lines: string[], start: number, depth: number): { list: Block; end: number } {
  const first = LIST_ITEM.exec(lines[start] ?? '');
  const indent = first?.[1]?.length ?? 0;
  const ordered = /\d/.test(first?.[2] ?? '');
  const items: Block[][] = [];
  let i = start;
  while (i < lines.length) {
    const match = LIST_ITEM.exec(lines[i] ?? '');
    if (!match || (match[1]?.length ?? 0) !== indent || /\d/.test(match[2] ?? '') !== ordered) break;
    const contentIndent = indent + (match[2]?.length ?? 1) + 1;
    const body = [match[3] ?? ''];
    i += 1;
    while (i < lines.length) {
      const line = lines[i] ?? '';
      if (line.trim() === '') {
        // A blank line ends the item unless what follows is indented into it.
        const nextLine = lines[i + 1] ?? '';
        if (nextLine.trim() !== '' && indentOf(nextLine) >= contentIndent) {
          body.push('');
          i += 1;
          continue;
        }
        break;
      }
      if (indentOf(line) > indent && (indentOf(line) >= contentIndent || LIST_ITEM.test(line))) {
        body.push(line.slice(Math.min(contentIndent, indentOf(line))));
      } else if (!startsBlock(line)) {
        body.push(line.trim());
      } else {
        break;
      }
      i += 1;
    }
    items.push(parseBlocks(body, depth + 1));
    // Blank lines between items keep the list going.
    while (i < lines.length && (lines[i] ?? '').trim() === '' && LIST_ITEM.test(lines[i + 1] ?? '') && indentOf(lines[i + 1] ?? '') === indent) i += 1;
  }
  return { list: { kind: 'list', ordered, items }, end: i };
}

/** An address a link may carry: http(s), mailto, or a path or anchor on this site. */
export function safeHref(url: string): string | null {
  const trimmed = url.trim();
  if (/^(https?:|mailto:)/i.test(trimmed)) return trimmed;
  if (/^(\/(?!\/)|#|\.\/)/.test(trimmed)) return trimmed;
  return null;
}

const ESCAPABLE = /[\\`*_{}[\]()#+\-.!>~|]/;

/** Reads inline Markdown: `code`, **strong**, *em* / _em_, [text](url), bare http(s) addresses, backslash escapes. */
export function parseInline(text: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const flush = () => {
    if (plain !== '') out.push({ kind: 'text', text: plain });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? '';
    const rest = text.slice(i);
    if (ch === '\\' && ESCAPABLE.test(text[i + 1] ?? '')) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`') {
      const run = /^`+/.exec(rest)?.[0] ?? '`';
      const close = text.indexOf(run, i + run.length);
      if (close > 0) {
        flush();
        out.push({ kind: 'code', text: text.slice(i + run.length, close).trim() });
        i = close + run.length;
        continue;
      }
      plain += run;
      i += run.length;
      continue;
    }
    if (depth < MAX_DEPTH && (rest.startsWith('**') || rest.startsWith('__'))) {
      const marker = rest.slice(0, 2);
      const close = text.indexOf(marker, i + 2);
      if (close > i + 2) {
        flush();
        out.push({ kind: 'strong', children: parseInline(text.slice(i + 2, close), depth + 1) });
        i = close + 2;
        continue;
      }
    }
    if (depth < MAX_DEPTH && (ch === '*' || ch === '_') && /\S/.test(text[i + 1] ?? '')) {
      // `_` inside a word (snake_case) is not emphasis.
      const intraword = ch === '_' && /[\p{L}\p{N}]/u.test(text[i - 1] ?? '');
      const close = findEmphasisClose(text, i + 1, ch);
      if (!intraword && close > i + 1) {
        flush();
        out.push({ kind: 'em', children: parseInline(text.slice(i + 1, close), depth + 1) });
        i = close + 1;
        continue;
      }
    }
    if (ch === '[' && depth < MAX_DEPTH) {
      const link = /^\[([^\]]*)\]\(\s*([^\s)]*)(?:\s+"[^"]*")?\s*\)/.exec(rest);
      if (link) {
        flush();
        out.push({ kind: 'link', href: safeHref(link[2] ?? ''), children: parseInline(link[1] ?? '', depth + 1) });
        i += link[0].length;
        continue;
      }
    }
    const bare = /^https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/.exec(rest);
    if (bare && !/[\p{L}\p{N}]/u.test(text[i - 1] ?? '')) {
      flush();
      out.push({ kind: 'link', href: safeHref(bare[0]), children: [{ kind: 'text', text: bare[0] }] });
      i += bare[0].length;
      continue;
    }
    plain += ch;
    i += 1;
  }
  flush();
  return out;
}

/** Where a single `*` or `_` emphasis opened before `from` closes: a lone marker after a non-space. */
function findEmphasisClose(text: string, from: number, marker: string): number {
  for (let j = from; j < text.length; j++) {
    if (text[j] === '\\') {
      j += 1;
      continue;
    }
    if (text[j] !== marker || !/\S/.test(text[j - 1] ?? '')) continue;
    if (text[j + 1] === marker) {
      j += 1;
      continue;
    }
    if (marker === '_' && /[\p{L}\p{N}]/u.test(text[j + 1] ?? '')) continue;
    return j;
  }
  return -1;
}

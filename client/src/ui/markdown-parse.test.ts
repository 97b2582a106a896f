import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown, safeHref } from './markdown-parse';

describe('markdown reader', () => {
  it('reads headings, paragraphs (soft breaks joined), rules and fenced code', () => {
    expect(parseMarkdown('# Rationality\n\nThe assumption\nmust be sensible.\n\n---\n\n```\nsum(a) > 100\n```')).toEqual([
      { kind: 'heading', level: 1, children: [{ kind: 'text', text: 'Rationality' }] },
      { kind: 'paragraph', children: [{ kind: 'text', text: 'The assumption must be sensible.' }] },
      { kind: 'rule' },
      { kind: 'code', text: 'sum(a) > 100' },
    ]);
  });

  it('reads lists, ordered or not, with a nested list and a continued line', () => {
    const blocks = parseMarkdown('- pass when\n  the question is clear\n- fail when:\n  1. it names the answer\n  2. it is implausible\n\nAfter.');
    expect(blocks).toEqual([
      {
        kind: 'list',
        ordered: false,
        items: [
          [{ kind: 'paragraph', children: [{ kind: 'text', text: 'pass when the question is clear' }] }],
          [
            { kind: 'paragraph', children: [{ kind: 'text', text: 'fail when:' }] },
            {
              kind: 'list',
              ordered: true,
              items: [[{ kind: 'paragraph', children: [{ kind: 'text', text: 'it names the answer' }] }], [{ kind: 'paragraph', children: [{ kind: 'text', text: 'it is implausible' }] }]],
            },
          ],
        ],
      },
      { kind: 'paragraph', children: [{ kind: 'text', text: 'After.' }] },
    ]);
  });

  it('reads block quotes', () => {
    expect(parseMarkdown('> shares must still sum to 100')).toEqual([{ kind: 'quote', blocks: [{ kind: 'paragraph', children: [{ kind: 'text', text: 'shares must still sum to 100' }] }] }]);
  });

  it('reads inline code, strong, emphasis and links; snake_case is not emphasis', () => {
    expect(parseInline('**Fail** when *any* `edit` breaks a_whole_table, see [the paper](https://arxiv.org/abs/2503.04095)')).toEqual([
      { kind: 'strong', children: [{ kind: 'text', text: 'Fail' }] },
      { kind: 'text', text: ' when ' },
      { kind: 'em', children: [{ kind: 'text', text: 'any' }] },
      { kind: 'text', text: ' ' },
      { kind: 'code', text: 'edit' },
      { kind: 'text', text: ' breaks a_whole_table, see ' },
      { kind: 'link', href: 'https://arxiv.org/abs/2503.04095', children: [{ kind: 'text', text: 'the paper' }] },
    ]);
  });

  it('keeps tags as text and gives no address to a javascript: or data: link', () => {
    expect(parseInline('<img src=x onerror=alert(1)>')).toEqual([{ kind: 'text', text: '<img src=x onerror=alert(1)>' }]);
    expect(parseInline('[click](javascript:alert(1))')[0]).toMatchObject({ kind: 'link', href: null });
    expect(safeHref('JavaScript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,<script>')).toBeNull();
    expect(safeHref('//evil.example/x')).toBeNull();
    expect(safeHref('/items/3')).toBe('/items/3');
    expect(safeHref('mailto:team@example.org')).toBe('mailto:team@example.org');
  });

  it('links a bare address without its closing punctuation; a backslash escapes a marker', () => {
    expect(parseInline('See https://example.org/guide.')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', href: 'https://example.org/guide', children: [{ kind: 'text', text: 'https://example.org/guide' }] },
      { kind: 'text', text: '.' },
    ]);
    expect(parseInline('2 \\* 3 \\* 4')).toEqual([{ kind: 'text', text: '2 * 3 * 4' }]);
  });

  it('reads deeply nested input as text instead of recursing without end', () => {
    const deep = `${'> '.repeat(200)}deep`;
    expect(() => parseMarkdown(deep)).not.toThrow();
    expect(() => parseInline('*'.repeat(5000))).not.toThrow();
    expect(() => parseInline('['.repeat(3000))).not.toThrow();
  });
});

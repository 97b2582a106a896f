import { describe, expect, it } from 'vitest';
import { freeText, hasLoneSurrogate, nameText, stripHiddenControls } from './text-input';

describe('text input rules', () => {
  it('tells lone surrogates from pairs', () => {
    expect(hasLoneSurrogate('chart 😀')).toBe(false);
    expect(hasLoneSurrogate('a\ud83d')).toBe(true);
    expect(hasLoneSurrogate('\ude00a')).toBe(true);
    expect(hasLoneSurrogate('\ude00\ud83d')).toBe(true); // reversed halves are two lone ones
  });

  it('strips NUL and every embedding, override and isolate control, and nothing else', () => {
    const controls = '\u0000\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';
    expect(stripHiddenControls(`a${controls}b`)).toBe('ab');
    // Right-to-left letters and the implicit marks (LRM, RLM) stay: they are text, not overrides.
    expect(stripHiddenControls('שלום \u200e\u200f مرحبا')).toBe('שלום \u200e\u200f مرحبا');
  });

  it('free text is stripped before its length is checked; a name is refused', () => {
    expect(freeText().trim().min(1).safeParse(' \u202e ').success).toBe(false);
    expect(freeText().trim().parse(' a\u202eb ')).toBe('ab');
    expect(nameText().safeParse('a\u202eb').success).toBe(false);
    expect(nameText().parse('España')).toBe('España');
  });
});

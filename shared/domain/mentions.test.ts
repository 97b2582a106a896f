import { describe, expect, it } from 'vitest';
import { mentionedNames } from './mentions';

describe('mentionedNames', () => {
  it('reads names at the start, after spaces and punctuation, each once', () => {
    expect(mentionedNames('@ann see this, (@bob_2) and @ann again')).toEqual(['ann', 'bob_2']);
  });
  it('ends a name before a sentence full stop but keeps inner dots', () => {
    expect(mentionedNames('ask @j.smith. Or @cleo.')).toEqual(['j.smith', 'cleo']);
  });
  it('ignores e-mail addresses and a bare @', () => {
    expect(mentionedNames('mail bob@example.org or @ alone, @x')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { decodeUtf8File, firstInvalidUtf8Offset } from './utf8-text';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('decodeUtf8File', () => {
  it('decodes UTF-8 and drops a leading BOM', () => {
    expect(decodeUtf8File(Buffer.from('\uFEFFEspaña,1\r\n', 'utf8'), 't.csv')).toBe('España,1\r\n');
  });

  it('refuses Latin-1 with the file, line, byte and offset', () => {
    expect(() => decodeUtf8File(Buffer.from('Country,Value\nEspaña,1\n', 'latin1'), 'tables/t.csv')).toThrow(
      'tables/t.csv:2: not valid UTF-8: byte 0xF1 at byte offset 18; save the file as UTF-8',
    );
  });
});

describe('firstInvalidUtf8Offset', () => {
  it('points at the lead byte of the first broken sequence', () => {
    expect(firstInvalidUtf8Offset(bytes(0x61, 0xc3, 0xb1))).toBe(-1); // "añ"
    expect(firstInvalidUtf8Offset(bytes(0x61, 0xf1, 0x61))).toBe(1); // Latin-1 ñ before "a"
    expect(firstInvalidUtf8Offset(bytes(0x61, 0xc0, 0xaf))).toBe(1); // overlong "/"
    expect(firstInvalidUtf8Offset(bytes(0xe0, 0x80, 0xaf))).toBe(0); // overlong, 3 bytes
    expect(firstInvalidUtf8Offset(bytes(0xed, 0xa0, 0x80))).toBe(0); // a surrogate, U+D800
    expect(firstInvalidUtf8Offset(bytes(0xf4, 0x90, 0x80, 0x80))).toBe(0); // past U+10FFFF
    expect(firstInvalidUtf8Offset(bytes(0x61, 0x62, 0xe2, 0x82))).toBe(2); // cut short at the end
    expect(firstInvalidUtf8Offset(bytes(0x80))).toBe(0); // a lone continuation byte
  });

  it('agrees with the fatal TextDecoder on random bytes', () => {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 2000; n++) {
      // Mostly valid text with a few random bytes, so both outcomes are common.
      const text = Buffer.from(`ab ñ € 😀 ${n}`, 'utf8');
      const noisy = Uint8Array.from(text, (b) => (next() % 40 === 0 ? next() % 256 : b));
      let valid = true;
      try {
        decoder.decode(noisy);
      } catch {
        valid = false;
      }
      expect(firstInvalidUtf8Offset(noisy) === -1, Buffer.from(noisy).toString('hex')).toBe(valid);
    }
  });
});

import { InputFileError } from './input-file-error';

/** Fatal: a file that is not UTF-8 is refused, never read with U+FFFD in place of its bytes. Strips a BOM. */
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The offset of the first byte that does not start a well-formed UTF-8 sequence (the lead
 * byte of a broken sequence: overlong forms, surrogates, past U+10FFFF, cut short), or -1.
 * The decoder decides; this only says where, for the error message.
 */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x80) {
      i++;
      continue;
    }
    let continuation: number;
    // The second byte's range narrows to refuse overlong forms (E0, F0), surrogates (ED) and > U+10FFFF (F4).
    let lower = 0x80;
    let upper = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) continuation = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      continuation = 2;
      if (lead === 0xe0) lower = 0xa0;
      if (lead === 0xed) upper = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      continuation = 3;
      if (lead === 0xf0) lower = 0x90;
      if (lead === 0xf4) upper = 0x8f;
    } else return i;
    for (let k = 1; k <= continuation; k++) {
      const byte = bytes[i + k];
      if (byte === undefined || byte < lower || byte > upper) return i;
      lower = 0x80;
      upper = 0xbf;
    }
    i += continuation + 1;
  }
  return -1;
}

/**
 * Decodes a file's bytes as UTF-8 (a leading BOM is dropped). Anything else is refused with
 * the byte, its offset in the file and its line, e.g. a Latin-1 "España" (0xF1).
 */
export function decodeUtf8File(bytes: Uint8Array, file: string): string {
  try {
    return decoder.decode(bytes);
  } catch {
    const offset = Math.max(0, firstInvalidUtf8Offset(bytes));
    let line = 1;
    for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
    const byte = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    throw new InputFileError(file, `not valid UTF-8: byte 0x${byte} at byte offset ${offset}; save the file as UTF-8`, line);
  }
}

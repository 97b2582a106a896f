import { z } from 'zod';

/**
 * What text people (and models) send may hold. docs/text-input.md states the rules:
 * - a lone surrogate (half of a UTF-16 pair, which JSON's `\ud800` escapes can carry) is
 *   refused everywhere: it is not text, cannot be stored as UTF-8 and breaks exports;
 * - NUL and the bidirectional embedding, override and isolate controls (U+202A–U+202E,
 *   U+2066–U+2069) make text display otherwise than it reads ("Trojan Source"): in names
 *   (of users, of table rows an edit adds) they are refused, since a name identifies and
 *   two names must not look alike; in free text (item text, review feedback and notes,
 *   proposal text) they are stripped, since they carry no meaning of their own there and
 *   pasted right-to-left text often brings them along.
 */

/** In unicode mode a surrogate matches \p{Cs} only when it is not half of a pair. */
const LONE_SURROGATE = /\p{Cs}/u;
// NUL is one of the characters these look for, hence the control character in them.
// eslint-disable-next-line no-control-regex
const HIDDEN_CONTROLS = /[\u0000\u202A-\u202E\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const HAS_HIDDEN_CONTROL = /[\u0000\u202A-\u202E\u2066-\u2069]/;

export const LONE_SURROGATE_MESSAGE = 'holds a lone surrogate (half of a UTF-16 pair), which is not text';
export const HIDDEN_CONTROL_MESSAGE = 'may not hold NUL or bidirectional control characters (U+202A–U+202E, U+2066–U+2069)';

export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);
export const stripHiddenControls = (text: string): string => text.replace(HIDDEN_CONTROLS, '');

/**
 * Free text: lone surrogates refused, NUL and bidi controls stripped. Chain length checks
 * after it (`freeText().trim().min(1).max(600)`), so they measure the text as stored.
 */
export function freeText() {
  return z
    .string()
    .refine((text) => !hasLoneSurrogate(text), LONE_SURROGATE_MESSAGE)
    .overwrite(stripHiddenControls);
}

/** A name: lone surrogates, NUL and bidi controls refused. */
export function nameText() {
  return z
    .string()
    .refine((text) => !hasLoneSurrogate(text), LONE_SURROGATE_MESSAGE)
    .refine((text) => !HAS_HIDDEN_CONTROL.test(text), HIDDEN_CONTROL_MESSAGE);
}

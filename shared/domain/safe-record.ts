import { z } from 'zod';

/**
 * A record (name → value) whose names come from users. `__proto__` parsed from JSON is an own
 * key; zod drops it silently, and code that spreads or assigns the record may set a prototype
 * instead: `{"price_table": {"__proto__": {…}}}` emptied the price table. Such names are refused
 * by name instead.
 */
const RESERVED_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

export function safeRecord<K extends z.ZodType<string>, V extends z.ZodType>(key: K, value: V) {
  return z.preprocess((input, ctx) => {
    if (input !== null && typeof input === 'object') {
      for (const name of RESERVED_KEYS) {
        if (Object.hasOwn(input, name)) ctx.issues.push({ code: 'custom', message: `"${name}" cannot be used as a name here`, input, path: [name] });
      }
    }
    return input;
  }, z.record(key, value));
}

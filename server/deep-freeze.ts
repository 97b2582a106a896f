/**
 * Freezes a value and everything in it: what a process-wide cache hands out (settings, parsed
 * chart tables) is shared by every request, so no caller may change it for the others.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

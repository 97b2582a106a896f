/**
 * Programs come from an LLM and run inside the server, so their size and work are bounded and
 * every failure is a ProgramError carrying the 0-based offset in the source it points at.
 */

/** Longer than any real question needs (the longest sample program is under 150 characters). */
export const MAX_PROGRAM_LENGTH = 2000;
/** Nesting of parentheses, calls and prefix operators; keeps parser and interpreter recursion shallow. */
export const MAX_NESTING_DEPTH = 64;
/** Evaluation steps (one per node evaluated and per list element touched); no real program comes near. */
export const MAX_EVAL_STEPS = 100_000;

export class ProgramError extends Error {
  constructor(
    message: string,
    readonly position?: number,
  ) {
    super(message);
    this.name = 'ProgramError';
  }
}

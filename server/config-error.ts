/**
 * A setting from the environment that cannot be used: its message names the variable, its
 * value and what it expects, and `npm start` prints it as one line instead of a stack trace.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/errors';
import { statusOf } from '../../server/http/error-status';

/**
 * Errors are translated once (STYLE.md, One way per concern): domain code throws a coded
 * `DomainError` (server/domain-error.ts) or a subclass carrying its code, and only
 * `server/http/` knows HTTP statuses. A route that catches a domain error to throw another, or a
 * module outside `server/http/` reaching for the status map, starts a second translation.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [relative(ROOT, path)] : [];
  });
}

const serverFiles = sourceFiles(join(ROOT, 'server')).filter((path) => !path.endsWith('.test.ts'));
const outsideHttp = serverFiles.filter((path) => !path.startsWith('server/http/'));

/** Lines naming the HTTP error layer: the status map's module, or the HttpError class it replaced. */
const HTTP_ERROR_LAYER = [/['"][./]*(?:server\/)?http\/(?:error-status|http-error)['"]/, /\bHttpError\b/];
/** A route handling a domain error class itself (`error instanceof SplitInUseError`). */
const ROUTE_TRANSLATION = /\binstanceof\s+[A-Z]\w*Error\b/;

const offendingLines = (path: string, patterns: readonly RegExp[]): string[] =>
  readFileSync(join(ROOT, path), 'utf8')
    .split('\n')
    .flatMap((line, index) => (patterns.some((pattern) => pattern.test(line)) ? [`${path}:${index + 1}: ${line.trim()}`] : []));

describe('domain errors', () => {
  it('gives every error code an HTTP error status', () => {
    for (const code of ERROR_CODES) {
      const status = statusOf(code);
      expect(Number.isInteger(status) && status >= 400 && status <= 599, `${code} → ${status}`).toBe(true);
    }
  });

  it('keeps the HTTP error layer inside server/http/: no module elsewhere imports it or names HttpError', () => {
    expect(outsideHttp.length).toBeGreaterThan(100);
    expect(outsideHttp.flatMap((path) => offendingLines(path, HTTP_ERROR_LAYER))).toEqual([]);
  });

  it('leaves routes translating no domain errors: they reach the error handler as thrown', () => {
    const routes = serverFiles.filter((path) => path.endsWith('-routes.ts'));
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.flatMap((path) => offendingLines(path, [ROUTE_TRANSLATION]))).toEqual([]);
  });

  it('finds what it forbids (so an empty result means something)', () => {
    const hits = (text: string, patterns: readonly RegExp[]) => text.split('\n').filter((line) => patterns.some((pattern) => pattern.test(line)));
    expect(hits("import { HttpError, notFound } from '../http/http-error';", HTTP_ERROR_LAYER)).toHaveLength(1);
    expect(hits("import { statusOf } from '../http/error-status';", HTTP_ERROR_LAYER)).toHaveLength(1);
    expect(hits("import { statusOf } from '../../server/http/error-status';", HTTP_ERROR_LAYER)).toHaveLength(1);
    expect(hits('throw new HttpError(409, message);', HTTP_ERROR_LAYER)).toHaveLength(1);
    expect(hits("import { DomainError, notFound } from '../domain-error';\nimport { apiRouter, handle } from '../http/handle';", HTTP_ERROR_LAYER)).toEqual([]);
    expect(hits('if (error instanceof SplitInUseError) throw new DomainError(…);', [ROUTE_TRANSLATION])).toHaveLength(1);
    expect(hits('if (error instanceof Error) log(error);', [ROUTE_TRANSLATION])).toEqual([]);
  });
});

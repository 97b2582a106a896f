// The client's `zod`: vite.config.ts resolves every `from 'zod'` in the bundle (client and
// shared code alike) to this module, so the configuration below runs before any module
// that builds a schema — by dependency order, which no chunking reorders.
//
// zod compiles object parsers with `new Function` when it may, and probes whether it may by
// calling it once, at the first z.object(): under our CSP (no 'unsafe-eval') the probe is
// refused and reported as a violation on every page, although zod catches the throw.
// `jitless` skips the probe and the compiled path; parsing API responses is not the page's
// hot path. The server keeps zod's compiled parsers.
import { config } from 'zod/v4';

config({ jitless: true });

export * from 'zod/v4';

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Client code under test imports shared/ as @shared/... (tsconfig.json `paths`, vite.config.ts).
  resolve: { alias: [{ find: /^@shared\//, replacement: fileURLToPath(new URL('./shared/', import.meta.url)) }] },
  test: {
    include: ['shared/**/*.test.ts', 'client/src/**/*.test.ts', 'server/**/*.test.ts', 'db/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    // Polls wait for servers and browsers; on a loaded 2-core machine one second is too short.
    expect: { poll: { timeout: 10_000, interval: 50 } },
    hookTimeout: 60_000,
    // Integration and e2e tests start real servers and Chromium; two cores, so keep it modest.
    maxWorkers: 2,
    // Test files of a worker share its modules: each file re-importing the server (express,
    // socket.io, vega, compromise…) and launching its own Chromium cost the suite ~5 of its ~18
    // minutes. Files still get their own servers and databases; what a file stubs or spies on
    // is put back after each test, and files that set process.env restore it.
    isolate: false,
    unstubGlobals: true,
    restoreMocks: true,
    // The suite makes ~400 password hashes: at the production cost (2^15, ~0.3–0.6 s each on a
    // loaded 2-core machine) they were minutes of it. Servers and CLIs the tests spawn inherit it.
    // Pool threads outlive the servers that started them (~80 thread starts a run, ~1–2 s of CPU
    // each, became ~8): the servers of a worker's test files come and go within its one process.
    env: { HQA_PASSWORD_COST: '10', HQA_THREAD_IDLE_MS: '600000' },
    // Transformed modules kept on disk between runs, by content: a run after a change transforms
    // only the changed files (a server test file's import took 7.6 s cold, 4.6 s warm).
    experimental: { fsModuleCache: true, fsModuleCachePath: 'node_modules/.cache/hqa/vitest' },
  },
});

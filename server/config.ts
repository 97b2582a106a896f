import { resolve } from 'node:path';
import { passwordCost } from './auth/passwords';
import { defaultAllowedHosts, parseHost } from './http/allowed-hosts';
import { ConfigError } from './config-error';

/** Every setting the server reads from the environment, with its default. README lists them. */
export interface Config {
  dbPath: string;
  port: number;
  host: string;
  openaiApiKey: string | undefined;
  openaiBaseUrl: string | undefined;
  logLevel: string;
  /** Import the bundled demo split when the database has no charts. */
  demoOnEmpty: boolean;
  cookieSecure: boolean;
  /**
   * The direct peer is one reverse proxy whose X-Forwarded-Proto / -Host / -For the server
   * believes (HTTPS, the origin writes must come from, the address logins are counted by).
   */
  trustProxy: boolean;
  /** Failed logins per address per window (every name tried from it). */
  loginRateLimit: number;
  /** Failed logins per user name per window (from every address); locks that name only. */
  loginAccountRateLimit: number;
  loginRateWindowMs: number;
  /** Where the built client lives; the server serves it when the folder exists. */
  clientDir: string;
  /**
   * How often open sockets are checked against their sessions: ends the server does not make
   * itself (idle or absolute expiry, `hqa user disable` from another process) close them within this.
   */
  sessionSweepMs: number;
  /** How often a batch run (OpenAI Batch API) polls its batch; it backs off from this while nothing changes. */
  batchPollMs: number;
  /**
   * Before serving, claim and give back items over HTTP so the first reviewers meet warm code
   * (review/review-http-warmup.ts; nothing of it is stored). Tests that start many servers turn it off.
   */
  warmUp: boolean;
  /**
   * The names and addresses (`host` or `host:port`) browsers may reach the server by: any other
   * Host is refused, requests and sockets alike (DNS rebinding). Loopback, the machine's host
   * name and addresses, and HQA_HOST, plus what HQA_ALLOWED_HOSTS adds.
   */
  allowedHosts: readonly string[];
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${name}=${raw}: expected a non-negative integer`);
  return value;
}

function boolFrom(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name}=${raw}: expected true or false`);
}

export const DEFAULT_DB_PATH = 'data/hqa.sqlite';
export const DEFAULT_PORT = 5174;
export const DEFAULT_SESSION_SWEEP_MS = 5_000;
/** A batch takes minutes to hours: polling it twice a minute is plenty. */
export const DEFAULT_BATCH_POLL_MS = 30_000;
/** A sweep reads every open socket's session: not more often than this. */
const MIN_SESSION_SWEEP_MS = 100;

function sessionSweepFrom(env: NodeJS.ProcessEnv): number {
  const value = intFrom(env, 'HQA_SESSION_SWEEP_MS', DEFAULT_SESSION_SWEEP_MS);
  if (value < MIN_SESSION_SWEEP_MS) throw new ConfigError(`HQA_SESSION_SWEEP_MS=${value}: expected at least ${MIN_SESSION_SWEEP_MS}`);
  return value;
}

/** HQA_ALLOWED_HOSTS, comma- or space-separated, after the defaults; an entry that is no host is refused by name. */
function allowedHostsFrom(env: NodeJS.ProcessEnv, bindHost: string): string[] {
  const added = (env.HQA_ALLOWED_HOSTS ?? '').split(/[\s,]+/).filter((entry) => entry !== '');
  for (const entry of added) {
    if (parseHost(entry) === null) throw new ConfigError(`HQA_ALLOWED_HOSTS: "${entry}" is not a host name or address (host or host:port)`);
  }
  return [...new Set([...defaultAllowedHosts(bindHost), ...added])];
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // HQA_PASSWORD_COST is read where passwords are hashed (the CLI hashes too, without a
  // Config); checked here so a bad value stops the start, not the first account made.
  passwordCost(env);
  const host = env.HQA_HOST || '127.0.0.1';
  return {
    dbPath: resolve(env.HQA_DB || DEFAULT_DB_PATH),
    port: intFrom(env, 'HQA_PORT', DEFAULT_PORT),
    host,
    openaiApiKey: env.OPENAI_API_KEY || undefined,
    openaiBaseUrl: env.OPENAI_BASE_URL || undefined,
    logLevel: env.HQA_LOG_LEVEL || 'info',
    demoOnEmpty: boolFrom(env, 'HQA_DEMO', true),
    cookieSecure: boolFrom(env, 'HQA_COOKIE_SECURE', false),
    trustProxy: boolFrom(env, 'HQA_TRUST_PROXY', false),
    loginRateLimit: intFrom(env, 'HQA_LOGIN_RATE_LIMIT', 50),
    loginAccountRateLimit: intFrom(env, 'HQA_LOGIN_ACCOUNT_RATE_LIMIT', 10),
    loginRateWindowMs: intFrom(env, 'HQA_LOGIN_RATE_WINDOW_S', 15 * 60) * 1000,
    clientDir: resolve(env.HQA_CLIENT_DIR || 'dist/client'),
    sessionSweepMs: sessionSweepFrom(env),
    batchPollMs: intFrom(env, 'HQA_BATCH_POLL_MS', DEFAULT_BATCH_POLL_MS) || DEFAULT_BATCH_POLL_MS,
    warmUp: boolFrom(env, 'HQA_WARM_UP', true),
    allowedHosts: allowedHostsFrom(env, host),
  };
}

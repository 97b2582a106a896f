import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { ConfigError } from '../config-error';

/**
 * scrypt (memory-hard, in Node's crypto) with N=2^cost, r=8. The default cost 15 is 32 MiB and
 * ~50–100 ms per hash here, which makes offline guessing expensive. Parameters are stored in
 * the hash, so the cost can be raised later without breaking old hashes.
 */
export const DEFAULT_PASSWORD_COST = 15;
/**
 * Below 2^10 scrypt is no obstacle at all; above 2^18 (256 MiB a hash) a few logins at once
 * would exhaust a small server. The test suite runs at 10: it makes ~400 hashes.
 */
const MIN_COST = 10;
const MAX_COST = 18;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

/** log2 of scrypt's N for new hashes: `HQA_PASSWORD_COST`, checked (the server and CLI check it at start, config.ts). */
export function passwordCost(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.HQA_PASSWORD_COST;
  if (raw === undefined || raw === '') return DEFAULT_PASSWORD_COST;
  const cost = Number(raw);
  if (!Number.isInteger(cost) || cost < MIN_COST || cost > MAX_COST) {
    throw new ConfigError(`HQA_PASSWORD_COST=${raw}: expected an integer from ${MIN_COST} to ${MAX_COST} (log2 of scrypt's N; default ${DEFAULT_PASSWORD_COST})`);
  }
  return cost;
}

function scryptAsync(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  // scrypt needs 128·N·r·p bytes; Node refuses anything over maxmem (32 MiB by default).
  const maxmem = 2 * 128 * (options.N ?? 0) * (options.r ?? R) * (options.p ?? P);
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keylen, { ...options, maxmem }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const N = 2 ** passwordCost();
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, KEY_LENGTH, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * Whether `password` is the one `stored` was made from. Without a stored hash (no such user) it
 * still spends one hash at today's cost and says no, so timing does not reveal which names exist.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (stored === null) {
    await hashPassword(password);
    return false;
  }
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(actual, expected);
}

/** A password for generated accounts: 18 random bytes, URL-safe. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

import type { Request, RequestHandler, Response } from 'express';
import { rateLimit, type RateLimitInfo } from 'express-rate-limit';
import type { ErrorBody } from '../../shared/errors';
import type { Config } from '../config';

/** The status of a login that checked a password and found it wrong: the only one that counts. */
const WRONG_PASSWORD_STATUS = 401;

/**
 * The account a login body tries, as the database finds it: trimmed, and with ASCII letters in
 * one case, as user names are `COLLATE NOCASE` (which folds A–Z only). Keyed on the name as
 * typed, `ALICE` had its own ten guesses at alice's password once `alice` was locked.
 */
function triedAccount(req: Request): string {
  const name: unknown = (req.body as { username?: unknown } | undefined)?.username;
  return typeof name === 'string' ? name.trim().replace(/[A-Z]/g, (letter) => letter.toLowerCase()) : '';
}

/** When the counter that refused `req` resets: express-rate-limit leaves its info on the request. */
function resetTimeOf(req: Request): Date | undefined {
  return (req as Request & { rateLimit?: RateLimitInfo }).rateLimit?.resetTime;
}

function refuse(res: Response, what: string, resetTime: Date | undefined): void {
  const minutes = resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 60_000)) : undefined;
  const wait = minutes === undefined ? 'wait a few minutes' : `wait ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const body: ErrorBody = { error: { code: 'rate_limited', message: `too many failed logins ${what}; ${wait} and try again` } };
  res.status(429).json(body);
}

/**
 * The login route's two failure counters, each over the same fixed window:
 *
 * - per user name (`loginAccountRateLimit`, from every address): stops guessing one
 *   account's password from many addresses; when it trips, that name is refused, nobody else;
 * - per address (`loginRateLimit`, higher): stops one address guessing across many names.
 *
 * Only wrong passwords count (401s): a success, a malformed body or a refusal by either
 * counter does not, so hammering a name that is already locked spends nothing of its
 * address's budget, and others behind the same address keep logging in. A lock lifts when
 * its window ends; an attacker has to keep failing to keep a name locked, and from one
 * address can hold at most loginRateLimit / loginAccountRateLimit names. A name is counted
 * whether or not such a user exists, so a lock reveals nothing.
 */
export function loginLimiters(config: Pick<Config, 'loginRateLimit' | 'loginAccountRateLimit' | 'loginRateWindowMs'>): RequestHandler[] {
  const common = {
    windowMs: config.loginRateWindowMs,
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req: Request, res: Response) => res.statusCode !== WRONG_PASSWORD_STATUS,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
  } as const;
  const perName = rateLimit({
    ...common,
    identifier: 'login-per-name',
    limit: config.loginAccountRateLimit,
    keyGenerator: (req) => `name:${triedAccount(req)}`,
    handler: (req, res) => refuse(res, 'for this user name', resetTimeOf(req)),
  });
  const perAddress = rateLimit({
    ...common,
    identifier: 'login-per-address',
    limit: config.loginRateLimit,
    handler: (req, res) => refuse(res, 'from this address', resetTimeOf(req)),
  });
  return [perName, perAddress];
}

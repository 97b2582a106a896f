import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database';
import type { User } from '../../shared/api/auth';
import { deleteSession, findSessionUser, insertSession } from '../users/user-queries';

export const SESSION_COOKIE = 'hqa_session';
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function createSession(db: Db, userId: number, now = new Date()): { token: string; expiresAt: Date } {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  insertSession(db, hashToken(token), userId, expiresAt.toISOString());
  return { token, expiresAt };
}

export function userForToken(db: Db, token: string | undefined, now = new Date()): User | null {
  if (!token) return null;
  return findSessionUser(db, hashToken(token), now.toISOString());
}

export function endSession(db: Db, token: string): void {
  deleteSession(db, hashToken(token));
}

import type { z } from 'zod';
import { preparedOnce, type Db } from '../../db/database';
import { immediateTransaction } from '../../db/transactions';
import { statement } from '../../db/statements';
import { SettingsSchema, type Settings } from '../../shared/settings';
import { deepFreeze } from '../deep-freeze';
import type { DomainEventEmitter } from '../events/event-bus';
import { auditedEvents } from '../events/subscribers';

/** All SQL of settings: one row per key, the value as JSON. */

/**
 * The settings in force: stored values over the defaults. A stored value that no longer validates is ignored (with its default in force).
 * Read on every request (the session check, each claim and decision) and changed rarely, they
 * are read and validated once and kept until they may have changed: putSettings on this
 * connection drops them, and a commit by any other connection (`hqa` in another process)
 * moves SQLite's data_version, checked on each call. Frozen, since every caller shares them.
 */
export function getSettings(db: Db): Settings {
  const version = dataVersion(db).get() as number;
  const cached = inForce.get(db);
  if (cached?.version === version) return cached.settings;
  const settings = deepFreeze(readSettings(db));
  inForce.set(db, { version, settings });
  return settings;
}

const inForce = new WeakMap<Db, { version: number; settings: Settings }>();
const dataVersion = preparedOnce((db) => db.prepare('PRAGMA data_version').pluck());


function readSettings(db: Db): Settings {
  const rows = statement(db, 'SELECT key, value FROM settings').all() as { key: string; value: string }[];
  const stored: Record<string, unknown> = {};
  for (const row of rows) {
    try {
      stored[row.key] = JSON.parse(row.value) as unknown;
    } catch {
      // A hand-edited, broken value: the default applies instead.
    }
  }
  const shape = SettingsSchema.shape;
  const valid: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(stored)) {
    const field = shape[key as keyof typeof shape];
    if (field && field.safeParse(value).success) valid[key] = value;
  }
  return SettingsSchema.parse(valid);
}

/** One setting in force (getSettings' rule: an invalid stored value gives the default). */
export function getSetting<K extends keyof Settings>(db: Db, key: K): Settings[K] {
  return getSettings(db)[key];
}

/** Stores `patch` with its audit entry (`actorId`: who; null for the CLI or a test), said on a bus only the audit log listens to. */
export function putSettings(db: Db, patch: Partial<Settings>, actorId: number | null = null): Settings {
  return putSettingsWith(db, auditedEvents(db), patch, actorId, () => undefined).settings;
}

/**
 * putSettings, running `within` in the same transaction once the values are stored (getSettings
 * reads them there): what a change makes follow in other tables commits or rolls back with it.
 * `settings.updated` is emitted on `events` in that transaction (its audit entry commits with it).
 */
export function putSettingsWith<T>(db: Db, events: DomainEventEmitter, patch: Partial<Settings>, actorId: number | null, within: () => T): { settings: Settings; result: T } {
  const upsert = statement(db, `INSERT INTO settings (key, value) VALUES (?, ?)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`);
  // Inside another transaction this would be a savepoint, whose later rollback the cache could not see.
  if (db.inTransaction) throw new Error('putSettings commits on its own: call it outside any transaction');
  let result: T;
  try {
    // Ours, not a bare db.transaction: what `within` emits is dispatched once this commits.
    result = immediateTransaction(db, () => {
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        // Checked here too (the route's schema already did), for callers other than the route: a
        // value getSettings would ignore is refused, and the keys before it roll back with it.
        const field = SettingsSchema.shape[key as keyof typeof SettingsSchema.shape] as z.ZodType | undefined;
        const checked = field?.safeParse(value);
        if (!checked?.success) throw new Error(`settings.${key}: ${checked ? (checked.error.issues[0]?.message ?? 'invalid') : 'no such setting'}`);
        upsert.run(key, JSON.stringify(value));
      }
      events.emit('settings.updated', { actor_id: actorId, changed: patch });
      // The cached settings predate the write, and this connection's own writes leave data_version as it was.
      inForce.delete(db);
      return within();
    });
  } finally {
    // Dropped whether it committed or not: what is read next comes from the table.
    inForce.delete(db);
  }
  return { settings: getSettings(db), result };
}

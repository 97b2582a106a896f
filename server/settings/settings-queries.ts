import { preparedOnce, type Db } from '../../db/database';
import { SettingsSchema, type Settings } from '../../shared/settings';

/** All SQL of settings: one row per key, the value as JSON. */

/** The settings in force: stored values over the defaults. A stored value that no longer validates is ignored (with its default in force). */
export function getSettings(db: Db): Settings {
  const rows = db.prepare('SELECT key, value FROM settings').all() as { key: string; value: string }[];
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

const oneSetting = preparedOnce((db) => db.prepare('SELECT value FROM settings WHERE key = ?'));

/**
 * One setting in force, read alone: for hot paths (the session check of every request) that
 * need one key, not all of them. Same rule as getSettings: an invalid stored value gives the default.
 */
export function getSetting<K extends keyof Settings>(db: Db, key: K): Settings[K] {
  const field = SettingsSchema.shape[key];
  const row = oneSetting(db).get(key) as { value: string } | undefined;
  let stored: unknown;
  try {
    stored = row ? (JSON.parse(row.value) as unknown) : undefined;
  } catch {
    // A hand-edited, broken value: the default applies instead.
  }
  const parsed = field.safeParse(stored);
  // The field's own schema parsed it, so it is that key's type; zod cannot say so for a generic key.
  return (parsed.success ? parsed.data : field.parse(undefined)) as Settings[K];
}

export function putSettings(db: Db, patch: Partial<Settings>): Settings {
  const upsert = db.prepare(`INSERT INTO settings (key, value) VALUES (?, ?)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`);
  db.transaction(() => {
    for (const [key, value] of Object.entries(patch)) if (value !== undefined) upsert.run(key, JSON.stringify(value));
  })();
  return getSettings(db);
}

import { copyFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { listMigrations, migrate, MIGRATIONS_DIR, openDatabase, type Db } from '../../db/database';

/**
 * The real migrations up to `version`, copied into a folder of their own under `dir`: a test of
 * one migration makes its database as a user's was before it (later migrations add their own
 * tables and triggers).
 */
export function migrationsUpTo(dir: string, version: number): string {
  const folder = join(dir, `migrations-${version}`);
  mkdirSync(folder, { recursive: true });
  for (const file of listMigrations(MIGRATIONS_DIR).filter((m) => m.version <= version)) copyFileSync(file.path, join(folder, basename(file.path)));
  return folder;
}

/** A database file in `dir` made by the real migrations up to `version` and no further. */
export function databaseAtVersion(dir: string, version: number): Db {
  const db = openDatabase(join(dir, 'hqa.sqlite'));
  const applied = migrate(db, migrationsUpTo(dir, version));
  if (applied.length !== version) throw new Error(`migrations up to ${version} applied ${applied.length}, not ${version}`);
  return db;
}

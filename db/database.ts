import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { DatabaseUnwritableError, isUnwritable, probeWritable } from './storage-errors';

export type Db = Database.Database;

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** How long a writer waits for another connection's lock before failing (CLI beside server). */
const BUSY_TIMEOUT_MS = 5_000;

/** Opens (creating if needed) the SQLite file with WAL, foreign keys and a busy timeout. */
export function openDatabase(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  // Savepoint journals (a transaction inside another) and temporary tables stay in memory: a
  // review submission's went to a new file in /var/tmp on about every submit.
  db.pragma('temp_store = MEMORY');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return db;
}

interface MigrationFile {
  version: number;
  name: string;
  path: string;
}

const MIGRATION_NAME = /^(\d{3})_([a-z0-9_]+)\.sql$/;

export function listMigrations(dir = MIGRATIONS_DIR): MigrationFile[] {
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .map((file) => {
      const match = MIGRATION_NAME.exec(file);
      if (!match) throw new Error(`migration ${file}: name must look like 001_verb_noun.sql`);
      return { version: Number(match[1]), name: match[2] ?? file, path: join(dir, file) };
    })
    .sort((a, b) => a.version - b.version);
  files.forEach((file, index) => {
    if (file.version !== index + 1) {
      throw new Error(`migrations: expected version ${String(index + 1).padStart(3, '0')} but found ${file.path} (a gap or a duplicate)`);
    }
  });
  return files;
}

/**
 * Applies the migrations not yet recorded, each in its own transaction, in order. Refuses to
 * run when the database records a migration this code does not have (a newer database).
 * Returns the versions applied now.
 */
export function migrate(db: Db, dir = MIGRATIONS_DIR): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
  )`);
  const files = listMigrations(dir);
  const applied = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as {
    version: number;
    name: string;
  }[];
  const known = new Map(files.map((f) => [f.version, f]));
  for (const row of applied) {
    if (!known.has(row.version)) {
      throw new Error(`database has migration ${row.version} (${row.name}) that this version of the workbench does not know; upgrade the workbench`);
    }
  }
  const done = new Set(applied.map((row) => row.version));
  const record = db.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)');
  const ran: number[] = [];
  for (const file of files) {
    if (done.has(file.version)) continue;
    const sql = readFileSync(file.path, 'utf8');
    // A table rebuild (https://www.sqlite.org/lang_altertable.html, "other kinds of table schema
    // changes") drops a parent table; that needs foreign keys off, which SQLite only allows
    // outside a transaction. The rebuilt schema is checked before the migration commits.
    const rebuild = sql.startsWith(TABLE_REBUILD_MARKER);
    const foreignKeysWereOn = db.pragma('foreign_keys', { simple: true }) === 1;
    if (rebuild) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        try {
          db.exec(sql);
        } catch (error) {
          throw new Error(`migration ${file.path} failed: ${(error as Error).message}`, { cause: error });
        }
        if (rebuild) {
          const broken = db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
          if (broken.length > 0) {
            const first = broken[0];
            throw new Error(`migration ${file.path} failed: ${broken.length} row(s) break a foreign key (first: ${first?.table} rowid ${first?.rowid} -> ${first?.parent})`);
          }
        }
        record.run(file.version, file.name);
      })();
    } finally {
      if (rebuild && foreignKeysWereOn) db.pragma('foreign_keys = ON');
    }
    ran.push(file.version);
  }
  return ran;
}

/** First line of a migration that rebuilds tables: it runs with foreign keys off, then checked. */
export const TABLE_REBUILD_MARKER = '-- migration: table rebuild';

/**
 * A domain's statements, prepared once per connection and reused: better-sqlite3 compiles a
 * statement on every `prepare`, and hot paths (a run's tasks, every model call) run thousands.
 */
export function preparedOnce<T>(prepare: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let prepared = cache.get(db);
    if (prepared === undefined) {
      prepared = prepare(db);
      cache.set(db, prepared);
    }
    return prepared;
  };
}

/**
 * Opens and migrates: what the server and the CLI both do first. A database that cannot be
 * written (read-only file or folder, full disk) is a DatabaseUnwritableError naming the file,
 * raised here rather than at the first write of whatever runs next.
 */
export function openAndMigrate(path: string): Db {
  let db: Db | undefined;
  try {
    db = openDatabase(path);
    probeWritable(db);
    migrate(db);
    return db;
  } catch (error) {
    db?.close();
    throw isUnwritable(error) ? new DatabaseUnwritableError(path, error) : error;
  }
}

import { expect } from 'vitest';
import type { Db } from '../../db/database';
import { scratchWriter } from './factories';

/**
 * Fills a database file to its limit as a full disk would leave it: `max_page_count` set to the
 * file's size, then a filler table grown until SQLite says "database or disk is full", so no free
 * page is left either. `slackPages` more are then allowed (a test that must write a little first).
 * The filler table is `disk_filler`; drop it and raise `max_page_count` to give the room back.
 */
export function fillDatabase(db: Db, slackPages = 0): void {
  db.exec('CREATE TABLE IF NOT EXISTS disk_filler (b BLOB)');
  db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true }))}`);
  const fill = scratchWriter(db, 'disk_filler', 'b');
  expect(() => {
    for (;;) fill(Buffer.alloc(512));
  }).toThrow(/full/);
  expect(db.pragma('freelist_count', { simple: true })).toBe(0);
  if (slackPages > 0) db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true })) + slackPages}`);
}

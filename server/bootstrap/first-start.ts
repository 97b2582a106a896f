import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import { countCharts } from '../charts/chart-queries';
import { addDemoExtras } from '../demo/demo-extras-import';
import { generateDemoSplit } from '../demo/demo-split';
import { importSplit } from '../import/import-split';
import { countUsers } from '../users/user-queries';
import { createUser } from '../users/user-service';

export const DEMO_SPLIT = 'demo';
export const DEMO_CHARTS = 60;

/**
 * With no users, creates `admin` with a random password and returns it so the caller can
 * print it once. Never a fixed default password.
 */
export async function ensureAdmin(db: Db): Promise<string | null> {
  if (countUsers(db) > 0) return null;
  const { generatedPassword } = await createUser(db, 'admin', 'admin');
  return generatedPassword ?? null;
}

/** What a first start prints once the server listens: the admin's one-time password. */
export function firstStartBanner(password: string): string {
  return `\n  First start: created user "admin" with password\n\n      ${password}\n\n  It is shown only this once. Add more users on the Admin page or with \`npm run hqa -- user add\`.\n\n`;
}

/** The banner's one line, printed again as the last line of start-up, below the log. */
export function firstStartReminder(password: string): string {
  return `  First start: user "admin", password ${password} (shown only this once)`;
}

/**
 * On an empty database, generates the bundled demo split and imports it, with what a ChartQA
 * layout cannot hold: a group of two charts with questions over both, and a chart with no table.
 */
export function importDemoIfEmpty(db: Db, logger: Logger): boolean {
  if (countCharts(db) > 0) return false;
  const dir = mkdtempSync(join(tmpdir(), 'hqa-demo-'));
  try {
    generateDemoSplit({ dir, split: DEMO_SPLIT, charts: DEMO_CHARTS, seed: 1 });
    const report = importSplit(db, dir, { split: DEMO_SPLIT });
    logger.info({ charts: report.charts_imported, qas: report.qas_imported, errors: report.errors.length }, 'imported the demo split');
    if (report.errors.length > 0) logger.warn({ errors: report.errors }, 'demo split had errors');
    const extras = addDemoExtras(db, DEMO_SPLIT);
    logger.info({ group: extras.group_id, charts: extras.charts_created, qas: extras.qas_added }, 'added the demo chart group and the chart without a table');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return true;
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { getSetting, getSettings, putSettings } from './settings-queries';

let dir: string;
let server: Db;
let cli: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-settings-'));
  // Two connections to one file: the server's, and another process's (`hqa` changing a setting).
  server = openAndMigrate(join(dir, 'hqa.sqlite'));
  cli = openAndMigrate(join(dir, 'hqa.sqlite'));
});
afterEach(() => {
  server.close();
  cli.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the settings in force, kept between reads', () => {
  it('change at once when this connection writes them', () => {
    expect(getSettings(server).lease_seconds).toBe(300);
    putSettings(server, { lease_seconds: 600 });
    expect(getSettings(server).lease_seconds).toBe(600);
    expect(getSetting(server, 'lease_seconds')).toBe(600);
  });

  it('change at once when another connection writes them', () => {
    expect(getSetting(server, 'session_idle_minutes')).toBe(720);
    putSettings(cli, { session_idle_minutes: 5 });
    expect(getSetting(server, 'session_idle_minutes')).toBe(5);
    // A value written by hand that no longer validates: its default is in force, read anew too.
    cli.prepare("UPDATE settings SET value = '\"soon\"' WHERE key = 'session_idle_minutes'").run();
    expect(getSettings(server).session_idle_minutes).toBe(720);
  });

  it('are shared by every caller, so no caller can change them in place', () => {
    const settings = getSettings(server);
    expect(() => Object.assign(settings, { lease_seconds: 1 })).toThrow(TypeError);
    expect(getSettings(server).lease_seconds).toBe(300);
  });

  it('are not written inside another transaction, whose rollback the cache could not see', () => {
    expect(() => server.transaction(() => putSettings(server, { lease_seconds: 600 }))()).toThrow(/outside any transaction/);
    expect(getSettings(server).lease_seconds).toBe(300);
  });
});

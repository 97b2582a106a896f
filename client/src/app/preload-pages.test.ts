import { describe, expect, it } from 'vitest';
import { preloadPagesOnce, type NoteStorage } from './preload-pages';

function memoryStorage(): NoteStorage & { keys: () => string[] } {
  const values = new Map<string, string>();
  return { getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value), keys: () => [...values.keys()] };
}

function counted(): { loads: (() => Promise<unknown>)[]; calls: () => number } {
  let calls = 0;
  const load = () => {
    calls += 1;
    return Promise.resolve();
  };
  return { loads: [load, load, load], calls: () => calls };
}

describe('preloadPagesOnce', () => {
  it('fetches every page the first time in a tab, and not again for the same build', () => {
    const storage = memoryStorage();
    const pages = counted();
    preloadPagesOnce(pages.loads, () => storage, '/assets/index-aaa.js');
    expect(pages.calls()).toBe(3);
    preloadPagesOnce(pages.loads, () => storage, '/assets/index-aaa.js');
    expect(pages.calls()).toBe(3);
    expect(storage.keys()).toEqual(['hqa.pages-preloaded:/assets/index-aaa.js']);
  });

  it('fetches them again for a new build', () => {
    const storage = memoryStorage();
    const pages = counted();
    preloadPagesOnce(pages.loads, () => storage, '/assets/index-aaa.js');
    preloadPagesOnce(pages.loads, () => storage, '/assets/index-bbb.js');
    expect(pages.calls()).toBe(6);
  });

  it('fetches them each time where storage is missing or refuses', () => {
    const pages = counted();
    preloadPagesOnce(pages.loads, () => null, 'b');
    preloadPagesOnce(pages.loads, () => null, 'b');
    const refusing: NoteStorage = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('quota', 'QuotaExceededError');
      },
    };
    preloadPagesOnce(pages.loads, () => refusing, 'b');
    preloadPagesOnce(pages.loads, () => {
      throw new DOMException('denied', 'SecurityError');
    }, 'b');
    expect(pages.calls()).toBe(12);
  });
});

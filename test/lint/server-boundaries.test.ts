import { describe, expect, it } from 'vitest';
import { importErrors } from './eslint-import-errors';

// The server's floor plan (eslint.config.js), checked on snippets: the rule is what keeps it.
describe('server boundaries', () => {
  it('refuses server/items importing server/review, at any depth of items/', async () => {
    expect(await importErrors('server/items/x.ts', "export { requeue } from '../review/review-service';\n")).toHaveLength(1);
    expect(await importErrors('server/items/checks/x.ts', "export { requeue } from '../../review/review-service';\n")).toHaveLength(1);
    expect(await importErrors('server/items/x.ts', "import type { ReviewCommands } from '../review/review-commands';\nexport type X = ReviewCommands;\n")).toHaveLength(1);
  });

  it('lets review import items, and items import its own folder and the rest', async () => {
    expect(await importErrors('server/review/x.ts', "export { getItemDetail } from '../items/item-queries';\n")).toEqual([]);
    expect(await importErrors('server/items/x.ts', "export { blindViewer } from './blind-viewer';\nexport { getSettings } from '../settings/settings-queries';\n")).toEqual([]);
  });
});

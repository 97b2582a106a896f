import { describe, expect, it } from 'vitest';
import { importErrors } from './eslint-import-errors';

// The floor plan of client/src (eslint.config.js → client/client-boundaries.js), checked on snippets.
describe('client boundaries', () => {
  it('refuses a page importing another page, from any depth', async () => {
    expect(await importErrors('client/src/features/review/x.ts', "export { ItemBody } from '../items/item-page';\n")).toHaveLength(1);
    expect(await importErrors('client/src/features/charts/write-item/x.ts', "export { useProposals } from '../../pool/pool-api';\n")).toHaveLength(1);
    expect(await importErrors('client/src/features/pool/x.ts', "export { RunsPage } from '../../features/runs/runs-page';\n")).toHaveLength(1);
  });

  it('lets a page import itself and what is shared', async () => {
    const code = [
      "export { ItemListTable } from '../../../views/item-list-table';",
      "export { useItems } from '../../../api/items-api';",
      "export { formatTime } from '../../../ui/format';",
      "export { runTryIt } from '../try-it/run-try-it';",
      "export { ChartPage } from '../../charts/chart-page';",
      '',
    ].join('\n');
    expect(await importErrors('client/src/features/charts/write-item/x.ts', code)).toEqual([]);
  });

  it('refuses views, api and ui importing a page', async () => {
    for (const folder of ['views', 'api', 'ui']) {
      expect(await importErrors(`client/src/${folder}/x.ts`, "export { ReviewPage } from '../features/review/review-page';\n")).toHaveLength(1);
    }
  });

  it('refuses shared/ by a relative path anywhere in the client', async () => {
    for (const file of ['client/src/features/review/x.ts', 'client/src/views/x.ts', 'client/src/app/x.ts', 'client/src/views/x.test.ts']) {
      const depth = file.split('/').length - 1;
      expect(await importErrors(file, `export { IdSchema } from '${'../'.repeat(depth)}shared/api/common';\n`)).toHaveLength(1);
    }
    expect(await importErrors('client/src/features/review/x.ts', "export { IdSchema } from '@shared/api/common';\n")).toEqual([]);
  });
});

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chartHqaJsonSchema } from '../../shared/export/json-schema';

/** `npm run schema`: regenerates the published JSON Schema from the zod schema. */
export const JSON_SCHEMA_PATH = fileURLToPath(new URL('../../shared/export/chart-hqa.v1.schema.json', import.meta.url));

export function jsonSchemaText(): string {
  return `${JSON.stringify(chartHqaJsonSchema(), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(JSON_SCHEMA_PATH, jsonSchemaText());
  process.stdout.write(`wrote ${JSON_SCHEMA_PATH}\n`);
}

// The committed crJSON schema (docs/c2pa/crJSON-schema.json, draft 2020-12) as an ajv validator,
// shared by the package's and the CLI's crJSON tests.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const schemaPath = join(import.meta.dirname, '../../../../docs/c2pa/crJSON-schema.json');

/** Returns the schema's complaints about `document`, empty when it is valid crJSON. */
export async function crJsonSchemaErrors(): Promise<(document: unknown) => string[]> {
  const ajv = new Ajv2020({ allErrors: true });
  addFormats.default(ajv);
  const validate = ajv.compile(JSON.parse(await readFile(schemaPath, 'utf8')) as object);
  return (document) =>
    validate(document)
      ? []
      : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
}

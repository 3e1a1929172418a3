/**
 * `npm run docs:settings`: writes the settings table in docs/configuration.md and `.env.example`
 * from the settings schema (server/src/settings.ts). settings-docs.test.ts fails when either
 * committed file differs from what this writes.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIGURATION_PAGE, ENV_EXAMPLE, configurationPage, envExample } from '../settings-docs.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const readIfThere = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

const page = resolve(root, CONFIGURATION_PAGE);
mkdirSync(dirname(page), { recursive: true });
writeFileSync(page, configurationPage(readIfThere(page)));
writeFileSync(resolve(root, ENV_EXAMPLE), envExample());
console.log(`Wrote ${CONFIGURATION_PAGE} and ${ENV_EXAMPLE} from the settings schema.`);

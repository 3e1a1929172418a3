import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Walks up from `start` to the first folder holding a package.json: the project's root.
 * Source files (run through tsx) and the compiled bundle in `server/dist` sit at different
 * depths, so paths to `client/dist` or `db/migrations` are taken from this root, never counted
 * in `../` steps from the current file.
 */
export function findProjectRoot(start: string): string {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) throw new Error(`No package.json above ${start}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(dirname(fileURLToPath(import.meta.url)));

/** A path inside the project, e.g. `fromProjectRoot('client/dist')`. */
export function fromProjectRoot(...segments: string[]): string {
  return join(PROJECT_ROOT, ...segments);
}

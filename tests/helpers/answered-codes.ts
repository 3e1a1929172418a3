import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShapeCheck } from '../../server/src/lib/shape-check.ts';

/**
 * Which declared failure codes no test provokes: with ANSWERED_CODES_DIR set (a new directory
 * for each run), each test app leaves the failures it answered there as it closes, and the run
 * ends with the declared codes none of them answered (global-setup.ts). Informational: codes
 * such as SERVICE_UNAVAILABLE are declared on every route and provoked on a few on purpose.
 */
const DIR = process.env.ANSWERED_CODES_DIR;

export function keepAnswered(check: ShapeCheck, name: string): void {
  if (!DIR || check.answered.size === 0) return;
  mkdirSync(DIR, { recursive: true });
  writeFileSync(join(DIR, `${process.pid}-${name}.json`), JSON.stringify([...check.answered]));
}

/** Every failure the apps of this run answered (empty without ANSWERED_CODES_DIR). */
export function answeredInRun(): Set<string> {
  if (!DIR || !existsSync(DIR)) return new Set();
  return new Set(readdirSync(DIR).flatMap((file) => JSON.parse(readFileSync(join(DIR, file), 'utf8')) as string[]));
}

export const answeredCodesWanted = DIR !== undefined;

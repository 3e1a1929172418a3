import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CAR_STATUS_MOVES, HIDDEN_CAR_STATUS_MOVES, INITIAL_CAR_STATUSES } from '@common/car-lifecycle.ts';

/**
 * The trigger in the migration spells the lifecycle table's pairs out (a migration is frozen SQL);
 * this reads them back and compares them with the table, so a move added on one side alone fails
 * here. tests/integration/car-lifecycle-database.test.ts checks the same against a database.
 */
const guard = readFileSync(new URL('./migrations/0017_car_lifecycle_guard.sql', import.meta.url), 'utf8');

/** The `('a', 'b')` pairs of the `NOT IN (...)` list that follows `marker`. */
function pairsAfter(marker: string): string[] {
  const start = guard.indexOf(marker);
  expect(start, marker).toBeGreaterThan(-1);
  const list = guard.slice(start).match(/NOT IN \(((?:\s*\('\w+', '\w+'\),?)+)\s*\)/);
  expect(list, marker).not.toBeNull();
  return [...list![1]!.matchAll(/\('(\w+)', '(\w+)'\)/g)].map(([, from, to]) => `${from}>${to}`).sort();
}

const asPairs = (moves: readonly (readonly [string, string])[]) => moves.map(([from, to]) => `${from}>${to}`).sort();

describe('the car status guard in db/migrations/0017_car_lifecycle_guard.sql', () => {
  it('lets through exactly the moves of the lifecycle table', () => {
    expect(pairsAfter('IF (OLD.status, NEW.status)')).toEqual(asPairs(CAR_STATUS_MOVES));
  });

  it('moves a hidden car beneath its hiding exactly as the table does', () => {
    expect(pairsAfter('(OLD.hidden_from_status, NEW.hidden_from_status)')).toEqual(asPairs(HIDDEN_CAR_STATUS_MOVES));
  });

  it('takes new cars in the initial statuses alone', () => {
    const initial = guard.match(/IF NEW\.status NOT IN \(([^)]*)\)/)![1]!;
    expect([...initial.matchAll(/'(\w+)'/g)].map(([, status]) => status)).toEqual([...INITIAL_CAR_STATUSES]);
  });
});

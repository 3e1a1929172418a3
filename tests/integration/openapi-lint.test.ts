import { createConfig, formatProblems, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the OpenAPI description at /docs/json', () => {
  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const problems = await lintFromString({
      source: res.body,
      absoluteRef: 'openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    });
    if (problems.length > 0) {
      // Every problem with its place in the document, so it can be fixed from the test output.
      formatProblems(problems, { format: 'stylish', totals: { errors: 0, warnings: 0, ignored: 0 }, version: '', maxProblems: 1000 });
    }
    // The contract fixes both `/api/chat/car/:carId` and `/api/chat/:id/<action>`; the router
    // takes the literal `car` first and ids are digits, so these pairs resolve one way only.
    const contractPairs = [/`\/api\/chat\/car\/\{carId\}` and `\/api\/chat\/\{id\}\/(upvote|report)`/];
    const unexpected = problems.filter((p) => !(p.ruleId === 'no-ambiguous-paths' && contractPairs.some((pair) => pair.test(p.message))));
    expect(unexpected.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`)).toEqual([]);
  });
});

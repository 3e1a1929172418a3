import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_PAGE, ENV_EXAMPLE, SETTINGS_DOCS_COMMAND, envExample, settingsTable, tableInPage } from './settings-docs.ts';
import { settingEntries } from './settings.ts';

const committed = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const stale = (path: string) => `${path} differs from the settings schema (server/src/settings.ts): run \`${SETTINGS_DOCS_COMMAND}\` and commit the result`;

describe('settings docs written from the schema', () => {
  it(`${CONFIGURATION_PAGE} has the table the schema gives`, () => {
    expect(tableInPage(committed(CONFIGURATION_PAGE)), stale(CONFIGURATION_PAGE)).toBe(settingsTable());
  });

  it(`${ENV_EXAMPLE} is what the schema gives`, () => {
    expect(committed(ENV_EXAMPLE), stale(ENV_EXAMPLE)).toBe(envExample());
  });

  it('lists every setting in both, each with a meaning and a default or the way it is worked out', () => {
    const table = settingsTable();
    const example = envExample();
    for (const [name, schema] of settingEntries()) {
      expect(schema.description.length, name).toBeGreaterThan(10);
      expect(schema.default === undefined || schema.computedDefault === undefined, `${name} has one default`).toBe(true);
      expect(table).toContain(`| \`${name}\` |`);
      expect(example).toMatch(new RegExp(`^# ${name}=`, 'm'));
    }
    // The three that the hand-written .env.example had lost.
    for (const name of ['ALERT_MATCH_DELAY_SECONDS', 'DIGEST_HOUR_UTC', 'SOCKET_TRANSPORTS']) expect(example).toContain(`# ${name}=`);
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('saved-search alert settings', () => {
  it('defaults to matching 5 s after a change and digests at 08:00 UTC', () => {
    const config = loadConfig({});
    expect(config.alerts).toEqual({ digestHourUtc: 8, matchDelaySeconds: 5 });
  });

  it.each(['0', '51', '3600', '1.5'])('refuses ALERT_MATCH_DELAY_SECONDS=%s, which would break "gone cars alert nobody" or "within a minute"', (value) => {
    expect(() => loadConfig({ ALERT_MATCH_DELAY_SECONDS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ALERT_MATCH_DELAY_SECONDS: value })).toThrow(/ALERT_MATCH_DELAY_SECONDS must be a whole number from 1 to 50/);
  });

  it.each([['1', 1], ['50', 50]])('takes ALERT_MATCH_DELAY_SECONDS=%s', (value, seconds) => {
    expect(loadConfig({ ALERT_MATCH_DELAY_SECONDS: value }).alerts.matchDelaySeconds).toBe(seconds);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import {
  clockEstimate,
  clockOffset,
  dateHeaderBounds,
  documentClockOffset,
  recordServerDate,
  recordServerTime,
  resetServerClock,
  serverNow,
  serverOffset,
  withDateSample,
} from './server-clock.ts';

const SERVER = Date.parse('2026-06-01T12:00:00.000Z');

afterEach(() => resetServerClock());

describe('clockOffset: the server clock decides, not this device', () => {
  it('measures the offset as serverTime minus the local arrival time', () => {
    // The device runs 10 minutes fast: it received at 12:10 local what the server stamped 12:00.
    expect(clockOffset('2026-06-01T12:00:00.000Z', SERVER + 600_000)).toBe(-600_000);
    expect(clockOffset('2026-06-01T12:00:00.000Z', SERVER - 2_500)).toBe(2_500);
    expect(clockOffset('not a time', SERVER)).toBeNull();
  });
});

describe('server clock estimate', () => {
  it('is 0 until measured, then serverTime minus the arrival time, re-measured on every read', () => {
    expect(serverOffset()).toBe(0);
    recordServerTime('2026-06-01T12:00:00.000Z', SERVER + 600_000); // device 10 min fast
    expect(serverOffset()).toBe(-600_000);
    expect(serverNow(SERVER + 600_000)).toBe(SERVER);
    // A later read (say after a reconnect) replaces it: the device clock was corrected meanwhile.
    recordServerTime('2026-06-01T12:05:00.000Z', SERVER + 300_050);
    expect(serverOffset()).toBe(-50);
    recordServerTime(undefined);
    recordServerTime('garbage');
    expect(clockEstimate()).toEqual({ offsetMs: -50, exact: true });
  });

  it('bounds the offset by a Date header (whole seconds) and the time the request was out', () => {
    const date = new Date(SERVER).toUTCString();
    // Sent at local SERVER+600_000, answered 200 ms later, stamped within [12:00:00, 12:00:01).
    expect(dateHeaderBounds(date, SERVER + 600_000, SERVER + 600_200)).toEqual({ low: -600_200, high: -599_000 });
    expect(dateHeaderBounds(null, 0, 1)).toBeNull();
    expect(dateHeaderBounds('nonsense', 0, 1)).toBeNull();
  });

  it('keeps an estimate the Date header agrees with, and replaces one it refutes', () => {
    const bounds = { low: -600_200, high: -599_000 };
    const exact = { offsetMs: -600_100, exact: true };
    expect(withDateSample(exact, bounds)).toBe(exact);
    expect(withDateSample(null, bounds)).toEqual({ offsetMs: -599_600, exact: false });
    // The device clock jumped (the user fixed it): the old exact estimate is far outside.
    expect(withDateSample({ offsetMs: 0, exact: true }, bounds)).toEqual({ offsetMs: -599_600, exact: false });
    expect(withDateSample(exact, null)).toBe(exact);
  });

  it('feeds coarse samples from answers that carry no serverTime', () => {
    recordServerDate(new Date(SERVER).toUTCString(), SERVER + 600_000, SERVER + 600_200);
    expect(clockEstimate()).toEqual({ offsetMs: -599_600, exact: false });
    recordServerTime('2026-06-01T12:00:00.700Z', SERVER + 600_750);
    expect(clockEstimate()).toEqual({ offsetMs: -600_050, exact: true });
    // A later Date header consistent with it leaves the exact estimate alone (no jitter).
    recordServerDate(new Date(SERVER + 5_000).toUTCString(), SERVER + 605_000, SERVER + 605_100);
    expect(clockEstimate()).toEqual({ offsetMs: -600_050, exact: true });
  });
});

describe("the page's own clock sample (Server-Timing)", () => {
  it('measures the offset from the stamp and the local time its first byte arrived, on the device clock', () => {
    // The page's first byte came 800 ms after its time origin; 1,200 ms later (perf 2,000) the
    // device clock, 10 minutes fast, reads SERVER + 600,000 + 1,200.
    const navigation = { serverTiming: [{ name: 'total', description: '' }, { name: 'clock', description: String(SERVER) }], responseStart: 800 };
    expect(documentClockOffset(navigation, SERVER + 601_200, 2_000)).toBe(-600_000);
  });

  it('says nothing without a stamp, with an unreadable one, or before the answer came', () => {
    expect(documentClockOffset(undefined, SERVER, 10)).toBeNull();
    expect(documentClockOffset({ serverTiming: [], responseStart: 5 }, SERVER, 10)).toBeNull();
    expect(documentClockOffset({ serverTiming: [{ name: 'clock', description: 'soon' }], responseStart: 5 }, SERVER, 10)).toBeNull();
    expect(documentClockOffset({ serverTiming: [{ name: 'clock', description: String(SERVER) }], responseStart: 0 }, SERVER, 10)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import {
  countdownView,
  EXTENDED_NOTICE_MS,
  extensionsText,
  isExtension,
  laterEnd,
  msToNextSecond,
  secondsLeft,
  showsExtended,
  timeLeftText,
  URGENT_SECONDS,
} from './countdown.ts';

const END = '2026-06-01T12:00:00.000Z';
const endMs = Date.parse(END);

describe('secondsLeft: the server clock decides, not this device', () => {
  it('counts the time left on the corrected clock, rounding up to whole seconds', () => {
    const fastBy = 600_000; // the device is 10 minutes ahead, so the offset is -10 min
    const localNow = endMs - 90_000 + fastBy; // 90 s before the end on the server's clock
    expect(secondsLeft(END, localNow, -fastBy)).toBe(90);
    // Uncorrected it would already be over.
    expect(secondsLeft(END, localNow, 0)).toBe(0);
    expect(secondsLeft(END, endMs - 1, 0)).toBe(1);
    expect(secondsLeft(END, endMs - 1_001, 0)).toBe(2);
    expect(secondsLeft(END, endMs, 0)).toBe(0);
    expect(secondsLeft(END, endMs + 5_000, 0)).toBe(0);
    expect(secondsLeft('garbage', endMs, 0)).toBe(0);
  });

  it('knows when the shown second changes next', () => {
    expect(msToNextSecond(END, endMs - 2_300, 0)).toBe(300);
    expect(msToNextSecond(END, endMs - 2_000, 0)).toBe(1_000);
    expect(msToNextSecond(END, endMs - 2_300, 200)).toBe(100);
    expect(msToNextSecond(END, endMs + 10, 0)).toBe(1_000);
  });
});

describe('countdownView', () => {
  it('formats days and hours, hours and minutes, then minutes and seconds', () => {
    expect(countdownView(2 * 86_400 + 4 * 3_600 + 59).text).toBe('2d 4h');
    expect(countdownView(3 * 3_600 + 12 * 60 + 5).text).toBe('3h 12m');
    expect(countdownView(12 * 60 + 4).text).toBe('12:04');
    expect(countdownView(9).text).toBe('0:09');
    expect(countdownView(59 * 60 + 59).text).toBe('59:59');
    expect(countdownView(3_600).text).toBe('1h 0m');
    expect(countdownView(86_400).text).toBe('1d 0h');
  });

  it('says the same in words for screen readers', () => {
    expect(countdownView(2 * 86_400 + 4 * 3_600).spoken).toBe('2 days 4 hours left');
    expect(countdownView(86_400).spoken).toBe('1 day left');
    expect(countdownView(3_600 + 60).spoken).toBe('1 hour 1 minute left');
    expect(countdownView(12 * 60 + 4).spoken).toBe('12 minutes 4 seconds left');
    expect(countdownView(5 * 60).spoken).toBe('5 minutes left');
    expect(countdownView(1).spoken).toBe('1 second left');
  });

  it('turns urgent in the last five minutes, and shows Ended at zero without deciding anything else', () => {
    expect(URGENT_SECONDS).toBe(300);
    expect(countdownView(301).urgent).toBe(false);
    expect(countdownView(300).urgent).toBe(true);
    expect(countdownView(1)).toMatchObject({ urgent: true, ended: false, text: '0:01' });
    for (const zero of [0, -5, Number.NaN]) {
      expect(countdownView(zero), String(zero)).toEqual({ seconds: 0, text: 'Ended', spoken: 'Ended', urgent: false, ended: true });
    }
  });
});

describe('timeLeftText: a deadline in a sentence', () => {
  it('shows the two largest units that matter', () => {
    expect(timeLeftText(2 * 86_400 + 4 * 3_600 + 59)).toBe('2 days 4 h');
    expect(timeLeftText(86_400)).toBe('1 day');
    expect(timeLeftText(3 * 3_600 + 12 * 60 + 5)).toBe('3 h 12 min');
    expect(timeLeftText(4 * 60 + 5)).toBe('4 min 05 s');
    expect(timeLeftText(45)).toBe('45 s');
  });

  it('takes the seconds as secondsLeft rounds them (up, stopping at zero)', () => {
    expect(timeLeftText(secondsLeft(END, endMs - 1, 0))).toBe('1 s');
    expect(timeLeftText(secondsLeft(END, endMs - 59_001, 0))).toBe('1 min 00 s');
    expect(timeLeftText(secondsLeft(END, endMs, 0))).toBe('0 s');
    expect(timeLeftText(secondsLeft(END, endMs + 5_000, 0))).toBe('0 s');
    expect(timeLeftText(Number.NaN)).toBe('0 s');
  });
});

describe('extensions', () => {
  it('detects an end moved later, never an earlier or equal or unknown one', () => {
    expect(isExtension(END, '2026-06-01T12:00:04.000Z')).toBe(true);
    expect(isExtension(END, END)).toBe(false);
    expect(isExtension(END, '2026-06-01T11:59:00.000Z')).toBe(false);
    expect(isExtension(null, END)).toBe(false);
    expect(isExtension(END, undefined)).toBe(false);
  });

  it('keeps the later end whichever order the snapshot and the pushes arrive in', () => {
    const later = '2026-06-01T12:02:00.000Z';
    expect(laterEnd(END, later)).toBe(later);
    expect(laterEnd(later, END)).toBe(later);
    expect(laterEnd(null, END)).toBe(END);
    expect(laterEnd(END, 'garbage')).toBe(END);
    expect(laterEnd(undefined, null)).toBeNull();
  });

  it('shows "Extended" for a while after the extension was seen', () => {
    expect(showsExtended(null, 1_000)).toBe(false);
    expect(showsExtended(1_000, 1_000)).toBe(true);
    expect(showsExtended(1_000, 1_000 + EXTENDED_NOTICE_MS - 1)).toBe(true);
    expect(showsExtended(1_000, 1_000 + EXTENDED_NOTICE_MS)).toBe(false);
  });

  it('words the total the server counted', () => {
    expect(extensionsText(0)).toBeNull();
    expect(extensionsText(1)).toBe('Extended 1 time');
    expect(extensionsText(4)).toBe('Extended 4 times');
  });
});

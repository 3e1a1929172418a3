import type { Clock } from '../../server/src/lib/clock.ts';

/** A clock tests move forward to expire tokens and limit windows. */
export class TestClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

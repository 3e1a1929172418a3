/** The source of "now" for rules that expire; tests substitute one they can move forward. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

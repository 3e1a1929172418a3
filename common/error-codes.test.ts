import { STATUS_CODES } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ErrorCode, isErrorCode, statusesOf } from './error-codes.ts';

const codes = Object.keys(ERROR_CODES) as ErrorCode[];

describe('the list of error codes', () => {
  it.each(codes)('%s has a failure status HTTP defines and a sentence to show', (code) => {
    for (const status of statusesOf(code)) {
      expect(status >= 400 && status <= 599, `${code}: ${status}`).toBe(true);
      expect(STATUS_CODES[status], `${code}: ${status}`).toBeDefined();
    }
    const { message } = ERROR_CODES[code];
    expect(message).toMatch(/^[A-Z]/);
    expect(message).toBe(message.trim());
    expect(message.length).toBeGreaterThan(5);
    // A default sentence stands alone: no placeholders, no code names a person would not read.
    expect(message).not.toMatch(/\$\{|\{\w+\}|[A-Z]{2,}_[A-Z]/);
  });

  it('names each code in capitals and underscores, and its constant is the code itself', () => {
    for (const code of codes) {
      expect(code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
      expect(ErrorCode[code]).toBe(code);
    }
    expect(Object.keys(ErrorCode)).toEqual(codes);
    expect(Object.isFrozen(ErrorCode)).toBe(true);
  });

  it('answers with a second status only where the contract has one (TOTP_REQUIRED: sign-in 401, console 403)', () => {
    expect(codes.filter((code) => statusesOf(code).length > 1)).toEqual([ErrorCode.TOTP_REQUIRED]);
    expect(statusesOf(ErrorCode.TOTP_REQUIRED)).toEqual([401, 403]);
  });

  it('keeps the statuses the contract gives its codes', () => {
    const contract: Record<string, number> = {
      VALIDATION_FAILED: 400,
      UNAUTHORIZED: 401,
      INVALID_CREDENTIALS: 401,
      EMAIL_NOT_VERIFIED: 403,
      ACCOUNT_SUSPENDED: 403,
      NOT_ALLOWED: 403,
      NOT_FOUND: 404,
      CAR_NOT_AVAILABLE: 409,
      LISTING_LOCKED: 409,
      ABOVE_ESCROW_LIMIT: 409,
      AUCTION_ENDED: 409,
      BID_TOO_LOW: 409,
      OFFER_EXISTS: 409,
      INVALID_TRANSITION: 409,
      NO_RUNNER_UP: 409,
      LIMIT_REACHED: 409,
      TOO_MANY_SUBSCRIPTIONS: 409,
      IDEMPOTENCY_KEY_REUSED: 422,
      RATE_LIMITED: 429,
      SERVICE_UNAVAILABLE: 503,
    };
    for (const [code, status] of Object.entries(contract)) {
      expect(isErrorCode(code), code).toBe(true);
      expect(ERROR_CODES[code as ErrorCode].status, code).toBe(status);
    }
  });

  it('tells a listed code from anything else, inherited object keys included', () => {
    expect(isErrorCode('LISTING_LOCKED')).toBe(true);
    for (const value of ['LISTING_LOCKD', 'listing_locked', 'toString', '__proto__', 'constructor', '', 409, null, undefined]) {
      expect(isErrorCode(value), String(value)).toBe(false);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { isErrorCode } from '@common/error-codes.ts';
import { CLIENT_ERRORS, ClientErrorCode } from './client-error-codes.ts';

describe("the web app's own error codes", () => {
  it('never share a name with a code the server answers, so a comparison means one thing', () => {
    for (const code of Object.keys(CLIENT_ERRORS)) expect(isErrorCode(code), code).toBe(false);
  });

  it('each have a constant equal to the code and a sentence to show', () => {
    for (const [code, { message }] of Object.entries(CLIENT_ERRORS)) {
      expect(ClientErrorCode[code as ClientErrorCode]).toBe(code);
      expect(message).toMatch(/^[A-Z].{5,}$/);
    }
  });
});

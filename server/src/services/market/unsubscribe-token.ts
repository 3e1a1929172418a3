import { createHmac, timingSafeEqual } from 'node:crypto';
import { isRecordId } from '@common/ids.ts';

/**
 * The token in an alert email's unsubscribe link: the saved search's id and an HMAC of it under
 * the server's secret, so the link works without signing in and cannot be forged or pointed at
 * another search.
 */
export class UnsubscribeTokens {
  constructor(private readonly secret: string) {}

  sign(searchId: number): string {
    return `${searchId}.${this.mac(searchId)}`;
  }

  /** The search the token names, or null for anything forged, altered or malformed. */
  verify(token: string): number | null {
    const match = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return null;
    const searchId = Number(match[1]);
    if (!isRecordId(searchId)) return null;
    const expected = Buffer.from(this.mac(searchId));
    const given = Buffer.from(match[2]!);
    return expected.length === given.length && timingSafeEqual(expected, given) ? searchId : null;
  }

  private mac(searchId: number): string {
    return createHmac('sha256', this.secret).update(`saved-search-unsubscribe:${searchId}`).digest('base64url');
  }
}

import { describe, expect, it } from 'vitest';
import { keyBytes } from './push-device.ts';

describe('keyBytes', () => {
  it('reads a base64url VAPID key, padded or not, as its bytes', () => {
    const bytes = Uint8Array.from({ length: 65 }, (_, i) => (i * 37 + 251) % 256);
    const base64url = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect([...keyBytes(base64url)]).toEqual([...bytes]);
    expect([...keyBytes(`${base64url}===`.slice(0, Math.ceil(base64url.length / 4) * 4))]).toEqual([...bytes]);
  });
});

import { describe, expect, it } from 'vitest';
import { originPolicy } from './origins.ts';

const allowed = originPolicy({ appUrl: 'https://luxemotors.example', allowedOrigins: ['http://localhost:5173'] });

describe('which pages may open real-time connections', () => {
  it('lets in APP_URL, ALLOWED_ORIGINS and clients that are not browsers', () => {
    expect(allowed('https://luxemotors.example', 'internal:3000')).toBe(true);
    expect(allowed('http://localhost:5173', 'localhost:3000')).toBe(true);
    expect(allowed(undefined, 'localhost:3000')).toBe(true);
  });

  it('lets in a page of the very host and port the request went to', () => {
    expect(allowed('http://127.0.0.1:3000', '127.0.0.1:3000')).toBe(true);
    expect(allowed('http://192.168.1.20:3000', '192.168.1.20:3000')).toBe(true);
    expect(allowed('https://shop.example', 'SHOP.example:443')).toBe(true);
    expect(allowed('http://[::1]:3000', '[::1]:3000')).toBe(true);
  });

  it('keeps out other sites, other ports and odd origins', () => {
    expect(allowed('https://evil.example', '127.0.0.1:3000')).toBe(false);
    expect(allowed('http://127.0.0.1:3001', '127.0.0.1:3000')).toBe(false);
    expect(allowed('http://127.0.0.1', '127.0.0.1:3000')).toBe(false);
    expect(allowed('null', '127.0.0.1:3000')).toBe(false);
    expect(allowed('file://', '')).toBe(false);
    expect(allowed('http://127.0.0.1:3000', undefined)).toBe(false);
    expect(allowed('http://127.0.0.1:3000', '127.0.0.1:3000/@evil.example')).toBe(false);
  });
});

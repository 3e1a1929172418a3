import { describe, expect, it } from 'vitest';
import { redirectTarget } from './redirect-target.ts';

describe('redirectTarget', () => {
  it('goes back to a path given as a string or a router location', () => {
    expect(redirectTarget({ from: '/dashboard' })).toBe('/dashboard');
    expect(redirectTarget({ from: { pathname: '/car/3', search: '?tab=bids', hash: '#chat' } })).toBe('/car/3?tab=bids#chat');
  });

  it('falls back to / without a usable state', () => {
    expect(redirectTarget(undefined)).toBe('/');
    expect(redirectTarget(null)).toBe('/');
    expect(redirectTarget({})).toBe('/');
    expect(redirectTarget({ from: 42 })).toBe('/');
    expect(redirectTarget({ from: '' })).toBe('/');
  });

  it('never leaves the app', () => {
    expect(redirectTarget({ from: 'https://evil.example/' })).toBe('/');
    expect(redirectTarget({ from: '//evil.example/x' })).toBe('/');
    expect(redirectTarget({ from: '/\\evil.example' })).toBe('/');
  });

  it('does not send a signed-in user back to an account screen', () => {
    expect(redirectTarget({ from: '/login' })).toBe('/');
    expect(redirectTarget({ from: '/register?x=1' })).toBe('/');
    expect(redirectTarget({ from: { pathname: '/reset-password', search: '?token=abc' } })).toBe('/');
  });
});

import { describe, expect, it } from 'vitest';
import {
  errorsFromDetails,
  memberSince,
  profileChanges,
  profileFormValues,
  validateProfile,
} from './profile-form.ts';

const user = { name: 'Ann Driver', avatar: null, bio: 'Collector', phone: null, location: 'Monaco' };

describe('validateProfile', () => {
  const valid = profileFormValues(user);

  it('accepts the current profile', () => {
    expect(validateProfile(valid)).toEqual({});
  });

  it('mirrors the server rules with friendly messages', () => {
    expect(validateProfile({ ...valid, name: '   ' }).name).toBe('Please enter your name');
    expect(validateProfile({ ...valid, name: 'x'.repeat(101) }).name).toMatch(/at most 100/);
    expect(validateProfile({ ...valid, avatar: 'javascript:alert(1)' }).avatar).toMatch(/http/);
    expect(validateProfile({ ...valid, avatar: 'ftp://x' }).avatar).toBeDefined();
    expect(validateProfile({ ...valid, avatar: 'https://cdn.example.com/a.jpg' }).avatar).toBeUndefined();
    expect(validateProfile({ ...valid, bio: 'x'.repeat(501) }).bio).toMatch(/at most 500/);
    expect(validateProfile({ ...valid, bio: 'x'.repeat(500) }).bio).toBeUndefined();
    expect(validateProfile({ ...valid, phone: '+1 (555) 010-0199' }).phone).toBeUndefined();
    expect(validateProfile({ ...valid, phone: '555-CALL-NOW' }).phone).toMatch(/only digits/);
    expect(validateProfile({ ...valid, phone: '1'.repeat(31) }).phone).toMatch(/at most 30/);
    expect(validateProfile({ ...valid, location: 'x'.repeat(101) }).location).toMatch(/at most 100/);
  });
});

describe('profileChanges', () => {
  it('sends only what changed, trimmed, with emptied fields as null', () => {
    const values = { ...profileFormValues(user), name: '  Ann Racer ', bio: '  ', phone: '555 0100' };
    expect(profileChanges(values, user)).toEqual({ name: 'Ann Racer', bio: null, phone: '555 0100' });
    expect(profileChanges(profileFormValues(user), user)).toEqual({});
  });
});

describe('errorsFromDetails', () => {
  it('maps server details onto form fields and keeps the rest', () => {
    const phone = { field: 'phone', message: 'phone must match pattern' };
    const email = { field: 'email', message: 'email is not an allowed field' };
    const details = [phone, email, { field: 'phone', message: 'second phone message' }, 'junk'];
    expect(errorsFromDetails(details)).toEqual({ fields: { phone: phone.message }, other: [email.message] });
    expect(errorsFromDetails(undefined)).toEqual({ fields: {}, other: [] });
  });
});

describe('memberSince', () => {
  it('formats the member-since month', () => {
    expect(memberSince('2025-03-14T09:00:00.000Z')).toBe('March 2025');
    expect(memberSince('')).toBeNull();
    expect(memberSince('not a date')).toBeNull();
  });
});

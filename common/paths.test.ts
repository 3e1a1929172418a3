import { describe, expect, it } from 'vitest';
import { ADMIN_SECTIONS, PAGES, adminPath, carPath, editListingPath, matchPage, orderPath, resetPasswordPath } from './paths.ts';

describe('page paths', () => {
  it('match the links built for them, and nothing else', () => {
    expect(matchPage(carPath(12))).toEqual({ page: 'car', params: ['12'] });
    expect(matchPage(`${orderPath(7)}/`)).toEqual({ page: 'order', params: ['7'] });
    expect(matchPage(editListingPath(3))).toEqual({ page: 'editListing', params: ['3'] });
    expect(matchPage('/')).toEqual({ page: 'home', params: [] });
    expect(matchPage(PAGES.support)).toEqual({ page: 'support', params: [] });
    expect(matchPage('/car/12/photos')).toBeNull();
    expect(matchPage('/cars')).toBeNull();
  });

  it('lead to each console section, the overview at /admin itself', () => {
    expect(adminPath()).toBe('/admin');
    expect(adminPath('overview')).toBe('/admin');
    expect(matchPage(adminPath())).toEqual({ page: 'admin', params: [] });
    for (const section of ADMIN_SECTIONS.filter((s) => s !== 'overview')) {
      expect(matchPage(adminPath(section))).toEqual({ page: 'adminSection', params: [section] });
    }
    expect(adminPath('flagged-bids')).toBe('/admin/flagged-bids');
    expect(matchPage('/admin/disputes/3')).toBeNull();
  });

  it('carry a token as one query value', () => {
    expect(resetPasswordPath('a+b/c=')).toBe('/reset-password?token=a%2Bb%2Fc%3D');
  });
});

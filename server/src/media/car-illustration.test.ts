import { describe, it, expect } from 'vitest';
import { CAR_VIEWS, type CarView } from '@common/car-images.ts';
import { CAR_BODY_STYLES, type CarBodyStyle } from '@common/listing.ts';
import { isBodyStyle, renderCarSvg } from './car-illustration.ts';

const COLOUR = 'C0121C';

describe('renderCarSvg', () => {
  for (const bodyStyle of CAR_BODY_STYLES) {
    for (const view of CAR_VIEWS) {
      it(`renders ${bodyStyle} / ${view}`, () => {
        const svg = renderCarSvg({ bodyStyle, colorHex: COLOUR, view });
        expect(svg.startsWith('<svg')).toBe(true);
        expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
        expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
        expect(svg).toContain('viewBox="0 0 800 500"');
        expect(svg.toLowerCase()).toContain(COLOUR.toLowerCase());
        expect(svg).toMatch(/<title[^>]*>[^<]+<\/title>/);
        expect(svg.toLowerCase()).not.toContain('<script');
        expect(svg).not.toMatch(/\bon[a-z]+=/i);
        expect(svg).not.toMatch(/(href|src)="(?!#)/);
        expect(svg.length).toBeLessThan(8 * 1024);
      });
    }
  }

  it('describes the car in the title', () => {
    const svg = renderCarSvg({ bodyStyle: 'sports', colorHex: 'c0121c', view: 'side' });
    expect(svg).toContain('<title id="sports-c0121c-side-t">Illustration of a red sports car, side view</title>');
    const suv = renderCarSvg({ bodyStyle: 'suv', colorHex: 'f4f4f2', view: 'front' });
    expect(suv).toContain('Illustration of a white SUV, front view');
  });

  it('draws a different silhouette for every body style in the side view', () => {
    const bodies = CAR_BODY_STYLES.map((bodyStyle) => {
      const svg = renderCarSvg({ bodyStyle, colorHex: COLOUR, view: 'side' });
      // Compare the body outline (the painted path with wheel arches), not just the id prefixes.
      const path = /<path d="(M[^"]*A[^"]*Z)" fill="url\(#[^"]+-b\)"\/>/.exec(svg);
      expect(path).not.toBeNull();
      return path?.[1] ?? '';
    });
    expect(new Set(bodies).size).toBe(CAR_BODY_STYLES.length);
    const whole = CAR_BODY_STYLES.map((bodyStyle) => renderCarSvg({ bodyStyle, colorHex: COLOUR, view: 'side' }));
    expect(new Set(whole).size).toBe(CAR_BODY_STYLES.length);
  });

  it('uses ids that are unique per rendered document', () => {
    const a = renderCarSvg({ bodyStyle: 'coupe', colorHex: '1f3a93', view: 'side' });
    const b = renderCarSvg({ bodyStyle: 'coupe', colorHex: '1f3a93', view: 'rear' });
    const ids = (svg: string): string[] => [...svg.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1] ?? '');
    const idsA = ids(a);
    const idsB = ids(b);
    expect(idsA.length).toBeGreaterThan(0);
    expect(new Set(idsA).size).toBe(idsA.length);
    expect(idsA.every((id) => id.startsWith('coupe-1f3a93-side'))).toBe(true);
    expect(idsA.filter((id) => idsB.includes(id))).toEqual([]);
  });

  it('derives shades from the colour', () => {
    const svg = renderCarSvg({ bodyStyle: 'sedan', colorHex: '1b2a4a', view: 'side' });
    const colours = new Set(svg.match(/#[0-9a-f]{6}\b/g));
    expect(colours.has('#1b2a4a')).toBe(true);
    expect(colours.size).toBeGreaterThan(8);
  });

  it('is deterministic', () => {
    const opts = { bodyStyle: 'convertible', colorHex: '6cc24a', view: 'interior' } as const;
    expect(renderCarSvg(opts)).toBe(renderCarSvg(opts));
  });

  it('throws on invalid input', () => {
    const bad = (bodyStyle: string, colorHex: string, view: string) => () =>
      renderCarSvg({ bodyStyle: bodyStyle as CarBodyStyle, colorHex, view: view as CarView });
    expect(bad('truck', 'c0121c', 'side')).toThrow(Error);
    expect(bad('sports', 'c0121c', 'top')).toThrow(Error);
    expect(bad('sports', '#c0121c', 'side')).toThrow(Error);
    expect(bad('sports', 'abc', 'side')).toThrow(Error);
    expect(bad('sports', 'zzzzzz', 'side')).toThrow(Error);
    expect(bad('sports', '', 'side')).toThrow(Error);
    expect(bad('', 'c0121c', '')).toThrow(Error);
  });

  it('the media route accepts every body style of a listing, and only those', () => {
    for (const s of CAR_BODY_STYLES) expect(isBodyStyle(s)).toBe(true);
    expect(isBodyStyle('truck')).toBe(false);
  });
});

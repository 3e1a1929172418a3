import { describe, expect, it } from 'vitest';
import { heroImageTag, screenPreloadTags, withHeadTags, type ViteManifest } from './page-preloads.ts';

const manifest: ViteManifest = {
  'index.html': { file: 'assets/index-A.js', isEntry: true, imports: ['_api-client.js', '_react.js'], css: ['assets/index-A.css'] },
  '_api-client.js': { file: 'assets/api-client-B.js' },
  '_react.js': { file: 'assets/react-C.js' },
  '_bid-rules.js': { file: 'assets/bid-rules-D.js', imports: ['_api-client.js'] },
  'src/features/car-room/components/car-detail-screen.tsx': {
    file: 'assets/car-detail-screen-E.js',
    imports: ['_bid-rules.js', '_react.js'],
    css: ['assets/car-detail-screen-E.css'],
  },
};

describe('screenPreloadTags', () => {
  it("names the screen's chunk, the chunks it imports and its styles, but nothing the entry already loads", () => {
    const tags = screenPreloadTags(manifest, 'src/features/car-room/components/car-detail-screen.tsx');
    expect(tags).toBe(
      '<link rel="modulepreload" crossorigin href="/assets/car-detail-screen-E.js">' +
        '<link rel="modulepreload" crossorigin href="/assets/bid-rules-D.js">' +
        '<link rel="preload" as="style" crossorigin href="/assets/car-detail-screen-E.css">',
    );
  });

  it('announces nothing for a module the build does not have', () => {
    expect(screenPreloadTags(manifest, 'src/features/gone.tsx')).toBe('');
    expect(screenPreloadTags({}, 'src/features/car-room/components/car-detail-screen.tsx')).toBe('');
  });
});

describe('heroImageTag', () => {
  it("prefers the first uploaded photo's WebP, as the gallery shows it", () => {
    const car = { photos: [{ gallery: { webp: '/media/photos/1/gallery.webp' } }], images: ['/media/cars/sedan/x/side.svg'] };
    expect(heroImageTag(car)).toBe('<link rel="preload" as="image" type="image/webp" fetchpriority="high" href="/media/photos/1/gallery.webp">');
  });

  it("falls back to the first illustration, and only hints at the server's own addresses", () => {
    expect(heroImageTag({ photos: [], images: ['/media/cars/sedan/x/side.svg'] })).toBe('<link rel="preload" as="image" fetchpriority="high" href="/media/cars/sedan/x/side.svg">');
    expect(heroImageTag({ photos: [], images: ['https://elsewhere.example/a.jpg'] })).toBe('');
    expect(heroImageTag({ photos: [], images: [] })).toBe('');
  });

  it('escapes what it writes into an attribute', () => {
    expect(heroImageTag({ photos: [], images: ['/media/"><script>x</script>'] })).toBe(
      '<link rel="preload" as="image" fetchpriority="high" href="/media/&quot;>&lt;script>x&lt;/script>">',
    );
  });
});

describe('withHeadTags', () => {
  it('places the tags just before the end of the head, and leaves the page alone without any', () => {
    const html = '<html><head><title>t</title></head><body></body></html>';
    expect(withHeadTags(html, '<link rel="x">')).toBe('<html><head><title>t</title><link rel="x"></head><body></body></html>');
    expect(withHeadTags(html, '')).toBe(html);
  });
});

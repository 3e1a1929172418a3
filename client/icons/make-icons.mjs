// Draws the app's install icons (client/public/icons/*.png) from the brand mark of
// client/public/favicon.svg. Run `node client/icons/make-icons.mjs` after changing the mark;
// the PNGs are committed, so a build needs no image library.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const out = fileURLToPath(new URL('../public/icons/', import.meta.url));
mkdirSync(out, { recursive: true });

const BACKGROUND = '#0b0d12';
const GRADIENT = `<linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
  <stop offset="0" stop-color="#e8cf94"/><stop offset="0.55" stop-color="#c9a45c"/><stop offset="1" stop-color="#9c7a3c"/>
</linearGradient>`;
const MARK = `<path d="M32 7 52 14.5v14C52 41.5 43.4 51 32 55.5 20.6 51 12 41.5 12 28.5v-14z" fill="none" stroke="url(#g)" stroke-width="3.5"/>
<path d="M22 39V23l10 10 10-10v16" fill="none" stroke="url(#g)" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/>`;

/**
 * `any`: the favicon's rounded tile. `maskable`: a full-bleed square with the mark shrunk into
 * the central safe zone (a circle of 80% of the width), since launchers cut it to their shape.
 */
function svg(purpose) {
  const scale = purpose === 'maskable' ? 0.62 : 1;
  const offset = (64 - 64 * scale) / 2;
  const tile = purpose === 'maskable' ? `<rect width="64" height="64" fill="${BACKGROUND}"/>` : `<rect width="64" height="64" rx="14" fill="${BACKGROUND}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><defs>${GRADIENT}</defs>${tile}<g transform="translate(${offset} ${offset}) scale(${scale})">${MARK}</g></svg>`;
}

const icons = [
  { name: 'icon-192.png', size: 192, purpose: 'any' },
  { name: 'icon-512.png', size: 512, purpose: 'any' },
  { name: 'icon-maskable-512.png', size: 512, purpose: 'maskable' },
  { name: 'apple-touch-icon.png', size: 180, purpose: 'maskable' },
];

for (const { name, size, purpose } of icons) {
  await sharp(Buffer.from(svg(purpose)), { density: (72 * size) / 64 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: false })
    .toFile(`${out}${name}`);
}
console.log(`wrote ${icons.map((i) => i.name).join(', ')} into ${out}`);

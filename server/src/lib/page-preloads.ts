/**
 * What a page's HTML can announce before the web app's code runs. Every screen but the listing
 * is a chunk of its own that the app fetches only once its main script has run and routed, and
 * the car page's largest image is known only once the car has been read: two round trips the
 * phone waits through in a row. Named in the HTML, all of it loads alongside the main script.
 */

import type { PageName } from '@common/paths.ts';

/** The part of Vite's build manifest (`client/dist/.vite/manifest.json`) read here. */
export interface ViteManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
export type ViteManifest = Record<string, ViteManifestChunk>;

/**
 * The screens worth announcing, by the page that shows them (common/paths.ts): the client's
 * router lazily imports each module named here (a test checks every one is in the build's manifest).
 */
export const SCREEN_MODULES: Partial<Record<PageName, string>> = {
  car: 'src/features/car-room/components/car-detail-screen.tsx',
  order: 'src/features/orders/components/order-screen.tsx',
  offer: 'src/features/offers/components/offer-screen.tsx',
  results: 'src/features/market/components/results-screen.tsx',
  unsubscribe: 'src/features/market/components/unsubscribe-screen.tsx',
  dashboard: 'src/features/dashboard/components/dashboard-screen.tsx',
  notificationSettings: 'src/features/dashboard/components/notification-settings-screen.tsx',
  sell: 'src/features/selling/components/sell-screen.tsx',
  login: 'src/features/auth/components/login-screen.tsx',
  register: 'src/features/auth/components/register-screen.tsx',
  testimonials: 'src/features/testimonials/components/testimonials-screen.tsx',
  escrow: 'src/features/escrow/components/escrow-screen.tsx',
  support: 'src/features/support/components/support-screen.tsx',
  admin: 'src/features/back-office/components/admin-screen.tsx',
  adminSection: 'src/features/back-office/components/admin-screen.tsx',
};

/** The chunk and every chunk it statically imports, each once. */
function withStaticImports(manifest: ViteManifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key) || !manifest[key]) return into;
  into.add(key);
  for (const imported of manifest[key].imports ?? []) withStaticImports(manifest, imported, into);
  return into;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * `<link>` tags that fetch a screen's code and styles early: modulepreload for its chunks (the
 * app imports them moments later from the cache) and for its CSS a non-blocking preload (the
 * app attaches it, as it would without this) or, for a page drawn on the server, a stylesheet. What the entry script already loads is left out.
 * Empty when the module is not in the manifest.
 */
export function screenPreloadTags(manifest: ViteManifest, module: string, styles: 'preload' | 'stylesheet' = 'preload'): string {
  if (!manifest[module]) return '';
  const loadedByEntry = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) withStaticImports(manifest, key, loadedByEntry);
  const chunks = [...withStaticImports(manifest, module)].filter((key) => !loadedByEntry.has(key)).map((key) => manifest[key]!);
  const scripts = chunks.map((chunk) => `<link rel="modulepreload" crossorigin href="/${escapeAttribute(chunk.file)}">`);
  // A page drawn on the server shows the screen before its code runs: its styles must apply
  // from the first paint, so they are stylesheets (the app's loader finds them and adds no copy).
  const styleTag = styles === 'stylesheet' ? (file: string) => `<link rel="stylesheet" crossorigin href="/${escapeAttribute(file)}">` : (file: string) => `<link rel="preload" as="style" crossorigin href="/${escapeAttribute(file)}">`;
  const styleTags = [...new Set(chunks.flatMap((chunk) => chunk.css ?? []))].map(styleTag);
  return [...scripts, ...styleTags].join('');
}

/** The image a car page shows first, as the gallery picks it: the first upload (WebP), else the first illustration. */
export function heroImageTag(car: { photos: readonly { gallery: { webp: string } }[]; images: readonly string[] }): string {
  const photo = car.photos[0];
  if (photo) return `<link rel="preload" as="image" type="image/webp" fetchpriority="high" href="${escapeAttribute(photo.gallery.webp)}">`;
  const image = car.images[0];
  // Only the server's own media: an outside address would need the CSP's permission anyway.
  return image?.startsWith('/') ? `<link rel="preload" as="image" fetchpriority="high" href="${escapeAttribute(image)}">` : '';
}

/** The HTML with `tags` placed at the end of its head. */
export function withHeadTags(html: string, tags: string): string {
  if (!tags) return html;
  const at = html.indexOf('</head>');
  return at === -1 ? html : html.slice(0, at) + tags + html.slice(at);
}

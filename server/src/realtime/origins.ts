import type { AppConfig } from '../config.ts';

/**
 * Decides which pages may open real-time connections (Socket.IO and the /api/stream feed).
 * Browsers always send Origin on WebSocket and cross-site requests; a page is let in when its
 * origin is APP_URL's, one of ALLOWED_ORIGINS, or the very host and port the request was sent
 * to (its Host header), so the site works under any name it is reached by (127.0.0.1 rather
 * than localhost, a LAN address) without configuration. Another site's page has its own
 * origin and the Host of this server, and stays out. Clients that send no Origin at all are
 * not browsers (servers, load tools) and cannot ride a visitor's credentials.
 */
export function originPolicy(config: Pick<AppConfig, 'appUrl' | 'allowedOrigins'>): (origin: string | undefined, host: string | undefined) => boolean {
  const allowed = new Set([new URL(config.appUrl).origin, ...config.allowedOrigins]);
  return (origin, host) => origin === undefined || allowed.has(origin) || sameHost(origin, host);
}

/** A Host header is a name or an address, and a port: nothing a URL could read more into. */
const HOST_HEADER = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** True when `origin` names the host and port of the Host header (default ports included). */
function sameHost(origin: string, host: string | undefined): boolean {
  if (!host || !HOST_HEADER.test(host)) return false;
  try {
    const page = new URL(origin);
    if (page.protocol !== 'http:' && page.protocol !== 'https:') return false;
    // Read the Host header as a URL of the page's scheme, so "example.com:443" equals
    // "https://example.com" and letter case is ignored.
    return new URL(`${page.protocol}//${host}`).host === page.host;
  } catch {
    return false;
  }
}

import type { AppConfig } from '../config.ts';

/**
 * Browsers always send Origin on WebSocket and cross-site requests; only pages of the app's own
 * origin (or a configured one) may open real-time connections. Clients that send no Origin at
 * all are not browsers (servers, load tools) and cannot ride a visitor's credentials.
 */
export function originPolicy(config: AppConfig): (origin: string | undefined) => boolean {
  const allowed = new Set([new URL(config.appUrl).origin, ...config.allowedOrigins]);
  return (origin) => origin === undefined || allowed.has(origin);
}

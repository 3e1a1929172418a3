/** Spec §9: the verify and reset screens go to /login this long after success. */
export const AUTH_REDIRECT_DELAY_MS = 3_000;

/**
 * Where to go after signing in. Whoever redirects to /login passes `state: { from }` (a path
 * string or a router location); only same-app paths are honoured, never another origin
 * (`//evil.example`) or the auth screens themselves.
 */
const AUTH_PATHS = ['/login', '/register', '/verify-email', '/forgot-password', '/reset-password'];

export function redirectTarget(state: unknown, fallback = '/'): string {
  const from = (state as { from?: unknown } | null | undefined)?.from;
  let path: string | undefined;
  if (typeof from === 'string') {
    path = from;
  } else if (typeof from === 'object' && from !== null && typeof (from as { pathname?: unknown }).pathname === 'string') {
    const loc = from as { pathname: string; search?: unknown; hash?: unknown };
    path = `${loc.pathname}${typeof loc.search === 'string' ? loc.search : ''}${typeof loc.hash === 'string' ? loc.hash : ''}`;
  }
  if (!path || !path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return fallback;
  const pathname = path.split(/[?#]/)[0] ?? '';
  if (AUTH_PATHS.includes(pathname.replace(/\/+$/, '') || '/')) return fallback;
  return path;
}

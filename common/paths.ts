/**
 * The web app's pages: their route patterns (read by the client's router, the server's page
 * HTML and its preloads) and the links to them (used by screens, notifications and emails).
 */

export const PAGES = {
  home: '/',
  car: '/car/:id',
  login: '/login',
  register: '/register',
  dashboard: '/dashboard',
  /** The dashboard's Settings → Notifications: what arrives where, quiet hours, this user's devices. */
  notificationSettings: '/dashboard/notifications',
  order: '/orders/:id',
  offer: '/offers/:id',
  sell: '/sell',
  editListing: '/sell/:id/edit',
  verifyEmail: '/verify-email',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  testimonials: '/testimonials',
  escrow: '/escrow',
  support: '/support',
  results: '/results',
  unsubscribe: '/unsubscribe',
  /** The operator console (staff only): its overview, and each of its sections. */
  admin: '/admin',
  adminSection: '/admin/:section',
} as const;
export type PageName = keyof typeof PAGES;

export const carPath = (id: number | string) => `/car/${id}`;
export const orderPath = (id: number | string) => `/orders/${id}`;
export const offerPath = (id: number | string) => `/offers/${id}`;
export const editListingPath = (id: number | string) => `/sell/${id}/edit`;
export const verifyEmailPath = (token: string) => `${PAGES.verifyEmail}?token=${encodeURIComponent(token)}`;
export const resetPasswordPath = (token: string) => `${PAGES.resetPassword}?token=${encodeURIComponent(token)}`;

/** The console's sections, in the order its menu lists them; `overview` is what `/admin` shows. */
export const ADMIN_SECTIONS = ['overview', 'disputes', 'ledger', 'users', 'listings', 'moderation', 'tickets', 'flagged-bids', 'audit'] as const;
export type AdminSection = (typeof ADMIN_SECTIONS)[number];
export const isAdminSection = (value: string): value is AdminSection => (ADMIN_SECTIONS as readonly string[]).includes(value);
export const adminPath = (section: AdminSection = 'overview') => (section === 'overview' ? PAGES.admin : `${PAGES.admin}/${section}`);

const escapeForPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/car/:id` → a pattern matching `/car/12` and `/car/12/`, capturing the parameters in order. */
function patternOf(route: string): RegExp {
  const source = route
    .split('/')
    .map((part) => (part.startsWith(':') ? '([^/]+)' : escapeForPattern(part)))
    .join('/');
  return new RegExp(`^${source === '' ? '' : source}/?$`);
}

const PAGE_PATTERNS = (Object.entries(PAGES) as [PageName, string][]).map(([name, route]) => ({ name, pattern: patternOf(route) }));

/** Which page a path shows, with its parameters in route order (`/car/12` → car, ['12']); null for none. */
export function matchPage(pathname: string): { page: PageName; params: string[] } | null {
  for (const { name, pattern } of PAGE_PATTERNS) {
    const match = pattern.exec(pathname);
    if (match) return { page: name, params: match.slice(1) };
  }
  return null;
}

/**
 * Every page of the web app comes with the server's clock as it left (milliseconds since the
 * epoch) in a `Server-Timing` entry of this name, read from the navigation's timing: countdowns
 * are right from the first render, before any API answer.
 */
export const CLOCK_TIMING_NAME = 'clock';

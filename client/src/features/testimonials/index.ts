/** What the app shell uses of testimonials: the request a server-rendered page answers ahead. */
export { TESTIMONIALS_PATH } from './api/testimonials.ts';

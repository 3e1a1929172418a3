/** What the app shell uses of the back office: who may open the console, and where it is. */
export { canOpenConsole } from './lib/access.ts';

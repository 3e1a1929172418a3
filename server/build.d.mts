// Types for server/build.mjs (plain JavaScript, since it has to run before anything is compiled).
export const ROOT: string;
export const DIST: string;
export const ENTRY_POINTS: Record<'start' | 'escrow' | 'migrate' | 'seed', string>;
export function outputOf(entry: keyof typeof ENTRY_POINTS): string;
export function sourcesAbsent(): boolean;
export function serverBuildState(): 'missing' | 'stale' | 'current';
/** Bundles every entry point into server/dist; resolves to the files written. */
export function buildServer(): Promise<string[]>;
/** Builds the server when its build is missing or older than any of its sources. */
export function ensureServerBuild(log?: (message: string) => void): Promise<void>;

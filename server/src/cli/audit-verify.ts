/**
 * `npm run audit:verify`: recomputes the audit log's hash chain from the first entry. Exits 0
 * when every entry matches; 1 naming the first entry that does not (it, or one before it, was
 * changed or removed behind the application's back).
 */
import { runCommandLine } from './operator-line.ts';

const args = process.argv.slice(2);
await runCommandLine(args.length === 0 ? { command: 'audit-verify' } : { error: 'Usage: npm run audit:verify' });

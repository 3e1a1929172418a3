/**
 * `npm run operator -- grant <email> operator|admin` and `npm run operator -- revoke <email>`:
 * how the first admin is made (admins then change roles in the console). Audited with actor
 * `cli`; the account's sessions end.
 */
import { parseRoleCommand } from '../services/operator-commands.ts';
import { runCommandLine } from './operator-line.ts';

await runCommandLine(parseRoleCommand(process.argv.slice(2)));

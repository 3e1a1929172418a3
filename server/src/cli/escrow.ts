/**
 * The escrow operator's command: `npm run escrow -- show <orderId>` prints an order's timeline;
 * `npm run escrow -- resolve <orderId> refund|release --note "..."` decides a dispute (audited
 * with actor `cli`, like the console's decisions).
 */
import { parseEscrowCommand } from '../services/operator-commands.ts';
import { runCommandLine } from './operator-line.ts';

await runCommandLine(parseEscrowCommand(process.argv.slice(2)));

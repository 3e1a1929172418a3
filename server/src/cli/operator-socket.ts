import { createConnection } from 'node:net';
import { operatorSocketPath } from '../plugins/operator-channel.ts';
import type { OperatorCommand, OperatorReply } from '../services/operator-commands.ts';

/** Sends the command to the server running on this data folder; null when none is running. */
export function viaRunningServer(dataDir: string, command: OperatorCommand): Promise<OperatorReply | null> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(operatorSocketPath(dataDir));
    let answer = '';
    socket.setEncoding('utf8');
    socket.once('connect', () => socket.write(`${JSON.stringify(command)}\n`));
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.once('end', () => {
      try {
        resolve(JSON.parse(answer) as OperatorReply);
      } catch {
        reject(new Error('The server gave an unreadable answer'));
      }
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (['ENOENT', 'ECONNREFUSED'].includes(error.code ?? '') && answer === '') resolve(null);
      else reject(error);
    });
  });
}

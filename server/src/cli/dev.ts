/**
 * `npm run dev`: the API server restarted on change (tsx watch) and the Vite dev server with hot
 * reload, which proxies /api, /socket.io and /media to it. Open http://localhost:5173.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT as root } from '../../../db/project-root.ts';

const children: ChildProcess[] = [
  spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'watch', '--clear-screen=false', 'server/src/server.ts'], {
    cwd: root,
    stdio: 'inherit',
    // The Vite dev server's pages open sockets from its own origin.
    env: { ...process.env, SERVE_CLIENT: 'false', ALLOWED_ORIGINS: process.env.ALLOWED_ORIGINS ?? 'http://localhost:5173' },
  }),
  spawn(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), '--config', 'client/vite.config.ts'], { cwd: root, stdio: 'inherit' }),
];

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => {
  stop();
  process.exitCode = code ?? 0;
});

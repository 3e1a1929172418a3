import { startTransition, StrictMode } from 'react';
import type { createRoot as CreateRoot, hydrateRoot as HydrateRoot } from 'react-dom/client';
import { readPageData } from '../lib/page-data.tsx';
import { followServiceWorkerNavigation } from '../lib/service-worker.ts';
import { AppRouter, createAppRouter } from './router.tsx';

/** Gives the browser the main thread for a moment (a paint, a tap) before the next piece of start-up. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Starts the app in `container`: takes over the markup of a page drawn on the server (`drawn`),
 * or renders into the empty shell of a page drawn in the browser. Creating the router (it reads
 * every route) is a task of its own, apart from the code's evaluation and from the first render.
 */
export async function startApp(container: HTMLElement, drawn: boolean, client: { createRoot: typeof CreateRoot; hydrateRoot: typeof HydrateRoot }): Promise<void> {
  await nextTask();
  const router = createAppRouter();
  followServiceWorkerNavigation((path) => void router.navigate(path));
  await nextTask();
  if (drawn) {
    // As a transition, hydration yields to the browser every few milliseconds instead of holding
    // the main thread for the whole page in one task.
    startTransition(() => {
      client.hydrateRoot(
        container,
        <StrictMode>
          <AppRouter router={router} pageData={readPageData(document)} />
        </StrictMode>,
      );
    });
  } else {
    client.createRoot(container).render(
      <StrictMode>
        <AppRouter router={router} />
      </StrictMode>,
    );
  }
}

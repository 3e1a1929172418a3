import './styles/tokens.css';
import './styles/global.css';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppRouter } from './app/router.tsx';
import { readCarEarly } from './features/car-room/index.ts';
import { PAGE_DATA_ELEMENT_ID, readPageData } from './lib/page-data.tsx';
import { parseRouteId } from './lib/route-id.ts';
import { recordDocumentClock } from './lib/server-clock.ts';
import { matchPage } from '@common/paths.ts';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

// Countdowns drawn from the page's data need the server's clock before the first render: this
// device's clock may be minutes off, and no API answer has come yet to say so.
recordDocumentClock();

if (document.getElementById(PAGE_DATA_ELEMENT_ID)) {
  // Drawn on the server (the listing, a car, testimonials, escrow, results): the app takes over
  // the markup it finds, drawn from the same answers.
  // As a transition, hydration yields to the browser every few milliseconds instead of holding
  // the main thread for the whole page in one task: a tap or a scroll is answered meanwhile
  // (Lighthouse's Total Blocking Time counts such long tasks).
  startTransition(() => {
    hydrateRoot(
      container,
      <StrictMode>
        <AppRouter pageData={readPageData(document)} />
      </StrictMode>,
    );
  });
} else {
  // A page opened on a car reads the car now, while the car screen's code is still on its way.
  const page = matchPage(window.location.pathname);
  const carId = page?.page === 'car' ? parseRouteId(page.params[0]) : null;
  if (carId !== null) readCarEarly(carId);

  createRoot(container).render(
    <StrictMode>
      <AppRouter />
    </StrictMode>,
  );
}

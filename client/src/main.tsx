import './styles/tokens.css';
import './styles/global.css';
import { readCarEarly } from './features/car-room/index.ts';
import { PAGE_DATA_ELEMENT_ID } from './lib/page-data.tsx';
import { parseId } from '@common/ids.ts';
import { recordDocumentClock } from './lib/server-clock.ts';
import { matchPage } from '@common/paths.ts';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

// Countdowns drawn from the page's data need the server's clock before the first render: this
// device's clock may be minutes off, and no API answer has come yet to say so.
recordDocumentClock();

// Drawn on the server (the listing, a car, testimonials, escrow, results): the app takes over the
// markup it finds, drawn from the same answers. Otherwise a page opened on a car reads the car
// now, while the car screen's code is still on its way.
const drawn = document.getElementById(PAGE_DATA_ELEMENT_ID) !== null;
if (!drawn) {
  const page = matchPage(window.location.pathname);
  const carId = page?.page === 'car' ? parseId(page.params[0]) : null;
  if (carId !== null) readCarEarly(carId);
}

// The app starts in pieces, each evaluated in a task of its own, so that none holds a phone's main
// thread for long (a tap waits for the task in progress; Lighthouse's Total Blocking Time adds up
// each task's time past 50 ms): React's renderer and the app's code are fetched together and each
// is evaluated as it arrives, and the locale's number data, which the first number format loads,
// is loaded here, before either.
const renderer = import('react-dom/client');
const app = import('./app/start.tsx');
new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(0);
void Promise.all([renderer, app]).then(([client, { startApp }]) => startApp(container, drawn, client));

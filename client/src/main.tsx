import './styles/tokens.css';
import './styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouter } from './app/router.tsx';
import { readCarEarly } from './features/car-room/index.ts';
import { parseRouteId } from './lib/route-id.ts';
import { matchPage } from '@common/paths.ts';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

// A page opened on a car reads the car now, while the car screen's code is still on its way.
const page = matchPage(window.location.pathname);
const carId = page?.page === 'car' ? parseRouteId(page.params[0]) : null;
if (carId !== null) readCarEarly(carId);

createRoot(container).render(
  <StrictMode>
    <AppRouter />
  </StrictMode>,
);

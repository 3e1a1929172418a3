import './styles/tokens.css';
import './styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouter } from './app/router.tsx';
import { readCarEarly } from './features/car-room/api/early-car-read.ts';
import { parseRouteId } from './lib/route-id.ts';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

// A page opened on a car reads the car now, while the car screen's code is still on its way.
const car = /^\/car\/([^/]+)\/?$/.exec(window.location.pathname);
const carId = car ? parseRouteId(car[1]) : null;
if (carId !== null) readCarEarly(carId);

createRoot(container).render(
  <StrictMode>
    <AppRouter />
  </StrictMode>,
);

/** What the app's entry uses of the car room: reading a car while its screen's code loads. */
export { readCarEarly } from './api/early-car-read.ts';
export { carDetailPath, questionsPath, valuationPath } from './api/car-room-api.ts';

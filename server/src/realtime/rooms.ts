/** Every room name comes from here, so no two parts of the code can disagree on one. */
export const carRoom = (carId: number) => `car:${carId}`;
/** Listing cards on screen: they get counter updates but are not viewers. */
export const carSummaryRoom = (carId: number) => `car-summary:${carId}`;
export const userRoom = (userId: number) => `user:${userId}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

export function carIdOfRoom(room: string): number | null {
  const match = /^car:(\d+)$/.exec(room);
  return match ? Number(match[1]) : null;
}

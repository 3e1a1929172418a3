/** "2022 Ferrari 296 GTB". */
export function carName(car: { year: number; make: string; model: string }): string {
  return `${car.year} ${car.make} ${car.model}`;
}

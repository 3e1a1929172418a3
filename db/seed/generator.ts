import type { InferInsertModel } from 'drizzle-orm';
import { carImagePath } from '@common/car-images.ts';
import type { CarBodyStyle } from '@common/listing.ts';
import type { cars, sellers } from '../schema/index.ts';
import { carSearchText } from '../search-text.ts';

type Random = () => number;

interface ModelSpec {
  make: string;
  model: string;
  bodyStyle: CarBodyStyle;
  /** Typical price of a recent example, in dollars. */
  basePrice: number;
}

const MODELS: ModelSpec[] = [
  { make: 'Porsche', model: '911 Carrera S', bodyStyle: 'sports', basePrice: 135_000 },
  { make: 'Porsche', model: '911 GT3', bodyStyle: 'sports', basePrice: 210_000 },
  { make: 'Porsche', model: 'Cayenne Turbo GT', bodyStyle: 'suv', basePrice: 190_000 },
  { make: 'Porsche', model: 'Taycan Turbo S', bodyStyle: 'sedan', basePrice: 175_000 },
  { make: 'Porsche', model: '718 Cayman GT4', bodyStyle: 'sports', basePrice: 115_000 },
  { make: 'Ferrari', model: 'F8 Tributo', bodyStyle: 'sports', basePrice: 330_000 },
  { make: 'Ferrari', model: 'Roma', bodyStyle: 'coupe', basePrice: 240_000 },
  { make: 'Ferrari', model: 'Portofino M', bodyStyle: 'convertible', basePrice: 250_000 },
  { make: 'Ferrari', model: '812 Superfast', bodyStyle: 'coupe', basePrice: 420_000 },
  { make: 'Lamborghini', model: 'Huracán EVO', bodyStyle: 'sports', basePrice: 260_000 },
  { make: 'Lamborghini', model: 'Urus', bodyStyle: 'suv', basePrice: 240_000 },
  { make: 'Lamborghini', model: 'Aventador S', bodyStyle: 'sports', basePrice: 420_000 },
  { make: 'McLaren', model: '720S', bodyStyle: 'sports', basePrice: 290_000 },
  { make: 'McLaren', model: 'GT', bodyStyle: 'coupe', basePrice: 190_000 },
  { make: 'Aston Martin', model: 'Vantage', bodyStyle: 'sports', basePrice: 145_000 },
  { make: 'Aston Martin', model: 'DBX', bodyStyle: 'suv', basePrice: 185_000 },
  { make: 'Bentley', model: 'Continental GT', bodyStyle: 'coupe', basePrice: 230_000 },
  { make: 'Bentley', model: 'Bentayga', bodyStyle: 'suv', basePrice: 200_000 },
  { make: 'Rolls-Royce', model: 'Ghost', bodyStyle: 'sedan', basePrice: 340_000 },
  { make: 'Rolls-Royce', model: 'Cullinan', bodyStyle: 'suv', basePrice: 380_000 },
  { make: 'Rolls-Royce', model: 'Dawn', bodyStyle: 'convertible', basePrice: 330_000 },
  { make: 'Mercedes-AMG', model: 'GT Black Series', bodyStyle: 'sports', basePrice: 390_000 },
  { make: 'Mercedes-AMG', model: 'G 63', bodyStyle: 'suv', basePrice: 185_000 },
  { make: 'Mercedes-AMG', model: 'SL 63', bodyStyle: 'convertible', basePrice: 180_000 },
  { make: 'BMW', model: 'M8 Competition', bodyStyle: 'coupe', basePrice: 135_000 },
  { make: 'BMW', model: 'M4 CSL', bodyStyle: 'sports', basePrice: 140_000 },
  { make: 'BMW', model: 'M5 CS', bodyStyle: 'sedan', basePrice: 125_000 },
  { make: 'Audi', model: 'R8 V10 Performance', bodyStyle: 'sports', basePrice: 180_000 },
  { make: 'Audi', model: 'RS e-tron GT', bodyStyle: 'sedan', basePrice: 120_000 },
  { make: 'Audi', model: 'RS 6 Avant', bodyStyle: 'sedan', basePrice: 110_000 },
  { make: 'Maserati', model: 'MC20', bodyStyle: 'sports', basePrice: 210_000 },
  { make: 'Maserati', model: 'Levante Trofeo', bodyStyle: 'suv', basePrice: 95_000 },
  { make: 'Chevrolet', model: 'Corvette Z06', bodyStyle: 'sports', basePrice: 115_000 },
  { make: 'Lexus', model: 'LC 500', bodyStyle: 'coupe', basePrice: 85_000 },
  { make: 'Jaguar', model: 'F-Type R', bodyStyle: 'convertible', basePrice: 80_000 },
  { make: 'Land Rover', model: 'Range Rover SV', bodyStyle: 'suv', basePrice: 210_000 },
  { make: 'Cadillac', model: 'Escalade-V', bodyStyle: 'suv', basePrice: 150_000 },
  { make: 'Lotus', model: 'Emira', bodyStyle: 'sports', basePrice: 95_000 },
];

const COLORS = ['b71c1c', '0d47a1', '1b5e20', 'f9a825', 'ff6f00', '212121', 'eceff1', '9e9e9e', '4a148c', '006064', '3e2723', 'c0c0c0'];
const CITIES = [
  'Miami, FL', 'Los Angeles, CA', 'San Francisco, CA', 'New York, NY', 'Dallas, TX', 'Houston, TX',
  'Scottsdale, AZ', 'Las Vegas, NV', 'Chicago, IL', 'Atlanta, GA', 'Seattle, WA', 'Denver, CO',
  'Boston, MA', 'Naples, FL', 'Greenwich, CT', 'Nashville, TN', 'Charlotte, NC', 'San Diego, CA',
];
const FEATURES = [
  'Carbon ceramic brakes', 'Front axle lift', 'Adaptive cruise control', 'Premium audio', 'Heated and ventilated seats',
  'Carbon fibre interior trim', 'Sport exhaust', 'Panoramic roof', 'Head-up display', 'Night vision',
  'Forged wheels', 'Track telemetry', 'Massage seats', 'Full paint protection film', 'Matrix LED headlights',
];
const SELLER_SUFFIXES = ['Motorcars', 'Exotics', 'Collection', 'Autohaus', 'Prestige', 'Classics', 'Performance'];
const SELLER_PREFIXES = ['Sterling', 'Pacific', 'Summit', 'Gulf Coast', 'Hudson', 'Desert', 'Lakeshore', 'Peachtree', 'Golden Gate', 'Lone Star'];

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const between = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));

export function generateSellers(total: number, random: Random): InferInsertModel<typeof sellers>[] {
  return Array.from({ length: total }, (_, i) => ({
    name: `${pick(random, SELLER_PREFIXES)} ${pick(random, SELLER_SUFFIXES)} ${i + 1}`,
    rating: Math.round((3.5 + random() * 1.5) * 10) / 10,
    verified: random() < 0.6,
    location: pick(random, CITIES),
  }));
}

export function generateCars(total: number, sellerIds: number[], random: Random, now = Date.now()): InferInsertModel<typeof cars>[] {
  const currentYear = new Date(now).getUTCFullYear();
  return Array.from({ length: total }, () => {
    const spec = pick(random, MODELS);
    const year = between(random, currentYear - 8, currentYear);
    const age = currentYear - year;
    const mileage = Math.max(100, Math.round((age * 4_000 + random() * 6_000) / 10) * 10);
    const depreciation = Math.pow(0.9, age) * (1 - mileage / 400_000);
    const marketValue = Math.max(40_000, Math.round((spec.basePrice * depreciation) / 500) * 500);
    const price = Math.max(35_000, Math.round((marketValue * (0.88 + random() * 0.24)) / 500) * 500);
    const color = pick(random, COLORS);
    const listedAt = new Date(now - Math.floor(random() * 365 * 86_400_000));
    const features = Array.from(new Set(Array.from({ length: between(random, 4, 7) }, () => pick(random, FEATURES))));
    return {
      sellerId: pick(random, sellerIds),
      make: spec.make,
      model: spec.model,
      year,
      price,
      marketValue,
      marketValueBasis: 'reference' as const,
      mileage,
      condition: random() < 0.5 ? 'Excellent' : 'Like New',
      bodyStyle: spec.bodyStyle,
      color,
      location: pick(random, CITIES),
      description: `${year} ${spec.make} ${spec.model} with ${mileage.toLocaleString('en-US')} miles, offered by its current owner with full service history.`,
      features,
      images: (['side', 'front', 'rear'] as const).map((view) => carImagePath(spec.bodyStyle, color, view)),
      searchText: carSearchText(spec),
      createdAt: listedAt,
      updatedAt: listedAt,
    };
  });
}


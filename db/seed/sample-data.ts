/**
 * Sample data set the database is seeded with: sellers, the 12 sample cars,
 * customer reviews of those cars and marketplace testimonials.
 *
 * Pure data. Images are not stored here: each car's gallery is rendered from
 * `bodyStyle`, `colorHex` and `views` (see common/car-images.ts).
 * All dates are ISO 8601 UTC strings.
 */
import type { CarView } from '@common/car-images.ts';
import type { CarBodyStyle, CarCondition } from '@common/listing.ts';

export interface SampleSeller {
  key: string;
  name: string;
  email: string;
  rating: number;
  verified: boolean;
  location: string;
  bio: string;
}

export interface SampleCar {
  key: string;
  sellerKey: string;
  make: string;
  model: string;
  year: number;
  price: number;
  marketValue: number;
  mileage: number;
  condition: CarCondition;
  bodyStyle: CarBodyStyle;
  colorHex: string;
  colorName: string;
  location: string;
  description: string;
  features: string[];
  views: CarView[];
  listedDaysAgo: number;
  /**
   * Sold at a timed auction ending this long after the catalogue is seeded; `price` is then the
   * starting bid. The first ends soon after a fresh start, so its close can be watched.
   */
  auction?: { endsInMinutes: number; reservePrice?: number };
}

export interface SampleReview {
  carKey: string;
  reviewerName: string;
  rating: number;
  comment: string;
  date: string;
  verified: boolean;
}

export interface SampleTestimonial {
  customerName: string;
  customerImage: string | null;
  rating: number;
  comment: string;
  carPurchased: string;
  date: string;
  verified: boolean;
  location: string;
  purchaseAmount: number;
}

export const SAMPLE_SELLERS: SampleSeller[] = [
  {
    key: 'beverly-hills-exotics',
    name: 'Beverly Hills Exotics',
    email: 'sales.bhexotics@example.com',
    rating: 4.9,
    verified: true,
    location: 'Beverly Hills, CA',
    bio: 'Family-owned exotic car dealer on Wilshire Boulevard since 1998, specialising in low-mileage Ferrari, Aston Martin and Lamborghini.',
  },
  {
    key: 'miami-prestige-motors',
    name: 'Miami Prestige Motors',
    email: 'concierge.miamiprestige@example.com',
    rating: 4.7,
    verified: true,
    location: 'Miami, FL',
    bio: 'Luxury and supercar dealership in the Miami Design District offering enclosed nationwide delivery and in-house financing.',
  },
  {
    key: 'lone-star-luxury-autos',
    name: 'Lone Star Luxury Autos',
    email: 'inventory.lonestar@example.com',
    rating: 4.5,
    verified: true,
    location: 'Dallas, TX',
    bio: 'Independent Dallas dealer focused on certified pre-owned German performance cars, each sold with a 150-point inspection report.',
  },
  {
    key: 'gotham-motorcars',
    name: 'Gotham Motorcars',
    email: 'desk.gothammotorcars@example.com',
    rating: 4.8,
    verified: true,
    location: 'New York, NY',
    bio: 'Manhattan consignment specialist handling collector-grade Porsche and Rolls-Royce cars for private owners across the Northeast.',
  },
  {
    key: 'daniel-whitaker',
    name: 'Daniel Whitaker',
    email: 'daniel.whitaker@example.com',
    rating: 4.2,
    verified: false,
    location: 'Scottsdale, AZ',
    bio: 'Private collector in Scottsdale thinning out a garage of garage-kept, dealer-serviced cars.',
  },
  {
    key: 'rebecca-alvarez',
    name: 'Rebecca Alvarez',
    email: 'rebecca.alvarez@example.com',
    rating: 3.9,
    verified: false,
    location: 'Seattle, WA',
    bio: 'Private seller and longtime Porsche Club of America member selling two personally owned daily drivers.',
  },
];

export const SAMPLE_CARS: SampleCar[] = [
  {
    key: 'ferrari-sf90-stradale-2021',
    sellerKey: 'beverly-hills-exotics',
    make: 'Ferrari',
    model: 'SF90 Stradale',
    year: 2021,
    price: 539000,
    marketValue: 525000,
    mileage: 1950,
    condition: 'Like New',
    bodyStyle: 'sports',
    colorHex: 'd40000',
    colorName: 'Rosso Corsa',
    location: 'Beverly Hills, CA',
    description:
      'One-owner SF90 Stradale with the Assetto Fiorano package and just 1,950 miles. The 986 hp plug-in hybrid drivetrain has been serviced by Ferrari of Beverly Hills, with the 7-year genuine maintenance plan still active. Full paint protection film was applied at delivery.',
    features: [
      'Assetto Fiorano package',
      'Carbon fibre racing seats',
      'Carbon ceramic brakes',
      'Front axle lift',
      'Full paint protection film',
      'Passenger display',
      'Ferrari Genuine Maintenance through 2028',
    ],
    views: ['side', 'front', 'rear', 'interior'],
    listedDaysAgo: 3,
  },
  {
    key: 'porsche-911-gt3-2022',
    sellerKey: 'gotham-motorcars',
    make: 'Porsche',
    model: '911 GT3',
    year: 2022,
    price: 234900,
    marketValue: 246500,
    mileage: 3850,
    condition: 'Excellent',
    bodyStyle: 'sports',
    colorHex: 'c8102e',
    colorName: 'Guards Red',
    location: 'New York, NY',
    description:
      '992-generation GT3 with the 4.0-litre naturally aspirated flat-six and the 6-speed manual gearbox. Never tracked, stored in a climate-controlled facility and recently given a fresh annual service at Porsche Manhattan.',
    features: [
      '6-speed manual transmission',
      'Porsche Ceramic Composite Brakes',
      'Front axle lift',
      'Full bucket seats',
      'Clubsport package',
      'LED matrix headlights',
    ],
    views: ['side', 'rear', 'interior'],
    listedDaysAgo: 12,
  },
  {
    key: 'lamborghini-huracan-evo-2021',
    sellerKey: 'miami-prestige-motors',
    make: 'Lamborghini',
    model: 'Huracán EVO',
    year: 2021,
    price: 259800,
    marketValue: 268000,
    mileage: 5400,
    condition: 'Excellent',
    bodyStyle: 'sports',
    colorHex: '69be28',
    colorName: 'Verde Mantis',
    location: 'Miami, FL',
    description:
      'All-wheel-drive Huracán EVO with the 631 hp V10 and Lamborghini Dinamica Veicolo Integrata. Finished in Verde Mantis over Nero Ade leather with green contrast stitching, and covered by the factory Selezione warranty until 2026.',
    features: [
      'Lifting system',
      'Carbon ceramic brakes',
      'Sportivo Alcantara interior',
      'Sensonum premium sound',
      'Rear-view camera',
      'Apple CarPlay',
      '20-inch Aesir wheels',
    ],
    views: ['side', 'front', 'interior'],
    listedDaysAgo: 7,
  },
  {
    key: 'mclaren-720s-2020',
    sellerKey: 'daniel-whitaker',
    make: 'McLaren',
    model: '720S',
    year: 2020,
    price: 249000,
    marketValue: 249000,
    mileage: 8900,
    condition: 'Excellent',
    bodyStyle: 'sports',
    colorHex: 'ff7a00',
    colorName: 'Papaya Spark',
    location: 'Scottsdale, AZ',
    description:
      'Performance-spec 720S with the twin-turbo 4.0-litre V8 and the carbon fibre exterior upgrade pack. Garage kept in Scottsdale, serviced annually at McLaren Scottsdale and sold with both keys, the car cover and the battery conditioner.',
    features: [
      'Carbon fibre exterior pack',
      'Vehicle lift',
      'Bowers & Wilkins audio',
      'Electrochromic glass roof',
      'Carbon ceramic brakes',
      'Surround-view cameras',
    ],
    views: ['side', 'front', 'rear'],
    listedDaysAgo: 21,
    auction: { endsInMinutes: 20 },
  },
  {
    key: 'audi-r8-v10-performance-2020',
    sellerKey: 'lone-star-luxury-autos',
    make: 'Audi',
    model: 'R8 V10 Performance',
    year: 2020,
    price: 154900,
    marketValue: 149000,
    mileage: 14200,
    condition: 'Excellent',
    bodyStyle: 'sports',
    colorHex: 'f5c400',
    colorName: 'Vegas Yellow',
    location: 'Dallas, TX',
    description:
      'Quattro R8 with the 602 hp naturally aspirated 5.2-litre V10 and the 7-speed S tronic gearbox. Clean Carfax, fresh Pirelli P Zero tyres and a documented 150-point inspection from our Dallas service bay.',
    features: [
      'Quattro all-wheel drive',
      'Carbon fibre side blades',
      'Dynamic steering',
      'Bang & Olufsen sound system',
      'Audi virtual cockpit',
      'Carbon ceramic brakes',
    ],
    views: ['side', 'rear', 'interior'],
    listedDaysAgo: 34,
  },
  {
    key: 'aston-martin-dbs-superleggera-2021',
    sellerKey: 'beverly-hills-exotics',
    make: 'Aston Martin',
    model: 'DBS Superleggera',
    year: 2021,
    price: 215000,
    marketValue: 262000,
    mileage: 6700,
    condition: 'Like New',
    bodyStyle: 'coupe',
    colorHex: '5d6266',
    colorName: 'Xenon Grey',
    location: 'Beverly Hills, CA',
    description:
      'The 715 hp twin-turbo V12 grand tourer in Xenon Grey with an Obsidian Black and Oxblood Red interior. Specified with the carbon fibre exterior pack and Bang & Olufsen BeoSound audio, and maintained exclusively by an authorised Aston Martin dealer.',
    features: [
      'Twin-turbo 5.2-litre V12',
      'Carbon fibre exterior pack',
      'Bang & Olufsen BeoSound',
      'Ventilated sports plus seats',
      'Carbon ceramic brakes',
      '360-degree camera',
    ],
    views: ['side', 'front', 'rear', 'interior'],
    listedDaysAgo: 15,
    auction: { endsInMinutes: 120, reservePrice: 265_000 },
  },
  {
    key: 'bmw-m8-competition-2022',
    sellerKey: 'lone-star-luxury-autos',
    make: 'BMW',
    model: 'M8 Competition',
    year: 2022,
    price: 89900,
    marketValue: 94300,
    mileage: 16800,
    condition: 'Excellent',
    bodyStyle: 'coupe',
    colorHex: '1f4e9a',
    colorName: 'Marina Bay Blue',
    location: 'Dallas, TX',
    description:
      'M8 Competition coupe with the 617 hp twin-turbo V8 and M xDrive all-wheel drive. Includes the Executive package and carbon roof, with the remainder of the BMW factory warranty.',
    features: [
      'M xDrive all-wheel drive',
      'Carbon fibre roof',
      'Executive package',
      'Bowers & Wilkins Diamond audio',
      'Heads-up display',
      'Merino leather interior',
    ],
    views: ['side', 'front', 'interior'],
    listedDaysAgo: 48,
  },
  {
    key: 'bentley-continental-gt-convertible-2022',
    sellerKey: 'miami-prestige-motors',
    make: 'Bentley',
    model: 'Continental GT V8 Convertible',
    year: 2022,
    price: 219900,
    marketValue: 228500,
    mileage: 7300,
    condition: 'Like New',
    bodyStyle: 'convertible',
    colorHex: '1e3a6e',
    colorName: 'Sequin Blue',
    location: 'Miami, FL',
    description:
      'Four-seat grand tourer with the 542 hp 4.0-litre twin-turbo V8 and a tweed-effect fabric roof that opens in 19 seconds at up to 30 mph. Specified with the Mulliner Driving Specification, neck warmers and the rotating Bentley display.',
    features: [
      'Mulliner Driving Specification',
      'Bentley Rotating Display',
      'Neck warmers',
      'Naim for Bentley audio',
      'Touring specification',
      'Heated and ventilated seats',
      '22-inch Mulliner wheels',
    ],
    views: ['side', 'interior', 'rear'],
    listedDaysAgo: 9,
  },
  {
    key: 'rolls-royce-cullinan-2023',
    sellerKey: 'gotham-motorcars',
    make: 'Rolls-Royce',
    model: 'Cullinan',
    year: 2023,
    price: 320000,
    marketValue: 412000,
    mileage: 2800,
    condition: 'Like New',
    bodyStyle: 'suv',
    colorHex: 'f2f2ee',
    colorName: 'Arctic White',
    location: 'New York, NY',
    description:
      'Consignment Cullinan with the 563 hp 6.75-litre twin-turbo V12 and only 2,800 chauffeur-driven miles. Fitted with the Starlight Headliner, rear theatre configuration and Viewing Suite, and still covered by the Rolls-Royce four-year warranty.',
    features: [
      'Starlight Headliner',
      'Viewing Suite',
      'Rear theatre configuration',
      'Bespoke audio',
      'Night vision',
      'Picnic tables',
      'Self-levelling air suspension',
    ],
    views: ['side', 'front', 'rear', 'interior'],
    listedDaysAgo: 2,
    auction: { endsInMinutes: 3 * 24 * 60, reservePrice: 385_000 },
  },
  {
    key: 'mercedes-amg-g63-2023',
    sellerKey: 'rebecca-alvarez',
    make: 'Mercedes-AMG',
    model: 'G 63',
    year: 2023,
    price: 198500,
    marketValue: 189000,
    mileage: 6100,
    condition: 'Excellent',
    bodyStyle: 'suv',
    colorHex: '16181b',
    colorName: 'Obsidian Black',
    location: 'Seattle, WA',
    description:
      'G 63 with the hand-built 577 hp biturbo V8 and three locking differentials. Optioned with the AMG Night package and 22-inch forged wheels, with ceramic coating applied last spring.',
    features: [
      'AMG Night package',
      'Three locking differentials',
      '22-inch forged wheels',
      'Burmester surround sound',
      'Active multicontour seats',
      'Ceramic coating',
    ],
    views: ['side', 'front', 'rear'],
    listedDaysAgo: 27,
  },
  {
    key: 'porsche-taycan-turbo-s-2021',
    sellerKey: 'rebecca-alvarez',
    make: 'Porsche',
    model: 'Taycan Turbo S',
    year: 2021,
    price: 97800,
    marketValue: 104900,
    mileage: 21500,
    condition: 'Excellent',
    bodyStyle: 'sedan',
    colorHex: '8fb5d1',
    colorName: 'Frozen Blue Metallic',
    location: 'Seattle, WA',
    description:
      'Dual-motor Taycan Turbo S producing up to 750 hp with launch control. The high-voltage battery was health-checked at Porsche Bellevue this year, and the car has home-charged on Level 2 for its whole life.',
    features: [
      'Performance Battery Plus',
      'Porsche Ceramic Composite Brakes',
      'Rear-axle steering',
      'Passenger display',
      'Burmester 3D surround sound',
      'Adaptive air suspension',
    ],
    views: ['side', 'interior', 'front'],
    listedDaysAgo: 56,
  },
  {
    key: 'maserati-quattroporte-trofeo-2021',
    sellerKey: 'daniel-whitaker',
    make: 'Maserati',
    model: 'Quattroporte Trofeo',
    year: 2021,
    price: 68500,
    marketValue: 66000,
    mileage: 27400,
    condition: 'Excellent',
    bodyStyle: 'sedan',
    colorHex: '1b2a4a',
    colorName: 'Blu Nobile',
    location: 'Scottsdale, AZ',
    description:
      'Flagship Quattroporte with the 580 hp Ferrari-built twin-turbo V8 and rear-wheel drive. Pieno Fiore natural leather, carbon fibre trim and a recently completed 30,000-mile service.',
    features: [
      'Pieno Fiore natural leather',
      'Carbon fibre interior trim',
      'Bowers & Wilkins surround sound',
      'Skyhook adaptive suspension',
      'Soft-close doors',
    ],
    views: ['side', 'front', 'rear', 'interior'],
    listedDaysAgo: 40,
  },
];

export const SAMPLE_REVIEWS: SampleReview[] = [
  {
    carKey: 'ferrari-sf90-stradale-2021',
    reviewerName: 'Marcus Chen',
    rating: 5,
    comment:
      'Saw this SF90 in person at the Beverly Hills showroom and it is as clean as the photos. The sales team walked me through the full service history without any pressure.',
    date: '2025-03-18T19:42:00.000Z',
    verified: true,
  },
  {
    carKey: 'ferrari-sf90-stradale-2021',
    reviewerName: 'Olivia Bennett',
    rating: 4,
    comment: 'Stunning car and a very professional dealer. Pricing is a little above what I have seen elsewhere for the mileage.',
    date: '2025-04-02T16:10:00.000Z',
    verified: false,
  },
  {
    carKey: 'porsche-911-gt3-2022',
    reviewerName: 'James Holloway',
    rating: 5,
    comment:
      'Gotham sent a 90-photo walkaround and a cold-start video within an hour of my enquiry. Manual GT3s in this condition are rare.',
    date: '2024-11-06T14:25:00.000Z',
    verified: true,
  },
  {
    carKey: 'porsche-911-gt3-2022',
    reviewerName: 'Priya Raman',
    rating: 5,
    comment: 'Test drove it on a Saturday morning and the PCCB brakes and front axle lift were exactly as described. Honest, knowledgeable seller.',
    date: '2025-01-11T17:05:00.000Z',
    verified: true,
  },
  {
    carKey: 'lamborghini-huracan-evo-2021',
    reviewerName: 'Carlos Mendoza',
    rating: 4,
    comment: 'Verde Mantis looks unreal in the Miami sun. Paperwork took a couple of days longer than promised, but the car itself is spotless.',
    date: '2024-09-22T21:30:00.000Z',
    verified: true,
  },
  {
    carKey: 'lamborghini-huracan-evo-2021',
    reviewerName: 'Hannah Brooks',
    rating: 5,
    comment: 'Miami Prestige arranged an independent inspection for me at no charge. Everything checked out.',
    date: '2025-02-14T15:00:00.000Z',
    verified: false,
  },
  {
    carKey: 'mclaren-720s-2020',
    reviewerName: 'Tyler Griffin',
    rating: 3,
    comment:
      'The car is great, but the seller was slow to answer questions about the front lift service. It got sorted in the end through the escrow inspection.',
    date: '2025-05-08T18:45:00.000Z',
    verified: true,
  },
  {
    carKey: 'mclaren-720s-2020',
    reviewerName: 'Sophia Park',
    rating: 4,
    comment: 'Daniel was friendly and let me see the service records from McLaren Scottsdale. A fair price for a carbon-pack car.',
    date: '2025-06-01T20:15:00.000Z',
    verified: false,
  },
  {
    carKey: 'aston-martin-dbs-superleggera-2021',
    reviewerName: 'William Foster',
    rating: 5,
    comment: 'That V12 is something else. Beverly Hills Exotics answered every question and shipped the car to Denver in an enclosed trailer.',
    date: '2024-10-15T16:40:00.000Z',
    verified: true,
  },
  {
    carKey: 'bmw-m8-competition-2022',
    reviewerName: 'Derek Lawson',
    rating: 4,
    comment: 'Great value for an M8 Competition with this spec. Minor rock chips on the front bumper that were disclosed up front.',
    date: '2024-08-27T13:20:00.000Z',
    verified: true,
  },
  {
    carKey: 'bmw-m8-competition-2022',
    reviewerName: 'Natalie Kim',
    rating: 2,
    comment:
      'The listing photos hid some curb rash on two wheels, and it took a week to get a quote for refinishing. The dealer did eventually offer a credit.',
    date: '2024-12-03T22:05:00.000Z',
    verified: false,
  },
  {
    carKey: 'rolls-royce-cullinan-2023',
    reviewerName: 'Elizabeth Hartley',
    rating: 5,
    comment: 'Immaculate Cullinan with the Starlight Headliner. Gotham handled the sale with real discretion.',
    date: '2025-04-21T15:35:00.000Z',
    verified: true,
  },
  {
    carKey: 'rolls-royce-cullinan-2023',
    reviewerName: 'Robert Sinclair',
    rating: 5,
    comment: 'Exactly as described, down to the picnic tables that had never been unfolded. Smooth escrow release.',
    date: '2025-06-12T17:50:00.000Z',
    verified: true,
  },
  {
    carKey: 'mercedes-amg-g63-2023',
    reviewerName: 'Anthony Russo',
    rating: 4,
    comment: 'Rebecca was upfront about the ceramic coating and the new tyres. The G 63 drives like new.',
    date: '2025-03-03T19:00:00.000Z',
    verified: false,
  },
  {
    carKey: 'mercedes-amg-g63-2023',
    reviewerName: 'Grace Whitman',
    rating: 5,
    comment: 'Quick responses, a clean title and she met me at the Seattle DMV to finish the transfer the same day.',
    date: '2024-07-19T16:30:00.000Z',
    verified: true,
  },
  {
    carKey: 'ferrari-sf90-stradale-2021',
    reviewerName: 'Benjamin Ortiz',
    rating: 5,
    comment: 'The seller sent the original window sticker and warranty documents before I even asked.',
    date: '2025-05-27T18:20:00.000Z',
    verified: true,
  },
];

export const SAMPLE_TESTIMONIALS: SampleTestimonial[] = [
  {
    customerName: 'Michael Thompson',
    customerImage: null,
    rating: 5,
    comment:
      'Buying a car across the country felt risky until I used the escrow service. My funds were only released after the independent inspection came back clean.',
    carPurchased: '2021 Porsche 911 Turbo S',
    date: '2024-03-14T16:20:00.000Z',
    verified: true,
    location: 'Chicago, IL',
    purchaseAmount: 212500,
  },
  {
    customerName: 'Sarah Mitchell',
    customerImage: null,
    rating: 5,
    comment:
      'The pre-purchase inspection caught a leaking coolant line the seller did not know about. It was fixed before delivery and I never paid a cent extra.',
    carPurchased: '2020 Mercedes-AMG GT R',
    date: '2024-04-29T18:05:00.000Z',
    verified: true,
    location: 'Atlanta, GA',
    purchaseAmount: 149900,
  },
  {
    customerName: 'David Nguyen',
    customerImage: null,
    rating: 4,
    comment:
      'Support answered my questions about title transfer within a couple of hours, every time. The whole process took eleven days from offer to delivery.',
    carPurchased: '2022 BMW M5 CS',
    date: '2024-06-02T14:40:00.000Z',
    verified: false,
    location: 'San Jose, CA',
    purchaseAmount: 131000,
  },
  {
    customerName: 'Jennifer Walsh',
    customerImage: null,
    rating: 3,
    comment:
      'The escrow itself worked well, but shipping was delayed by four days and updates were slow. The car arrived in perfect condition, though.',
    carPurchased: '2019 Bentley Bentayga V8',
    date: '2024-07-21T20:10:00.000Z',
    verified: true,
    location: 'Denver, CO',
    purchaseAmount: 118750,
  },
  {
    customerName: 'Robert Fischer',
    customerImage: null,
    rating: 5,
    comment:
      'As a first-time supercar buyer I appreciated how the team explained every step of the escrow. I felt protected from start to finish.',
    carPurchased: '2021 McLaren GT',
    date: '2024-09-10T15:30:00.000Z',
    verified: true,
    location: 'Nashville, TN',
    purchaseAmount: 164900,
  },
  {
    customerName: 'Amanda Reyes',
    customerImage: null,
    rating: 5,
    comment:
      'The inspection report was 40 pages with photos of everything, including paint meter readings. I bought with total confidence.',
    carPurchased: '2022 Lamborghini Urus',
    date: '2024-11-18T17:45:00.000Z',
    verified: true,
    location: 'Houston, TX',
    purchaseAmount: 238000,
  },
  {
    customerName: "Kevin O'Brien",
    customerImage: null,
    rating: 4,
    comment:
      'Live chat at midnight actually reached a person who knew the car. Price negotiation was handled professionally through the platform.',
    carPurchased: '2023 Porsche 911 Carrera GTS',
    date: '2025-01-24T04:15:00.000Z',
    verified: false,
    location: 'Boston, MA',
    purchaseAmount: 176400,
  },
  {
    customerName: 'Laura Whitfield',
    customerImage: null,
    rating: 5,
    comment:
      'I traded my Aston Martin towards this Ghost and the whole deal ran through escrow. The seller was paid the day after I approved the inspection, with no wire-fraud worries on either side.',
    carPurchased: '2022 Rolls-Royce Ghost',
    date: '2025-04-07T19:25:00.000Z',
    verified: false,
    location: 'Palm Beach, FL',
    purchaseAmount: 329000,
  },
  {
    customerName: 'Christopher Hayes',
    customerImage: null,
    rating: 5,
    comment:
      'Third car I have bought through this marketplace. The Platinum Elite escrow plan and the 14-day guarantee are worth every dollar on a car at this price.',
    carPurchased: '2022 Ferrari 296 GTB',
    date: '2025-06-16T16:00:00.000Z',
    verified: true,
    location: 'Charlotte, NC',
    purchaseAmount: 389500,
  },
];

/**
 * The sample catalogue's dossiers: VINs of the US-market layout with their check digits worked
 * out (common/vin.ts) and the model-year character of each car's year, the flaws and service
 * histories a careful seller would declare, and, for some records, an invoice the seed draws
 * as a PDF. Pure data, keyed by sample car.
 */

export interface SampleServiceRecord {
  date: string;
  mileage: number;
  shop: string;
  work: string;
  cost?: number;
  /** The seed draws an invoice PDF for this record and links it. */
  invoice?: boolean;
}

export interface SampleDossier {
  vin: string;
  knownFlaws: string[];
  modifications: string[];
  itemsIncluded: string[];
  serviceRecords: SampleServiceRecord[];
}

export const SAMPLE_DOSSIERS: Record<string, SampleDossier> = {
  'ferrari-sf90-stradale-2021': {
    vin: 'ZFF95NLAXM0261234',
    knownFlaws: ['Two small stone chips on the front splitter, under the film', 'Light wear on the driver seat side bolster'],
    modifications: ['Full-body XPEL Ultimate Plus paint protection film (dealer installed)'],
    itemsIncluded: ['Both keys', 'Ferrari car cover and battery conditioner', 'Original window sticker', 'Owner\u2019s manuals in leather pouch'],
    serviceRecords: [
      { date: '2023-03-14', mileage: 1_120, shop: 'Ferrari of Beverly Hills', work: 'Annual service under Genuine Maintenance: engine oil, filters, brake fluid', cost: 0, invoice: true },
      { date: '2024-04-02', mileage: 1_870, shop: 'Ferrari of Beverly Hills', work: 'Annual service; high-voltage battery health check (98%)', cost: 0 },
    ],
  },
  'porsche-911-gt3-2022': {
    vin: 'WP0AC2A94NS270123',
    knownFlaws: ['Curb rash on the left front wheel, about 2 cm', 'Faint swirl marks on the rear decklid'],
    modifications: ['Clear bra on the nose, hood and mirrors', 'Cargo-area net (Porsche Tequipment)'],
    itemsIncluded: ['Both keys', 'Porsche indoor car cover', 'Battery tender', 'Track-day tow hook'],
    serviceRecords: [
      { date: '2023-06-20', mileage: 2_400, shop: 'Porsche Manhattan', work: 'First-year service: oil and filter, inspection', cost: 690, invoice: true },
      { date: '2024-06-11', mileage: 3_700, shop: 'Porsche Manhattan', work: 'Brake fluid flush, PDK fluid check', cost: 410 },
    ],
  },
  'lamborghini-huracan-evo-2021': {
    vin: 'ZHWUF5ZF9MLA15678',
    knownFlaws: ['Small scuff on the lower front lip from a steep driveway'],
    modifications: ['Front lift system recalibrated by the dealer'],
    itemsIncluded: ['Both keys', 'Indoor car cover', 'Lamborghini battery charger'],
    serviceRecords: [{ date: '2024-01-18', mileage: 4_900, shop: 'Lamborghini Miami', work: 'Annual service, new front tyres', cost: 3_850, invoice: true }],
  },
  'mclaren-720s-2020': {
    vin: 'SBM14DCA9LW004321',
    knownFlaws: ['Rock chips across the front bumper', 'Interior Alcantara on the steering wheel shows wear'],
    modifications: ['Novitec exhaust (original exhaust included)'],
    itemsIncluded: ['Both keys', 'Original exhaust system', 'McLaren car cover'],
    serviceRecords: [
      { date: '2022-08-09', mileage: 5_600, shop: 'McLaren Dallas', work: 'Annual service, brake fluid', cost: 1_650 },
      { date: '2024-02-27', mileage: 8_400, shop: 'McLaren Dallas', work: 'Annual service, new Pirelli P Zero tyres', cost: 3_120, invoice: true },
    ],
  },
  'audi-r8-v10-performance-2020': {
    vin: 'WUAKBAFX9L7901234',
    knownFlaws: ['Small dent on the passenger door, paintless repair recommended', 'Windscreen has a 3 mm chip out of the driver\u2019s view'],
    modifications: [],
    itemsIncluded: ['Both keys', 'Audi Sport floor mats'],
    serviceRecords: [
      { date: '2021-09-15', mileage: 6_100, shop: 'Audi Manhattan', work: 'Scheduled 10,000-mile service (early)', cost: 520 },
      { date: '2023-10-03', mileage: 12_800, shop: 'Audi Manhattan', work: '30,000-mile service items, spark plugs, cabin filter', cost: 1_980, invoice: true },
    ],
  },
  'aston-martin-dbs-superleggera-2021': {
    vin: 'SCFRMHAVXMGR01234',
    knownFlaws: ['Light scratches on the rear diffuser'],
    modifications: ['Ceramic coating on the paint'],
    itemsIncluded: ['Both keys', 'Aston Martin luggage set', 'Car cover'],
    serviceRecords: [{ date: '2023-11-21', mileage: 5_900, shop: 'Aston Martin Miami', work: 'Annual service, brake fluid, coolant check', cost: 1_450, invoice: true }],
  },
  'bmw-m8-competition-2022': {
    vin: 'WBSAE0C00NCJ12345',
    knownFlaws: ['Curb rash on two wheels', 'Small chip on the bonnet'],
    modifications: ['Tinted side windows (35%)'],
    itemsIncluded: ['Both keys', 'BMW floor mats'],
    serviceRecords: [
      { date: '2023-04-17', mileage: 8_300, shop: 'BMW of Austin', work: 'Engine oil service (BMW Ultimate Care)', cost: 0 },
      { date: '2024-05-06', mileage: 15_900, shop: 'BMW of Austin', work: 'Brake fluid, rear brake pads', cost: 860, invoice: true },
    ],
  },
  'bentley-continental-gt-convertible-2022': {
    vin: 'SCBDG4ZG8NC012345',
    knownFlaws: ['Soft top shows a small crease at the rear window seam'],
    modifications: [],
    itemsIncluded: ['Both keys', 'Tonneau cover', 'Bentley umbrella set'],
    serviceRecords: [{ date: '2024-03-12', mileage: 6_800, shop: 'Bentley Beverly Hills', work: 'First service, soft-top hydraulics check', cost: 1_290, invoice: true }],
  },
  'rolls-royce-cullinan-2023': {
    vin: 'SLATV4C02PU212345',
    knownFlaws: ['Faint mark on the rear passenger lambswool mat'],
    modifications: ['Starlight headliner with shooting stars (factory option, retrofitted by the dealer)'],
    itemsIncluded: ['Both keys', 'Rolls-Royce umbrellas in the doors', 'Viewing suite seats', 'Original window sticker'],
    serviceRecords: [{ date: '2024-07-08', mileage: 2_500, shop: 'Rolls-Royce Motor Cars Dallas', work: 'First-year service', cost: 0, invoice: true }],
  },
  'mercedes-amg-g63-2023': {
    vin: 'W1NYC7HJ7PX412345',
    knownFlaws: ['Stone chips along the front edge of the bonnet', 'Scuff on the rear bumper step'],
    modifications: ['Satin paint protection film'],
    itemsIncluded: ['Both keys', 'Spare-wheel cover', 'AMG floor mats'],
    serviceRecords: [{ date: '2024-06-19', mileage: 5_400, shop: 'Mercedes-Benz of Houston', work: 'Service A, tyre rotation', cost: 540, invoice: true }],
  },
  'porsche-taycan-turbo-s-2021': {
    vin: 'WP0AB2Y19MSA12345',
    knownFlaws: ['Scratch on the driver door sill trim', 'Minor wheel rash on all four wheels'],
    modifications: ['Level 2 home charger (not included)'],
    itemsIncluded: ['Both keys', 'Mobile charger', 'Charging cable bag'],
    serviceRecords: [
      { date: '2022-09-01', mileage: 9_800, shop: 'Porsche Seattle', work: 'Two-year maintenance, cabin filter', cost: 495 },
      { date: '2024-08-22', mileage: 20_100, shop: 'Porsche Seattle', work: 'Brake fluid, high-voltage battery check, software update', cost: 780, invoice: true },
    ],
  },
  'maserati-quattroporte-trofeo-2021': {
    vin: 'ZAM56YPS0M1345678',
    knownFlaws: ['Rear bumper respray after a parking-lot scuff (documented)', 'Driver seat bolster leather creased'],
    modifications: [],
    itemsIncluded: ['Both keys', 'Maserati floor mats'],
    serviceRecords: [
      { date: '2022-05-30', mileage: 11_000, shop: 'Maserati of Seattle', work: 'Annual service, oil and filters', cost: 950 },
      { date: '2024-06-03', mileage: 26_900, shop: 'Maserati of Seattle', work: 'Spark plugs, brake pads and rotors', cost: 2_740, invoice: true },
    ],
  },
};

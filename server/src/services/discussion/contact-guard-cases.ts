import type { GuardReason } from './contact-guard.ts';

/**
 * Messages the guard is measured on: contact details and payment requests as people disguise
 * them (`hold`, with the reason the operator should see), and car talk as buyers and sellers
 * write it, full of prices, mileages, years, codes and dates (`allow`).
 */
export interface GuardCase {
  text: string;
  expect: 'hold' | 'allow';
  reason?: GuardReason;
}

/**
 * Written before the detector was tuned and never used to tune it, so that its figures on
 * these say how it does on messages it was not fitted to.
 */
export const heldOutCases: GuardCase[] = [
  // Held: phone numbers, plain and disguised.
  { text: 'ping me: 07700 900 461 — much quicker than this chat', expect: 'hold', reason: 'phone' },
  { text: 'my cell is 3 1 0 – 5 5 5 – 0 1 9 8, ask for Marco', expect: 'hold', reason: 'phone' },
  { text: 'reach me at (212) 555\u20110147 after 6pm', expect: 'hold', reason: 'phone' },
  { text: 'Number: ５５５ ２０３ ４４１９ (call after work)', expect: 'hold', reason: 'phone' },
  { text: 'nine one seven, five five five, oh two eight three. Ask for Dieter.', expect: 'hold', reason: 'phone' },
  { text: '9one7 5five5 0two8 3', expect: 'hold', reason: 'phone' },
  { text: "+49 151 2345 6789 – I'm in Stuttgart, can show it any day", expect: 'hold', reason: 'phone' },
  { text: 'Text 4\uFE0F\u20E31\uFE0F\u20E35\uFE0F\u20E3 5\uFE0F\u20E35\uFE0F\u20E35\uFE0F\u20E3 0\uFE0F\u20E31\uFE0F\u20E39\uFE0F\u20E32\uFE0F\u20E3', expect: 'hold', reason: 'phone' },
  { text: 'call me on 0 7 9 1 1 . 1 2 3 . 4 5 6', expect: 'hold', reason: 'phone' },
  { text: 'my digits: ٠٧٩٠٠ ١٢٣ ٤٥٦', expect: 'hold', reason: 'phone' },
  { text: 'Call me on five-five-five, 0-1-3-4 tonight', expect: 'hold', reason: 'phone' },
  // Held: email addresses.
  { text: 'mail me: r.keller (at) gmx [dot] de', expect: 'hold', reason: 'email' },
  { text: 'send the PPI report to carlos dot mendes at outlook dot com', expect: 'hold', reason: 'email' },
  { text: 'j\u200Do\u200Dh\u200Dn\u200D@\u200Dg\u200Dm\u200Da\u200Di\u200Dl.com', expect: 'hold', reason: 'email' },
  { text: 'my email is porschefan73 at gmail, write me there', expect: 'hold', reason: 'email' },
  { text: 'Email: marcus_911＠yahoo．co．uk', expect: 'hold', reason: 'email' },
  { text: 'contact: lucas.brenner@protonmail.ch', expect: 'hold', reason: 'email' },
  // Held: links to other sites.
  { text: 'Full service history scanned here: https://drive.google.com/drive/folders/1AbCdEf', expect: 'hold', reason: 'link' },
  { text: 'more pics on my site classic-garage-munich dot de', expect: 'hold', reason: 'link' },
  { text: 'Check www . gt-classics . co . uk for the rest of my stock', expect: 'hold', reason: 'link' },
  { text: 'have a look at bit.ly/3xGt3rs for the walkaround', expect: 'hold', reason: 'link' },
  { text: 'Continue on t.me/luxe_dealer_eu, faster replies', expect: 'hold', reason: 'link' },
  // Held: messaging apps and invitations.
  { text: 'w h a t s a p p me, the number is in my profile name', expect: 'hold', reason: 'messaging_app' },
  { text: "I'm on t.e.l.e.g.r.a.m as @ferrari_f40_dealer", expect: 'hold', reason: 'messaging_app' },
  { text: 'hit me up on the green app, same name as here', expect: 'hold', reason: 'messaging_app' },
  { text: 'wh4tsapp is easier for me, add me', expect: 'hold', reason: 'messaging_app' },
  { text: 'Add me on Signal so we can talk about the deposit', expect: 'hold', reason: 'messaging_app' },
  { text: "I don't check this site often, DM me on Instagram @stuttgart.classics", expect: 'hold', reason: 'messaging_app' },
  { text: "Let's continue on W\u0435Chat, my ID is porsche_sh", expect: 'hold', reason: 'messaging_app' },
  { text: 'Viber +7 916 123-45-67', expect: 'hold', reason: 'messaging_app' },
  { text: 'My Snap is gt3rs_mike, more videos there', expect: 'hold', reason: 'messaging_app' },
  { text: 'Telegram: @lambo_import', expect: 'hold', reason: 'messaging_app' },
  // Held: payment outside escrow.
  { text: 'I can knock 10k off if you wire the money straight to my account', expect: 'hold', reason: 'payment' },
  { text: 'Seller here: to skip the escrow fee I accept a bank transfer to my business account', expect: 'hold', reason: 'payment' },
  { text: 'For a quicker deal send the deposit in BTC, wallet bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh', expect: 'hold', reason: 'payment' },
  { text: "I'd rather be paid directly, escrow takes too long", expect: 'hold', reason: 'payment' },
  { text: 'Happy to accept Zelle or Venmo for the $5,000 holding deposit', expect: 'hold', reason: 'payment' },
  { text: 'Payment via U$DT or E-T-H only, no escrow nonsense', expect: 'hold', reason: 'payment' },
  { text: 'buy two Apple gift cards for the shipping deposit and send me the codes', expect: 'hold', reason: 'payment' },
  { text: 'IBAN DE89 3704 0044 0532 0130 00, reference the chassis number', expect: 'hold', reason: 'payment' },
  { text: 'we can do this deal off the site and both save the fees', expect: 'hold', reason: 'payment' },
  { text: "Western Union works for me, I'm abroad until March", expect: 'hold', reason: 'payment' },
  { text: "pay me directly and I'll throw in the spare set of wheels", expect: 'hold', reason: 'payment' },
  { text: 'the car is in Dubai, transfer 20% to my agent and he releases it', expect: 'hold', reason: 'payment' },

  // Allowed: car talk.
  { text: "What's the service history like? The 60,000-mile service was $4,850 according to the invoice you posted.", expect: 'allow' },
  { text: 'Paint meter readings: bonnet 112, roof 108, doors 115 and 118, rear quarters 121 microns. All original.', expect: 'allow' },
  { text: 'VIN ends in 2124 — can you confirm the Carfax shows no accidents?', expect: 'allow' },
  { text: "It's a 2019 991.2 GT3 Touring, 6-speed manual, 12,500 miles, Chalk over black.", expect: 'allow' },
  { text: 'Asking $310,000 or 310k with the PTS upgrade? Just to be clear.', expect: 'allow' },
  { text: 'Inspection booked for 15/03/2024 at 10:30 at the Porsche Centre, is that OK?', expect: 'allow' },
  { text: 'Tyres are 245/35 ZR19 front and 305/30 ZR20 rear, Michelin Cup 2 from 2022.', expect: 'allow' },
  { text: 'Chassis BNR32-305156, engine RB26 numbers match per the Nismo certificate.', expect: 'allow' },
  { text: 'Lap time at the Nürburgring was 7:12.7 for the GT2 RS MR, not bad for 700 PS.', expect: 'allow' },
  { text: 'Is the €95.000 price including the 19% VAT or not?', expect: 'allow' },
  { text: 'The F40 had a 2.9-litre twin-turbo V8 making 478 PS and 577 Nm.', expect: 'allow' },
  { text: 'I owned a 300SL roadster from 1957 to 1963 and a W113 280SL afterwards.', expect: 'allow' },
  { text: 'Recommended pressures are 36 psi front and 41 psi rear on the 992.1 Turbo S.', expect: 'allow' },
  { text: 'Can you send a cold start video and a photo of the odometer showing 45 000 km?', expect: 'allow' },
  { text: 'The 250 GTO chassis numbers run from 3223GT to 5573GT, so that one is genuine.', expect: 'allow' },
  { text: "Option codes on the build sheet: 1 2 3, plus XLF and 9VL. What's 9VL again?", expect: 'allow' },
  { text: 'My E36 M3 had a turn signal relay fail at 98,000 miles. Worth checking on this one.', expect: 'allow' },
  { text: "Will the seller accept 1.2M for the LaFerrari Aperta? It's been listed since 2021.", expect: 'allow' },
  { text: 'I will pay through escrow once the PPI comes back clean.', expect: 'allow' },
  { text: 'Does escrow cover shipping from Los Angeles to Miami, or is that separate?', expect: 'allow' },
  { text: "Line 6 of the invoice says 'clutch replacement £2,350' — was that in 2020 or 2021?", expect: 'allow' },
  { text: 'The signal light on the left mirror is cracked in photo 14, any plans to replace it?', expect: 'allow' },
  { text: 'A bank of 6 gauges on the dash of the 959 — love that era of Porsche.', expect: 'allow' },
  { text: 'It has the 6 speed 911 gearbox from a 993, the G50/21, so shifts are much better.', expect: 'allow' },
  { text: "What's the torque figure after the remap? I read 520 Nm at 2,500 rpm.", expect: 'allow' },
  { text: 'Engine number 1234567 matches the Kardex, chassis number 9113600512 too.', expect: 'allow' },
  { text: 'Two owners since new, last one from 2014 to 2023, always garaged in Zürich.', expect: 'allow' },
  { text: 'Shipping from Hamburg takes 3-4 weeks; RoRo is around $2,800, container $4,500.', expect: 'allow' },
  { text: 'Can we move the inspection to March 22 at 2pm? I land at 11:45 that morning.', expect: 'allow' },
  { text: 'LFA production: 500 cars, this is number 343, Nürburgring package not fitted.', expect: 'allow' },
  { text: 'The NSX NA1 timing belt is due every 90k miles or 7 years, was it done?', expect: 'allow' },
  { text: 'Front rotors measure 32.4 mm, minimum is 32 mm per the workshop manual page 117.', expect: 'allow' },
  { text: 'Is the 6.5L V12 in the SVJ the same block as the Aventador S? 770 vs 740 CV.', expect: 'allow' },
  { text: "I'm in London, could someone do a viewing on Saturday 10am? Happy to pay the inspection fee through the site.", expect: 'allow' },
  { text: 'Price history: listed at $189,500 in June, reduced to $179,900, now $174,000 — any room?', expect: 'allow' },
  { text: 'The service was done on 2023-11-08 at 41,250 km, invoice #10234, oil and filters.', expect: 'allow' },
  { text: 'Sold my 930 to a collector in Sydney in 2016; this 964 Turbo 3.6 is the replacement.', expect: 'allow' },
  { text: "What's appealing about the 500E is that Porsche assembled parts of it in Zuffenhausen, 1991-1995.", expect: 'allow' },
  { text: 'Clutch wear at 65% per the PIWIS readout from 12.01.2024; replacement quoted €3,900.', expect: 'allow' },
  { text: 'Do the 16" Fuchs come with it? Mine were 7J and 8J with 1985 date stamps.', expect: 'allow' },
  { text: 'Mine made 503 bhp and 498 Nm on the dyno sheet, the 4.0-litre in this one should be close.', expect: 'allow' },
  { text: 'Over-revs in range 1 and 2: 4 and 0, range 3: none. Read at 28,400 miles on 8 May 2023.', expect: 'allow' },
  { text: 'Window sticker: base $161,100, options total $38,470, MSRP $199,570 before destination.', expect: 'allow' },
  { text: 'How many keys? Two, plus the original leather pouch, the 2 books and the tool kit?', expect: 'allow' },
  { text: 'Collection from Monaco on 4 July works; the transporter is booked for 9:00 and arrives 17:30.', expect: 'allow' },
];

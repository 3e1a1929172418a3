/**
 * A service invoice drawn as a one-page PDF, for the sample catalogue's service records: made
 * here, so the seed needs nothing from outside.
 */
export async function sampleInvoicePdf(invoice: { number: string; shop: string; date: string; vehicle: string; vin: string; mileage: number; work: string; cost: number }): Promise<Buffer> {
  // Loaded only when a catalogue is seeded, not at every start.
  const { PDFDocument, StandardFonts, rgb } = await import('@cantoo/pdf-lib');
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${invoice.shop} invoice ${invoice.number}`);
  pdf.setCreator('LuxeMotors sample catalogue');
  const page = pdf.addPage([612, 792]);
  const [regular, bold] = await Promise.all([pdf.embedFont(StandardFonts.Helvetica), pdf.embedFont(StandardFonts.HelveticaBold)]);
  const ink = rgb(0.12, 0.12, 0.14);
  const line = (text: string, y: number, options: { size?: number; font?: typeof regular; x?: number } = {}) =>
    page.drawText(text, { x: options.x ?? 56, y, size: options.size ?? 11, font: options.font ?? regular, color: ink });
  line(invoice.shop, 720, { size: 20, font: bold });
  line('Service invoice', 696, { size: 13 });
  line(`Invoice ${invoice.number}`, 660);
  line(`Date ${invoice.date}`, 644);
  line(`Vehicle ${invoice.vehicle}`, 612, { font: bold });
  line(`VIN ${invoice.vin}`, 596);
  line(`Odometer ${invoice.mileage.toLocaleString('en-US')} mi`, 580);
  page.drawLine({ start: { x: 56, y: 560 }, end: { x: 556, y: 560 }, thickness: 0.8, color: ink });
  line('Work performed', 536, { font: bold });
  // Long descriptions wrap at about 80 characters.
  const words = invoice.work.split(' ');
  let current = '';
  let y = 516;
  for (const word of words) {
    if (`${current} ${word}`.trim().length > 80) {
      line(current, y);
      y -= 16;
      current = word;
    } else current = `${current} ${word}`.trim();
  }
  if (current) line(current, y);
  line(`Total ${invoice.cost === 0 ? 'covered by the maintenance plan' : `$${invoice.cost.toLocaleString('en-US')}`}`, y - 40, { font: bold });
  return Buffer.from(await pdf.save());
}

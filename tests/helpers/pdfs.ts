import { PDFDocument, PDFName, PDFString, StandardFonts, rgb } from '@cantoo/pdf-lib';

/**
 * PDFs made on the spot for the document tests: a plain invoice, and each kind the server must
 * refuse (script, automatic action, launch action, attachment, encryption, truncation).
 */

/** A one-page service invoice; `padTo` pads it with an uncompressed stream to about that many bytes. */
export async function invoicePdf(options: { title?: string; padTo?: number } = {}): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText(options.title ?? 'Service invoice', { x: 50, y: 780, size: 20, font, color: rgb(0.1, 0.1, 0.1) });
  page.drawText('Annual service, brake fluid, cabin filter: $1,450', { x: 50, y: 740, size: 12, font });
  if (options.padTo) {
    // Filler a real scan would bring: a large image-like stream the page never draws.
    const filler = Buffer.alloc(options.padTo, 0x41);
    pdf.context.register(pdf.context.stream(filler));
  }
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

async function withDocument(change: (pdf: PDFDocument) => void | Promise<void>): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.addPage([595, 842]);
  await change(pdf);
  return Buffer.from(await pdf.save());
}

export const pdfWithJavaScript = () => withDocument((pdf) => pdf.addJavaScript('greet', 'app.alert("hello")'));

export const pdfWithOpenAction = () =>
  withDocument((pdf) => {
    const page = pdf.getPage(0);
    pdf.catalog.set(PDFName.of('OpenAction'), pdf.context.obj([page.ref, PDFName.of('Fit')]));
  });

export const pdfWithLaunchAction = () =>
  withDocument((pdf) => {
    const action = pdf.context.obj({ S: 'Launch', F: PDFString.of('calc.exe') });
    const link = pdf.context.register(pdf.context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 0, 100, 100], A: action }));
    pdf.getPage(0).node.set(PDFName.of('Annots'), pdf.context.obj([link]));
  });

export const pdfWithEmbeddedFile = () => withDocument(async (pdf) => pdf.attach(Buffer.from('hidden payload'), 'payload.txt', { mimeType: 'text/plain' }));

export const encryptedPdf = () => withDocument((pdf) => pdf.encrypt({ userPassword: 'secret', ownerPassword: 'owner' }));

/** The first half of an invoice: the end of the file is missing. */
export async function truncatedPdf(): Promise<Buffer> {
  const whole = await invoicePdf();
  return whole.subarray(0, Math.floor(whole.length / 2));
}

/** A file that starts like a PDF and then is not one. */
export const brokenPdf = () => Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R\nthis is not a pdf\n%%EOF\n');

/** A Windows executable's first bytes, renamed .pdf by whoever sends it. */
export const executable = () => Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00', 'latin1'), Buffer.alloc(512, 0)]);

export const htmlPage = () => Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');

/**
 * A scanned service history of about `bytes`: pages that each carry a JPEG scan and a line of
 * text, as a shop's or a scanner's PDF does (many objects, image streams, a page tree).
 */
export async function scannedHistoryPdf(bytes: number, scan: Buffer): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const pages = Math.max(1, Math.round(bytes / scan.length));
  for (let i = 0; i < pages; i++) {
    // A scan of its own per page (a copy of the bytes), as each scanned page is.
    const image = await pdf.embedJpg(scan);
    const page = pdf.addPage([612, 792]);
    page.drawImage(image, { x: 36, y: 96, width: 540, height: 660 });
    page.drawText(`Service history, page ${i + 1} of ${pages}`, { x: 36, y: 60, size: 10, font });
  }
  return Buffer.from(await pdf.save());
}

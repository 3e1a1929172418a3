import type * as PdfLibModule from '@cantoo/pdf-lib';
import { AppError } from '../../lib/errors.ts';
import { DOCUMENT_TYPE_NAMES, DOSSIER_LIMITS, type DocumentType } from '@common/dossier.ts';
import { PHOTO_LIMITS } from '@common/listing.ts';
import { ErrorCode } from '@common/error-codes.ts';

/**
 * What a listing document must be before it is stored: a PDF, JPEG or PNG judged by its
 * content; a PDF that parses completely (with @cantoo/pdf-lib, the maintained fork of pdf-lib),
 * is not encrypted and carries no JavaScript, automatic or launch actions and no attached
 * files; an image decoded and encoded again, which leaves its metadata (location, camera,
 * owner) behind.
 */

type PdfLib = typeof PdfLibModule;
let pdfLib: Promise<PdfLib> | null = null;
/**
 * The PDF parser loads on the first document checked, not at start: it is the heaviest package
 * the server uses (0.2–0.6 s to load here), and most processes never check a document.
 */
const loadPdfLib = (): Promise<PdfLib> => (pdfLib ??= import('@cantoo/pdf-lib'));

/** What a file is, judged by its first bytes (never by its name or declared type). */
export function sniffDocumentType(head: Uint8Array): DocumentType | null {
  const at = (offset: number, bytes: number[]) => bytes.every((b, i) => head[offset + i] === b);
  if (at(0, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf'; // %PDF-
  if (at(0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  return null;
}

export interface CheckedDocument {
  contentType: DocumentType;
  body: Buffer;
}

const refused = (why: string) => new AppError(ErrorCode.INVALID_DOCUMENT, `This PDF cannot be accepted: ${why}`, [{ field: 'file', message: why }]);

/** Judges `file` and answers what is stored: the PDF as sent, or the image encoded again. */
export async function checkDocument(file: Buffer): Promise<CheckedDocument> {
  if (file.length > DOSSIER_LIMITS.maxDocumentBytes) throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, `Documents can be at most ${DOSSIER_LIMITS.maxDocumentBytes / 1024 / 1024} MB`);
  const contentType = sniffDocumentType(file);
  if (!contentType) throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, `Documents must be ${DOCUMENT_TYPE_NAMES} files`);
  if (contentType === 'application/pdf') {
    await checkPdf(file);
    return { contentType, body: file };
  }
  return { contentType, body: await reencodeImage(file, contentType) };
}

/** Dictionary keys that make a PDF act on its own: scripts, actions run on opening or on events, attachments. */
const ACTIVE_KEYS = new Map([
  ['JS', 'it carries JavaScript'],
  ['JavaScript', 'it carries JavaScript'],
  ['OpenAction', 'it runs an action when opened'],
  ['AA', 'it runs actions on events'],
  ['EmbeddedFiles', 'it carries embedded files'],
  ['EF', 'it carries embedded files'],
  ['RichMedia', 'it carries embedded media'],
  ['XFA', 'it carries an XFA form'],
]);
/** Names that, as a value (an action's /S, an object's /Type), mean the same. */
const ACTIVE_NAMES = new Map([
  ['JavaScript', 'it carries JavaScript'],
  ['Launch', 'it carries a launch action'],
  ['EmbeddedFile', 'it carries embedded files'],
  ['ImportData', 'it imports data'],
  ['RichMediaExecute', 'it carries embedded media'],
]);

/** Refuses (400) a PDF that is encrypted, broken or active. */
export async function checkPdf(file: Buffer): Promise<void> {
  // A complete file ends with its end-of-file marker (a little trailing junk is common and harmless).
  if (!file.subarray(Math.max(0, file.length - 1024)).toString('latin1').includes('%%EOF')) throw refused('it is incomplete (truncated)');
  const lib = await loadPdfLib();
  let pdf: PdfLibModule.PDFDocument;
  try {
    pdf = await lib.PDFDocument.load(file, { throwOnInvalidObject: true, updateMetadata: false });
  } catch (error) {
    if (error instanceof lib.EncryptedPDFError || (await isEncrypted(lib, file))) throw refused('it is encrypted');
    throw refused('it is damaged and could not be read');
  }
  if (pdf.isEncrypted) throw refused('it is encrypted');
  let pages: number;
  try {
    pages = pdf.getPageCount();
  } catch {
    throw refused('its pages could not be read');
  }
  if (pages < 1) throw refused('it has no pages');
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    const why = activeContent(lib, object, 0);
    if (why) throw refused(why);
  }
}

/** An encrypted file's objects do not parse as plain ones: read it leniently to tell that from damage. */
async function isEncrypted(lib: PdfLib, file: Buffer): Promise<boolean> {
  try {
    return (await lib.PDFDocument.load(file, { ignoreEncryption: true, updateMetadata: false })).isEncrypted;
  } catch {
    return false;
  }
}

/** Why `object` (or what it holds directly) makes the document active, if it does. */
function activeContent(lib: PdfLib, object: PdfLibModule.PDFObject, depth: number): string | null {
  if (depth > 32) return null;
  const dict = object instanceof lib.PDFStream ? object.dict : object;
  if (dict instanceof lib.PDFDict) {
    for (const [key, value] of dict.entries()) {
      const keyWhy = ACTIVE_KEYS.get(key.decodeText());
      if (keyWhy) return keyWhy;
      const why = activeContent(lib, value, depth + 1);
      if (why) return why;
    }
    return null;
  }
  if (object instanceof lib.PDFArray) {
    for (const value of object.asArray()) {
      const why = activeContent(lib, value, depth + 1);
      if (why) return why;
    }
    return null;
  }
  if (object instanceof lib.PDFName) return ACTIVE_NAMES.get(object.decodeText()) ?? null;
  return null;
}

/** Decodes the image (with the photos' pixel limit) and encodes it again in its own format, without metadata. */
async function reencodeImage(file: Buffer, contentType: 'image/jpeg' | 'image/png'): Promise<Buffer> {
  // Loaded when needed, as for photos: most starts process no image.
  const { default: sharp } = await import('sharp');
  try {
    const image = sharp(file, { limitInputPixels: PHOTO_LIMITS.maxMegapixels * 1_000_000, failOn: 'error' }).rotate();
    return await (contentType === 'image/png' ? image.png() : image.jpeg({ quality: 90, mozjpeg: true })).toBuffer();
  } catch {
    throw new AppError(ErrorCode.INVALID_DOCUMENT, 'This image could not be read. Try another file.', [{ field: 'file', message: 'the image could not be read' }]);
  }
}

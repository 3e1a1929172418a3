import { describe, expect, it } from 'vitest';
import { safeDocumentName } from './dossier.ts';

describe('safeDocumentName', () => {
  it('keeps the last part of a path, plain characters and the real ending', () => {
    expect(safeDocumentName('../../x.pdf', 'application/pdf')).toBe('x.pdf');
    expect(safeDocumentName('..\\..\\windows\\evil.exe', 'application/pdf')).toBe('evil.pdf');
    expect(safeDocumentName('Service invoice 2024 (Porsche).PDF', 'application/pdf')).toBe('Service_invoice_2024_Porsche.pdf');
    expect(safeDocumentName('.htaccess', 'image/png')).toBe('document.png');
    expect(safeDocumentName('"quote";.jpg', 'image/jpeg')).toBe('quote.jpg');
    expect(safeDocumentName(undefined, 'image/jpeg')).toBe('document.jpg');
  });
});

import { describe, expect, it } from 'vitest';
import { PHOTO_LIMITS } from '@common/listing.ts';
import { formatFileSize, moveItem, movedOrder, photoFileProblem, removeItem, sortPickedFiles } from './photo-list.ts';

const file = (name: string, type = 'image/jpeg', size = 1_000) => ({ name, type, size });

describe('moveItem', () => {
  it('moves an item earlier or later and keeps the rest in order', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 2, 0)).toEqual(['c', 'a', 'b', 'd']);
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 3)).toEqual(['b', 'c', 'd', 'a']);
    expect(moveItem(['a', 'b', 'c'], 1, 2)).toEqual(['a', 'c', 'b']);
  });

  it('clamps positions and returns the same list when nothing moves', () => {
    const list = ['a', 'b'];
    expect(moveItem(list, 1, 1)).toBe(list);
    expect(moveItem(list, 0, 0)).toBe(list);
    expect(moveItem(list, 1, -5)).toEqual(['b', 'a']);
    expect(moveItem(list, 0, 99)).toEqual(['b', 'a']);
    expect(moveItem([], 0, 1)).toEqual([]);
  });

  it('gives the gallery order the server expects (old positions, new first photo first)', () => {
    expect(movedOrder(3, 2, 0)).toEqual([2, 0, 1]);
    expect(movedOrder(3, 0, 1)).toEqual([1, 0, 2]);
    expect(movedOrder(1, 0, 0)).toEqual([0]);
  });

  it('removes by position', () => {
    expect(removeItem(['a', 'b', 'c'], 1)).toEqual(['a', 'c']);
    const list = ['a'];
    expect(removeItem(list, 3)).toBe(list);
  });
});

describe('picked files', () => {
  it('takes JPEG, PNG and WebP up to 10 MB, and judges an unknown type by its name', () => {
    expect(photoFileProblem(file('a.jpg'))).toBeUndefined();
    expect(photoFileProblem(file('a.png', 'image/png'))).toBeUndefined();
    expect(photoFileProblem(file('a.webp', 'image/webp'))).toBeUndefined();
    expect(photoFileProblem(file('a.JPEG', ''))).toBeUndefined();
    // A text file named .jpg looks like a JPEG here; the server judges its content.
    expect(photoFileProblem(file('notes.jpg', 'image/jpeg'))).toBeUndefined();
    expect(photoFileProblem(file('a.heic', 'image/heic'))).toBe('a.heic is not a JPEG, PNG or WebP photo');
    expect(photoFileProblem(file('a.txt', 'text/plain'))).toBe('a.txt is not a JPEG, PNG or WebP photo');
    expect(photoFileProblem(file('big.jpg', 'image/jpeg', PHOTO_LIMITS.maxBytes + 1))).toBe('big.jpg is 10 MB. Photos can be at most 10 MB');
    expect(photoFileProblem(file('max.jpg', 'image/jpeg', PHOTO_LIMITS.maxBytes))).toBeUndefined();
    expect(photoFileProblem(file('empty.jpg', 'image/jpeg', 0))).toBe('empty.jpg is empty');
  });

  it('keeps a listing at 20 photos and says how many were left out', () => {
    const files = Array.from({ length: 5 }, (_, i) => file(`p${i}.jpg`));
    const sorted = sortPickedFiles([...files, file('doc.pdf', 'application/pdf')], 17);
    expect(sorted.accepted.map((f) => f.name)).toEqual(['p0.jpg', 'p1.jpg', 'p2.jpg']);
    expect(sorted.problems).toEqual(['doc.pdf is not a JPEG, PNG or WebP photo', 'A listing can have at most 20 photos: 2 photos were not added']);
    expect(sortPickedFiles([file('x.jpg')], 20).problems).toEqual(['A listing can have at most 20 photos: 1 photo was not added']);
  });

  it('formats sizes', () => {
    expect(formatFileSize(500)).toBe('1 KB');
    expect(formatFileSize(820 * 1024)).toBe('820 KB');
    expect(formatFileSize(1.44 * 1024 * 1024)).toBe('1.4 MB');
  });
});

/** "Ann Marie Smith" → "AS"; "cher" → "C"; nothing usable → "?". For avatars without a photo. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  if (!first) return '?';
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  const letter = (word: string | undefined) => (word ? ([...word][0] ?? '') : '');
  return (letter(first) + letter(last)).toLocaleUpperCase();
}

/**
 * How many parts of the page use each thing (a car room, an order): the first to open it and the
 * last to close it are the ones that start and stop it.
 */
export class UseCounts<K> {
  private readonly counts = new Map<K, number>();

  /** One more user of `key`; true for the first. */
  open(key: K): boolean {
    const count = this.counts.get(key) ?? 0;
    this.counts.set(key, count + 1);
    return count === 0;
  }

  /** One user fewer; true for the last (then `key` is no longer in use). */
  close(key: K): boolean {
    const count = this.counts.get(key) ?? 0;
    if (count > 1) {
      this.counts.set(key, count - 1);
      return false;
    }
    this.counts.delete(key);
    return true;
  }

  has(key: K): boolean {
    return this.counts.has(key);
  }

  /** Everything in use now. */
  keys(): IterableIterator<K> {
    return this.counts.keys();
  }
}

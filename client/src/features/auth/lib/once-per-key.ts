/**
 * Memoises an async call per key for the life of the page, so a single-use operation (such as
 * spending an email verification token) runs once even when React StrictMode mounts, unmounts
 * and remounts the screen that starts it. Every caller for the key shares the one promise.
 */
export function oncePerKey<T>(run: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const started = new Map<string, Promise<T>>();
  return (key) => {
    let promise = started.get(key);
    if (!promise) {
      promise = run(key);
      started.set(key, promise);
    }
    return promise;
  };
}

/**
 * This process's changes to what the catalogue's lists show (an index write, a counted view or
 * download): a kept reply made before the last change is made again. Changes another instance
 * makes reach this one's kept replies within their time to live, as they reach HTTP caches.
 */
let changes = 0;

export function catalogueChanged(): void {
  changes += 1;
}

export function catalogueChanges(): number {
  return changes;
}

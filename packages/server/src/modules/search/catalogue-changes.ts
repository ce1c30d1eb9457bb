/**
 * This process's changes to what the catalogue's replies show: index writes (what is found) and
 * counted views and downloads (the numbers beside it). A kept reply made before such a change is
 * made again. Changes another instance makes reach this one's kept replies within their time to
 * live, as they reach HTTP caches (the replies say `max-age=30`).
 */
let indexChanges = 0;
let countChanges = 0;

export function catalogueChanged(what: 'index' | 'counts'): void {
  if (what === 'index') indexChanges += 1;
  else countChanges += 1;
}

/** Index writes so far: what a kept search reply follows. */
export function indexChangesSoFar(): number {
  return indexChanges;
}

/** Index writes and counts so far: what the home page's kept lists follow. */
export function catalogueChangesSoFar(): number {
  return indexChanges + countChanges;
}

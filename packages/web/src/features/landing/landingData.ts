import { useEffect, useRef, useState, type RefObject } from 'react';
import type { MetadataRecord } from '@portal/shared';

export { textVersions } from '@portal/shared';

export function hasBox(record: Pick<MetadataRecord, 'west' | 'south' | 'east' | 'north'>): boolean {
  return record.west !== null && record.south !== null && record.east !== null && record.north !== null;
}

/** A DOI as its resolver's address, whether it was stored bare (`10.x/y`), as `doi:` or as a link. */
export function doiUrl(doi: string): string {
  const bare = doi.trim().replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*)/i, '');
  return `https://doi.org/${bare}`;
}

/** True once the element comes within a screen of the viewport (then stays true): for what loads late, like the map. */
export function useNearViewport<T extends Element>(): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || near) return;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && setNear(true), { rootMargin: '100% 0px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near];
}

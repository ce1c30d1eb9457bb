import { useEffect, useRef, useState, type RefObject } from 'react';
import type { Language, MetadataRecord } from '@portal/shared';

/** The record's title and abstract in each language: its own fields in its language, its translation in the other. */
export function textVersions(record: MetadataRecord): Record<Language, { title: string; description: string }> {
  const other: Language = record.language === 'en' ? 'zh-hans' : 'en';
  const translation = record.translations?.find((version) => version.language === other);
  return {
    [record.language]: { title: record.title, description: record.description },
    [other]: { title: translation?.title ?? '', description: translation?.description ?? '' },
  } as Record<Language, { title: string; description: string }>;
}

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
  // Without IntersectionObserver (an old browser) it is near at once.
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (!element || near) return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && setNear(true), { rootMargin: '100% 0px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near];
}

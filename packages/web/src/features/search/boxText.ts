import type { TFunction } from 'i18next';
import type { BBox } from '@portal/shared/domain/search';

const number = (value: number) => String(Math.round(Math.abs(value) * 100) / 100);

function longitude(t: TFunction, value: number): string {
  if (value === 0 || Math.abs(value) === 180) return `${number(value)}°`;
  return t(value > 0 ? 'search.ui.map.degreesEast' : 'search.ui.map.degreesWest', { value: number(value) });
}

function latitude(t: TFunction, value: number): string {
  if (value === 0) return '0°';
  return t(value > 0 ? 'search.ui.map.degreesNorth' : 'search.ui.map.degreesSouth', { value: number(value) });
}

/** A box in words: "170°E to 170°W, 80°S to 70°S" (west to east, so across 180° when west is east of east). */
export function describeBox(t: TFunction, box: BBox): string {
  if (box.west === -180 && box.east === 180) {
    return t('search.ui.map.boxLatitudes', { south: latitude(t, box.south), north: latitude(t, box.north) });
  }
  return t('search.ui.map.boxRange', {
    west: longitude(t, box.west),
    east: longitude(t, box.east),
    south: latitude(t, box.south),
    north: latitude(t, box.north),
  });
}

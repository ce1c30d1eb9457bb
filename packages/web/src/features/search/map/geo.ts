import type { BBox } from '@portal/shared/domain/search';

/**
 * Geometry of the search map without OpenLayers: geographic boxes to rings that curve as they
 * should in a polar projection, and a rectangle drawn in a map's projection back to the
 * geographic box the search takes (across the 180th meridian, or around a pole).
 */

/** [x, y] in a map projection, or [longitude, latitude] in degrees. */
export type Coordinate = [number, number];

export interface Rectangle {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Longitude in [-180, 180). */
export function normalizeLongitude(lon: number): number {
  const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180;
  return Object.is(wrapped, -0) ? 0 : wrapped;
}

/**
 * The closed ring of a box in longitude and latitude, a point at least every `step` degrees, so
 * that its parallels curve in a polar projection. A box across the 180th meridian runs east past
 * 180 (east + 360), which every projection of the map draws as one piece.
 */
export function boxRing(box: BBox, step = 1): Coordinate[] {
  const east = box.west > box.east ? box.east + 360 : box.east;
  const along = (from: number, to: number) => {
    const n = Math.max(1, Math.ceil(Math.abs(to - from) / step));
    return Array.from({ length: n }, (_, i) => from + ((to - from) * i) / n);
  };
  return [
    ...along(box.west, east).map((lon): Coordinate => [lon, box.south]),
    ...along(box.south, box.north).map((lat): Coordinate => [east, lat]),
    ...along(east, box.west).map((lon): Coordinate => [lon, box.north]),
    ...along(box.north, box.south).map((lat): Coordinate => [box.west, lat]),
    [box.west, box.south],
  ];
}

/**
 * The rings of a box as a view draws it. A box of every longitude in a polar view is a disc around
 * the pole (or a band, with the ring nearer the pole as its hole), without the seam that its ring
 * along the 180th meridian would draw; any other box is its one ring.
 */
export function boxRings(box: BBox, pole: { north: boolean } | undefined, step = 1): Coordinate[][] {
  if (!pole || box.west !== -180 || box.east !== 180) return [boxRing(box, step)];
  const [outer, inner] = pole.north ? [box.south, box.north] : [box.north, box.south];
  const rings = [parallel(outer, step)];
  if (Math.abs(inner) < 90) rings.push(parallel(inner, step).reverse());
  return rings;
}

/** A line of latitude or longitude of the graticule, a point every `step` degrees. */
export function parallel(lat: number, step = 2): Coordinate[] {
  return Array.from({ length: Math.round(360 / step) + 1 }, (_, i): Coordinate => [-180 + i * step, lat]);
}
export function meridian(lon: number, fromLat: number, toLat: number, step = 2): Coordinate[] {
  const n = Math.max(1, Math.ceil(Math.abs(toLat - fromLat) / step));
  return Array.from({ length: n + 1 }, (_, i): Coordinate => [lon, fromLat + ((toLat - fromLat) * i) / n]);
}

/** The shortest longitude interval [west, east] that holds every longitude given; west > east across 180. */
export function coveringLongitudes(longitudes: number[]): { west: number; east: number } {
  const sorted = [...new Set(longitudes.map(normalizeLongitude))].sort((a, b) => a - b);
  if (sorted.length === 0) return { west: -180, east: 180 };
  // The interval is the circle less its largest gap between neighbouring longitudes.
  let gap = sorted[0]! + 360 - sorted.at(-1)!;
  let west = sorted[0]!;
  let east = sorted.at(-1)!;
  for (let i = 1; i < sorted.length; i++) {
    const between = sorted[i]! - sorted[i - 1]!;
    if (between > gap) {
      gap = between;
      west = sorted[i]!;
      east = sorted[i - 1]!;
    }
  }
  // -180 and 180 are one meridian: a box ending there ends at 180.
  if (west > east && east === -180) east = 180;
  return { west, east };
}

export interface RectangleOptions {
  /** The map's projection to longitude and latitude (degrees). */
  toLonLat: (point: Coordinate) => Coordinate;
  /** A polar view's pole, projected: a rectangle holding it gives every longitude up to that pole. */
  pole?: { point: Coordinate; north: boolean };
  /** Width of one turn of the earth in a global view's units: a rectangle as wide takes every longitude. */
  worldWidth?: number;
  /** Points taken along each side. */
  samples?: number;
}

const clampLatitude = (lat: number) => Math.min(90, Math.max(-90, lat));

/**
 * The geographic box of a rectangle drawn on the map, in the rectangle's projection. Its sides are
 * followed densely (with, on each, the point nearest the pole, where a polar view's latitude is
 * highest) and taken to longitude and latitude. A rectangle around the pole holds every longitude,
 * from its lowest latitude to the pole (from the pole to its highest, in the south); otherwise the
 * longitudes are the shortest interval holding all of the sides', which may cross the 180th meridian.
 */
export function rectangleToBBox(rect: Rectangle, options: RectangleOptions): BBox {
  const samples = options.samples ?? 64;
  const corners: Coordinate[] = [
    [rect.minX, rect.minY],
    [rect.maxX, rect.minY],
    [rect.maxX, rect.maxY],
    [rect.minX, rect.maxY],
  ];
  const points: Coordinate[] = [];
  for (let side = 0; side < 4; side++) {
    const [x0, y0] = corners[side]!;
    const [x1, y1] = corners[(side + 1) % 4]!;
    for (let i = 0; i < samples; i++) points.push([x0 + ((x1 - x0) * i) / samples, y0 + ((y1 - y0) * i) / samples]);
    if (options.pole) {
      // The side's point nearest the pole (the sides are axis-parallel: clamp the pole onto it).
      const [px, py] = options.pole.point;
      points.push([Math.min(Math.max(px, Math.min(x0, x1)), Math.max(x0, x1)), Math.min(Math.max(py, Math.min(y0, y1)), Math.max(y0, y1))]);
    }
  }
  const lonLats = points.map(options.toLonLat).filter(([lon, lat]) => Number.isFinite(lon) && Number.isFinite(lat));
  const lats = lonLats.map(([, lat]) => clampLatitude(lat));
  const south = Math.min(...lats);
  const north = Math.max(...lats);

  if (options.pole) {
    const [px, py] = options.pole.point;
    const holdsPole = px >= rect.minX && px <= rect.maxX && py >= rect.minY && py <= rect.maxY;
    if (holdsPole) return options.pole.north ? { west: -180, south, east: 180, north: 90 } : { west: -180, south: -90, east: 180, north };
  }
  if (options.worldWidth !== undefined && rect.maxX - rect.minX >= options.worldWidth) return { west: -180, south, east: 180, north };
  return { ...coveringLongitudes(lonLats.map(([lon]) => lon)), south, north };
}

/**
 * The part of a box a polar view draws: cut at `limit`, the latitude past which the view draws
 * nothing (south of it for the Arctic, north of it for the Antarctic); null when none is left.
 */
export function boxWithin(box: BBox, pole: { north: boolean } | undefined, limit: number): BBox | null {
  if (!pole) return box;
  if (pole.north) return box.north <= limit ? null : { ...box, south: Math.max(box.south, limit) };
  return box.south >= limit ? null : { ...box, north: Math.min(box.north, limit) };
}

/** Graticule lines of a view, in longitude and latitude: every 30° of longitude, 10° (polar) or 30° of latitude. */
export function graticule(pole: { north: boolean } | undefined): Coordinate[][] {
  const lines: Coordinate[][] = [];
  if (!pole) {
    for (let lat = -60; lat <= 60; lat += 30) lines.push(parallel(lat));
    for (let lon = -180; lon <= 180; lon += 30) lines.push(meridian(lon, -90, 90));
    return lines;
  }
  const sign = pole.north ? 1 : -1;
  for (let lat = 80; lat >= 30; lat -= 10) lines.push(parallel(sign * lat));
  for (let lon = -180; lon < 180; lon += 30) lines.push(meridian(lon, sign * 30, sign * 90));
  return lines;
}

/**
 * The view that shows a box best: a polar view when the whole box lies within its reach (the
 * Arctic from 45°N, the Antarctic up to 50°S), the world otherwise.
 */
export function viewForBox(box: BBox, views: Record<'arctic' | 'antarctic', { reach: number }>): 'global' | 'arctic' | 'antarctic' {
  if (box.south >= views.arctic.reach) return 'arctic';
  if (box.north <= views.antarctic.reach) return 'antarctic';
  return 'global';
}

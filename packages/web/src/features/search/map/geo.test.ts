import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { boxRing, boxRings, coveringLongitudes, normalizeLongitude, rectangleToBBox, viewForBox, type Coordinate, type Rectangle } from './geo';
import { PROJECTIONS } from './projections';

const arctic = proj4('EPSG:4326', PROJECTIONS.arctic.definition);
const antarctic = proj4('EPSG:4326', PROJECTIONS.antarctic.definition);

/** A rectangle in a polar projection around points given in longitude and latitude. */
function around(projection: proj4.Converter, points: Coordinate[]): Rectangle {
  const xy = points.map((p) => projection.forward(p));
  return { minX: Math.min(...xy.map(([x]) => x!)), minY: Math.min(...xy.map(([, y]) => y!)), maxX: Math.max(...xy.map(([x]) => x!)), maxY: Math.max(...xy.map(([, y]) => y!)) };
}

const polar = (projection: proj4.Converter, north: boolean) => ({
  toLonLat: (p: Coordinate) => projection.inverse(p) as Coordinate,
  pole: { point: projection.forward([0, north ? 90 : -90]) as Coordinate, north },
});

/** Whether a point lies in a box (west > east: across the 180th meridian). */
function holds(box: { west: number; south: number; east: number; north: number }, [lon, lat]: Coordinate) {
  const inLongitude = box.west <= box.east ? lon >= box.west && lon <= box.east : lon >= box.west || lon <= box.east;
  return inLongitude && lat >= box.south && lat <= box.north;
}

describe('normalizeLongitude', () => {
  it('wraps into [-180, 180)', () => {
    expect(normalizeLongitude(190)).toBe(-170);
    expect(normalizeLongitude(-190)).toBe(170);
    expect(normalizeLongitude(180)).toBe(-180);
    expect(normalizeLongitude(360)).toBe(0);
    expect(normalizeLongitude(45)).toBe(45);
  });
});

describe('coveringLongitudes', () => {
  it('is the plain interval when the longitudes do not wrap', () => {
    expect(coveringLongitudes([10, 40, 20])).toEqual({ west: 10, east: 40 });
  });

  it('crosses the 180th meridian when that is shorter (west > east)', () => {
    expect(coveringLongitudes([170, 175, -175, -170])).toEqual({ west: 170, east: -170 });
  });

  it('ends at 180, not -180, a box that reaches the meridian from the west', () => {
    expect(coveringLongitudes([160, 170, 180])).toEqual({ west: 160, east: 180 });
  });
});

describe('boxRing', () => {
  it('is closed and follows the parallels at least every degree', () => {
    const ring = boxRing({ west: 10, south: 20, east: 40, north: 30 });
    expect(ring[0]).toEqual(ring.at(-1));
    expect(ring.filter(([, lat]) => lat === 20).length).toBeGreaterThanOrEqual(30);
  });

  it('runs east past 180 for a box across the 180th meridian', () => {
    const ring = boxRing({ west: 170, south: -80, east: -170, north: -70 });
    const longitudes = ring.map(([lon]) => lon);
    expect(Math.min(...longitudes)).toBe(170);
    expect(Math.max(...longitudes)).toBe(190);
  });
});

describe('boxRings', () => {
  it('draws a box of every longitude around a pole as a disc, without a seam to the pole', () => {
    const rings = boxRings({ west: -180, south: -90, east: 180, north: -65 }, { north: false });
    expect(rings).toHaveLength(1);
    expect(rings[0]!.every(([, lat]) => lat === -65)).toBe(true);
  });

  it('draws a band of every longitude as a ring with a hole', () => {
    const rings = boxRings({ west: -180, south: 60, east: 180, north: 80 }, { north: true });
    expect(rings.map((ring) => ring[0]![1])).toEqual([60, 80]);
  });

  it('keeps the plain ring in the world view and for other boxes', () => {
    expect(boxRings({ west: -180, south: -90, east: 180, north: -65 }, undefined)).toHaveLength(1);
    expect(boxRings({ west: 160, south: -85, east: -150, north: -72 }, { north: false })).toEqual([boxRing({ west: 160, south: -85, east: -150, north: -72 })]);
  });
});

describe('rectangleToBBox', () => {
  describe('in the global view (EPSG:4326)', () => {
    const global = { toLonLat: (p: Coordinate) => p, worldWidth: 360 };

    it('is the rectangle itself', () => {
      expect(rectangleToBBox({ minX: 70, minY: 25, maxX: 105, maxY: 40 }, global)).toEqual({ west: 70, south: 25, east: 105, north: 40 });
    });

    it('crosses the 180th meridian for a rectangle drawn over it on the wrapped map', () => {
      expect(rectangleToBBox({ minX: 170, minY: -20, maxX: 200, maxY: 10 }, global)).toEqual({ west: 170, south: -20, east: -160, north: 10 });
    });

    it('takes every longitude, and no latitude beyond the poles, for a rectangle larger than the world', () => {
      expect(rectangleToBBox({ minX: -300, minY: -120, maxX: 300, maxY: 100 }, global)).toEqual({ west: -180, south: -90, east: 180, north: 90 });
    });
  });

  describe('in the Antarctic view (EPSG:3031)', () => {
    const options = polar(antarctic, false);

    it('a rectangle around the South Pole takes every longitude from the pole up to its highest latitude', () => {
      const rect = around(antarctic, [
        [0, -75],
        [90, -75],
        [180, -75],
        [-90, -75],
      ]);
      const box = rectangleToBBox(rect, options);
      expect(box).toMatchObject({ west: -180, south: -90, east: 180 });
      // Its highest latitude is at its corners, beyond the -75 circle it was drawn around.
      expect(box.north).toBeCloseTo(antarctic.inverse([rect.maxX, rect.maxY])[1]!, 6);
      expect(box.north).toBeGreaterThan(-75);
      for (const point of [
        [0, -89],
        [179, -80],
        [-120, -76],
      ] as Coordinate[])
        expect(holds(box, point)).toBe(true);
      expect(holds(box, [90, -30])).toBe(false);
    });

    it('a rectangle over the Ross Sea crosses the 180th meridian (west > east) and holds its points only', () => {
      const rect = around(antarctic, [
        [170, -78],
        [-170, -78],
        [170, -72],
        [-170, -72],
      ]);
      const box = rectangleToBBox(rect, options);
      expect(box.west).toBeGreaterThan(box.east);
      expect(box.west).toBeGreaterThan(160);
      expect(box.west).toBeLessThanOrEqual(170);
      expect(box.east).toBeGreaterThanOrEqual(-170);
      expect(box.east).toBeLessThan(-160);
      for (const point of [
        [175, -75],
        [-175, -75],
        [180, -77],
      ] as Coordinate[])
        expect(holds(box, point)).toBe(true);
      for (const point of [
        [0, -75],
        [90, -75],
        [175, -60],
      ] as Coordinate[])
        expect(holds(box, point)).toBe(false);
    });

    it("a rectangle beside the pole takes its sides' nearest point to the pole as its southern edge", () => {
      // A rectangle whose side passes 2 degrees from the pole between two corners further away.
      const [, y] = antarctic.forward([0, -88]);
      const [x] = antarctic.forward([90, -80]);
      const box = rectangleToBBox({ minX: -x!, minY: y!, maxX: x!, maxY: y! + 500_000 }, options);
      expect(box.south).toBeCloseTo(-88, 6);
      expect(box.west).toBeLessThan(box.east);
    });
  });

  describe('in the Arctic view (EPSG:3413)', () => {
    const options = polar(arctic, true);

    it('a rectangle around the North Pole takes every longitude from its lowest latitude to the pole', () => {
      const rect = around(arctic, [
        [-45, 70],
        [45, 70],
        [135, 70],
        [-135, 70],
      ]);
      const box = rectangleToBBox(rect, options);
      expect(box).toMatchObject({ west: -180, east: 180, north: 90 });
      expect(box.south).toBeLessThan(70);
      expect(holds(box, [100, 85])).toBe(true);
    });

    it('a rectangle over the Bering Strait crosses the 180th meridian', () => {
      const rect = around(arctic, [
        [175, 64],
        [-168, 64],
        [175, 70],
        [-168, 70],
      ]);
      const box = rectangleToBBox(rect, options);
      expect(box.west).toBeGreaterThan(box.east);
      expect(holds(box, [180, 66])).toBe(true);
      expect(holds(box, [-169, 66])).toBe(true);
      expect(holds(box, [0, 66])).toBe(false);
    });

    it('a rectangle over Svalbard is a plain box around it', () => {
      const rect = around(arctic, [
        [10, 76],
        [30, 76],
        [10, 81],
        [30, 81],
      ]);
      const box = rectangleToBBox(rect, options);
      expect(box.west).toBeLessThan(box.east);
      expect(box.west).toBeLessThanOrEqual(10);
      expect(box.east).toBeGreaterThanOrEqual(30);
      expect(box.east - box.west).toBeLessThan(60);
      expect(box.north).toBeLessThan(90);
    });
  });
});

describe('viewForBox', () => {
  it('shows a box wholly within a polar view in it, any other on the world map', () => {
    expect(viewForBox({ west: -180, south: -90, east: 180, north: -65 }, PROJECTIONS)).toBe('antarctic');
    // The Ross Sea, across the 180th meridian.
    expect(viewForBox({ west: 160, south: -85, east: -150, north: -72 }, PROJECTIONS)).toBe('antarctic');
    expect(viewForBox({ west: -73, south: 60, east: -12, north: 84 }, PROJECTIONS)).toBe('arctic');
    expect(viewForBox({ west: 73, south: 26, east: 105, north: 40 }, PROJECTIONS)).toBe('global');
    // Reaching past a polar view's edge: the world.
    expect(viewForBox({ west: -60, south: -70, east: -30, north: -40 }, PROJECTIONS)).toBe('global');
    expect(viewForBox({ west: 0, south: 40, east: 30, north: 80 }, PROJECTIONS)).toBe('global');
  });
});

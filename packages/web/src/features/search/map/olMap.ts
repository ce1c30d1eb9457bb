import type { Extent } from 'ol/extent.js';
import TopoJSON from 'ol/format/TopoJSON.js';
import MultiPolygon from 'ol/geom/MultiPolygon.js';
import Polygon from 'ol/geom/Polygon.js';
import { get as getProjection, transform } from 'ol/proj.js';
import { register } from 'ol/proj/proj4.js';
import View from 'ol/View.js';
import Fill from 'ol/style/Fill.js';
import Stroke from 'ol/style/Stroke.js';
import Style from 'ol/style/Style.js';
import proj4 from 'proj4';
// Natural Earth's 1:110m land (public domain) as TopoJSON from the world-atlas package: a file of
// the build, fetched when a map opens. No tile server: the portal and its tests run offline.
import landUrl from 'world-atlas/land-110m.json?url';
import type { BBox } from '@portal/shared/domain/search';
import { MAP_VIEWS, type MapView } from '../searchUrl';
import { boxRings, boxWithin, type Coordinate } from './geo';
import { PROJECTIONS } from './projections';

/**
 * OpenLayers pieces of the portal's maps (the search map and a landing page's map of its area):
 * the projections registered with proj4, land outlines, boxes drawn as a view shows them, and the
 * view a map opens on. Loaded with a map's chunk only.
 */

for (const view of MAP_VIEWS) proj4.defs(PROJECTIONS[view].code, PROJECTIONS[view].definition);
register(proj4);

export const GEOGRAPHIC = 'EPSG:4326';

export const mapStyles = {
  land: new Style({ fill: new Fill({ color: '#f3efe6' }), stroke: new Stroke({ color: '#8a96a3', width: 0.6 }) }),
  graticule: new Style({ stroke: new Stroke({ color: 'rgba(11, 79, 138, 0.18)', width: 0.8 }) }),
  hit: new Style({ fill: new Fill({ color: 'rgba(11, 79, 138, 0.14)' }), stroke: new Stroke({ color: '#0b4f8a', width: 1.5 }) }),
  box: new Style({ fill: new Fill({ color: 'rgba(194, 65, 12, 0.08)' }), stroke: new Stroke({ color: '#c2410c', width: 2.5, lineDash: [8, 5] }) }),
};

/** Land polygons in longitude and latitude, read once. */
let landPolygons: Promise<Polygon[]> | undefined;
export function loadLand(): Promise<Polygon[]> {
  landPolygons ??= fetch(landUrl)
    .then((response) => {
      if (!response.ok) throw new Error(`land outlines: ${response.status}`);
      return response.json();
    })
    .then((topology) =>
      new TopoJSON().readFeatures(topology, { dataProjection: GEOGRAPHIC, featureProjection: GEOGRAPHIC }).flatMap((feature) => {
        const geometry = feature.getGeometry();
        if (geometry instanceof MultiPolygon) return geometry.getPolygons();
        return geometry instanceof Polygon ? [geometry] : [];
      }),
    )
    .catch((error: unknown) => {
      landPolygons = undefined;
      throw error;
    });
  return landPolygons;
}

/** Land a view can draw: what reaches past a polar view's limit (Antarctica in the Arctic view) would stretch to infinity. */
export function landOf(polygons: Polygon[], view: MapView): Polygon[] {
  const { pole, limit } = PROJECTIONS[view];
  return polygons.filter((polygon) => {
    const [, south = -90, , north = 90] = polygon.getExtent();
    return !pole || (pole.north ? south > limit : north < limit);
  });
}

export const project = (view: MapView) => (point: Coordinate) => transform(point, GEOGRAPHIC, PROJECTIONS[view].code) as Coordinate;

/** A box as the view draws it: its ring densified and cut at the view's limit; null when out of sight. */
export function boxGeometry(box: BBox, view: MapView): Polygon | null {
  const { pole, limit } = PROJECTIONS[view];
  const shown = boxWithin(box, pole, limit);
  return shown && new Polygon(boxRings(shown, pole).map((ring) => ring.map(project(view))));
}

/** The extent a view opens on: the world, or the square around the pole out to the view's reach. */
export function homeExtent(view: MapView): Extent {
  const { pole, reach } = PROJECTIONS[view];
  if (!pole) return [-180, -90, 180, 90];
  const [x, y] = project(view)([0, reach]);
  const r = Math.hypot(x, y);
  return [-r, -r, r, r];
}

export function makeView(view: MapView): View {
  const { code, pole } = PROJECTIONS[view];
  // Polar views stay near their pole: further out the projection runs away to infinity.
  return new View({ projection: getProjection(code)!, center: [0, 0], zoom: 0, extent: pole ? homeExtent(view) : undefined, showFullExtent: true });
}

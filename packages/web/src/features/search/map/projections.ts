import type { MapView } from '../searchUrl';

/**
 * The map's three views. The polar ones are NSIDC's polar stereographic projections (their proj4
 * definitions as EPSG publishes them); `reach` is the latitude a polar view shows down to (up to,
 * in the south), which sets its extent, and `limit` the latitude beyond which it draws nothing:
 * land reaching past it is left out and boxes are cut there, since towards the other pole the
 * projection stretches to infinity.
 */
export interface ViewProjection {
  code: string;
  definition: string;
  pole?: { north: boolean };
  reach: number;
  limit: number;
}

export const PROJECTIONS: Record<MapView, ViewProjection> = {
  global: { code: 'EPSG:4326', definition: '+proj=longlat +datum=WGS84 +no_defs', reach: 90, limit: 90 },
  arctic: {
    code: 'EPSG:3413',
    definition: '+proj=stere +lat_0=90 +lat_ts=70 +lon_0=-45 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs',
    pole: { north: true },
    reach: 45,
    limit: -60,
  },
  antarctic: {
    code: 'EPSG:3031',
    definition: '+proj=stere +lat_0=-90 +lat_ts=-71 +lon_0=0 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs',
    pole: { north: false },
    reach: -50,
    limit: 60,
  },
};

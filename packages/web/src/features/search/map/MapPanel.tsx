import Feature from 'ol/Feature.js';
import OlMap from 'ol/Map.js';
import { defaults as defaultControls } from 'ol/control/defaults.js';
import { primaryAction } from 'ol/events/condition.js';
import type Geometry from 'ol/geom/Geometry.js';
import MultiLineString from 'ol/geom/MultiLineString.js';
import DragBox from 'ol/interaction/DragBox.js';
import DragPan from 'ol/interaction/DragPan.js';
import VectorLayer from 'ol/layer/Vector.js';
import { transform } from 'ol/proj.js';
import VectorSource from 'ol/source/Vector.js';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import 'ol/ol.css';
import type { SearchHit } from '@portal/shared/contracts/search';
import { parseBBox, type BBox } from '@portal/shared/domain/search';
import { describeBox } from '../boxText';
import { MAP_VIEWS, type MapView } from '../searchUrl';
import { graticule, rectangleToBBox, type Coordinate } from './geo';
import { boxGeometry, GEOGRAPHIC, homeExtent, landOf, loadLand, makeView, mapStyles as styles, project } from './olMap';
import { PROJECTIONS } from './projections';
import './map.css';

export interface MapPanelProps {
  view: MapView;
  onView: (view: MapView) => void;
  bbox: BBox | null;
  onBox: (bbox: BBox | null) => void;
  hits: SearchHit[];
}

/**
 * The search map (OpenLayers, proj4): a world view in longitude and latitude and the two polar
 * stereographic views (EPSG:3413, EPSG:3031). Land outlines and a graticule, the boxes of the
 * results on this page, and the search box; "Draw a box" turns a drag on the map into the search's
 * box (geo.ts reads the rectangle back to longitudes and latitudes), and the box can be typed in.
 */
export default function MapPanel({ view, onView, bbox, onBox, hits }: MapPanelProps) {
  const { t } = useTranslation();
  const id = useId();
  const target = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<OlMap | null>(null);
  const [sources] = useState(() => ({ land: new VectorSource(), graticule: new VectorSource(), hits: new VectorSource(), box: new VectorSource() }));
  const [drawing, setDrawing] = useState(false);
  const [landFailed, setLandFailed] = useState(false);
  const latest = useRef({ onBox, view });
  latest.current = { onBox, view };

  useEffect(() => {
    const olMap = new OlMap({
      target: target.current!,
      controls: defaultControls({ attribution: false, rotate: false, zoomOptions: { zoomInTipLabel: t('search.ui.map.zoomIn'), zoomOutTipLabel: t('search.ui.map.zoomOut') } }),
      layers: [
        new VectorLayer({ source: sources.land, style: styles.land }),
        new VectorLayer({ source: sources.graticule, style: styles.graticule }),
        new VectorLayer({ source: sources.hits, style: styles.hit }),
        new VectorLayer({ source: sources.box, style: styles.box }),
      ],
    });
    setMap(olMap);
    return () => {
      olMap.setTarget(undefined);
      olMap.dispose();
    };
  }, [sources, t]);

  // The view: its projection, land, graticule.
  useEffect(() => {
    if (!map) return;
    const olView = makeView(view);
    map.setView(olView);
    olView.fit(homeExtent(view), { size: map.getSize() });
    const { pole } = PROJECTIONS[view];
    sources.graticule.clear();
    sources.graticule.addFeature(new Feature(new MultiLineString(graticule(pole).map((line) => line.map(project(view))))));
    let current = true;
    sources.land.clear();
    loadLand().then(
      (polygons) => {
        if (!current) return;
        setLandFailed(false);
        sources.land.addFeatures(landOf(polygons, view).map((polygon) => new Feature((polygon.clone() as Geometry).transform(GEOGRAPHIC, PROJECTIONS[view].code))));
      },
      () => current && setLandFailed(true),
    );
    return () => {
      current = false;
    };
  }, [map, view, sources]);

  useEffect(() => {
    sources.hits.clear();
    for (const hit of hits) {
      if (hit.west === null || hit.south === null || hit.east === null || hit.north === null) continue;
      const geometry = boxGeometry({ west: hit.west, south: hit.south, east: hit.east, north: hit.north }, view);
      if (geometry) sources.hits.addFeature(new Feature(geometry));
    }
  }, [hits, view, sources]);

  useEffect(() => {
    sources.box.clear();
    const geometry = bbox && boxGeometry(bbox, view);
    if (geometry) sources.box.addFeature(new Feature(geometry));
  }, [bbox, view, sources]);

  // Drawing: a drag makes a rectangle (panning is off meanwhile), read back as a geographic box.
  useEffect(() => {
    if (!map || !drawing) return;
    const pans = map
      .getInteractions()
      .getArray()
      .filter((interaction) => interaction instanceof DragPan);
    for (const pan of pans) pan.setActive(false);
    const dragBox = new DragBox({ condition: primaryAction, className: 'sp-map-dragbox' });
    dragBox.on('boxend', () => {
      const [minX, minY, maxX, maxY] = dragBox.getGeometry().getExtent() as [number, number, number, number];
      const { view: shown, onBox: setBox } = latest.current;
      const { code, pole } = PROJECTIONS[shown];
      const box = rectangleToBBox(
        { minX, minY, maxX, maxY },
        {
          toLonLat: (point) => transform(point, code, GEOGRAPHIC) as Coordinate,
          pole: pole && { point: transform([0, pole.north ? 90 : -90], GEOGRAPHIC, code) as Coordinate, north: pole.north },
          worldWidth: pole ? undefined : 360,
        },
      );
      setDrawing(false);
      setBox(box);
    });
    map.addInteraction(dragBox);
    return () => {
      map.removeInteraction(dragBox);
      for (const pan of pans) pan.setActive(true);
    };
  }, [map, drawing]);

  return (
    <div className="sp-map">
      <div className="sp-map-bar">
        <div className="sp-map-views" role="group" aria-label={t('search.ui.map.views')}>
          {MAP_VIEWS.map((value) => (
            <button key={value} type="button" className="sp-button" aria-pressed={value === view} onClick={() => onView(value)}>
              {t(`search.ui.map.${value}`)}
            </button>
          ))}
        </div>
        <div className="sp-map-actions">
          <button type="button" className="sp-button" aria-pressed={drawing} aria-describedby={drawing ? `${id}-hint` : undefined} onClick={() => setDrawing(!drawing)}>
            {t('search.ui.map.draw')}
          </button>
          {bbox && (
            <button type="button" className="sp-button" onClick={() => onBox(null)}>
              {t('search.ui.map.clearBox')}
            </button>
          )}
        </div>
      </div>
      <p className="sp-map-status" id={`${id}-hint`} aria-live="polite">
        {drawing ? t('search.ui.map.drawHint') : bbox ? t('search.ui.map.box', { box: describeBox(t, bbox) }) : t('search.ui.map.noBox')}
      </p>
      <div
        ref={target}
        className={`sp-map-canvas${drawing ? ' is-drawing' : ''}`}
        role="group"
        aria-label={t('search.ui.map.canvas', { view: t(`search.ui.map.${view}`) })}
        data-testid="search-map"
      />
      {landFailed && <p className="sp-map-note">{t('search.ui.map.landFailed')}</p>}
      <div className="sp-map-foot">
        <ul className="sp-map-legend">
          <li>
            <span className="sp-swatch sp-swatch-hit" aria-hidden="true" />
            {t('search.ui.map.legendResults')}
          </li>
          <li>
            <span className="sp-swatch sp-swatch-box" aria-hidden="true" />
            {t('search.ui.map.legendBox')}
          </li>
        </ul>
        <p className="sp-map-note">{t('search.ui.map.attribution')}</p>
      </div>
      <CoordinatesForm bbox={bbox} onBox={onBox} />
    </div>
  );
}

/** The box typed in degrees: the way to set it without drawing (keyboard, screen reader). */
function CoordinatesForm({ bbox, onBox }: { bbox: BBox | null; onBox: (bbox: BBox) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [invalid, setInvalid] = useState(false);
  const sides = ['west', 'south', 'east', 'north'] as const;
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const box = parseBBox(sides.map((side) => String(form.get(side) ?? '')).join(','));
    setInvalid(!box);
    if (box) onBox(box);
  };
  return (
    <details className="sp-map-coordinates">
      <summary>{t('search.ui.map.coordinates')}</summary>
      {/* Keyed by the box, so that the fields show a box drawn meanwhile. */}
      <form className="sp-fields" key={bbox ? sides.map((side) => bbox[side]).join() : 'none'} onSubmit={handleSubmit} noValidate>
        {sides.map((side) => (
          <label key={side}>
            <span>{t(`search.ui.map.${side}`)}</span>
            <input
              name={side}
              inputMode="decimal"
              defaultValue={bbox ? String(Math.round(bbox[side] * 1e4) / 1e4) : ''}
              aria-invalid={invalid || undefined}
              aria-describedby={invalid ? `${id}-error` : undefined}
            />
          </label>
        ))}
        <button type="submit" className="sp-button">
          {t('search.ui.map.apply')}
        </button>
        {invalid && (
          <p className="sp-field-error" id={`${id}-error`} role="alert">
            {t('search.ui.map.invalid')}
          </p>
        )}
      </form>
    </details>
  );
}

import Feature from 'ol/Feature.js';
import OlMap from 'ol/Map.js';
import { defaults as defaultControls } from 'ol/control/defaults.js';
import type Geometry from 'ol/geom/Geometry.js';
import MultiLineString from 'ol/geom/MultiLineString.js';
import { defaults as defaultInteractions } from 'ol/interaction/defaults.js';
import VectorLayer from 'ol/layer/Vector.js';
import VectorSource from 'ol/source/Vector.js';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import 'ol/ol.css';
import type { BBox } from '@portal/shared/domain/search';
import { graticule, viewForBox } from '../search/map/geo';
import { boxGeometry, homeExtent, landOf, loadLand, makeView, mapStyles, project } from '../search/map/olMap';
import { PROJECTIONS } from '../search/map/projections';

/**
 * The dataset's area on a small map: the Arctic (EPSG:3413) or Antarctic (EPSG:3031) polar
 * stereographic view when the whole box lies in one, the world otherwise; the box drawn densified
 * as the search map draws it (across the 180th meridian in one piece, a disc round the pole when it
 * takes every longitude). Zoom buttons, no scroll-wheel zoom: the page scrolls past it.
 */
export default function ExtentMap({ box }: { box: BBox }) {
  const { t } = useTranslation();
  const target = useRef<HTMLDivElement>(null);
  const [landFailed, setLandFailed] = useState(false);
  const view = viewForBox(box, PROJECTIONS);

  useEffect(() => {
    const land = new VectorSource();
    const lines = new VectorSource();
    const area = new VectorSource();
    const map = new OlMap({
      target: target.current!,
      controls: defaultControls({ attribution: false, rotate: false, zoomOptions: { zoomInTipLabel: t('search.ui.map.zoomIn'), zoomOutTipLabel: t('search.ui.map.zoomOut') } }),
      interactions: defaultInteractions({ mouseWheelZoom: false, pinchRotate: false, altShiftDragRotate: false }),
      layers: [
        new VectorLayer({ source: land, style: mapStyles.land }),
        new VectorLayer({ source: lines, style: mapStyles.graticule }),
        new VectorLayer({ source: area, style: mapStyles.box }),
      ],
      view: makeView(view),
    });
    const { pole } = PROJECTIONS[view];
    lines.addFeature(new Feature(new MultiLineString(graticule(pole).map((line) => line.map(project(view))))));
    const geometry = boxGeometry(box, view);
    if (geometry) area.addFeature(new Feature(geometry));
    // A small box is shown with room around it; a large one fills the view, never past the home extent.
    const size = map.getSize();
    if (geometry && !pole) map.getView().fit(geometry.getExtent(), { size, padding: [24, 24, 24, 24], maxZoom: 5 });
    else if (geometry) map.getView().fit(geometry.getExtent(), { size, padding: [24, 24, 24, 24], maxZoom: 4 });
    else map.getView().fit(homeExtent(view), { size });
    let current = true;
    loadLand().then(
      (polygons) => {
        if (!current) return;
        land.addFeatures(landOf(polygons, view).map((polygon) => new Feature((polygon.clone() as Geometry).transform('EPSG:4326', PROJECTIONS[view].code))));
      },
      () => current && setLandFailed(true),
    );
    return () => {
      current = false;
      map.setTarget(undefined);
      map.dispose();
    };
  }, [box, view, t]);

  return (
    <figure className="lp-map">
      <div
        ref={target}
        className="lp-map-canvas"
        role="group"
        aria-label={t('landing.coverage.map', { view: t(`search.ui.map.${view}`) })}
        data-testid="landing-map"
        data-view={view}
      />
      <figcaption className="lp-muted">
        {t(`search.ui.map.${view}`)} · {t('search.ui.map.attribution')}
        {landFailed && ` ${t('search.ui.map.landFailed')}`}
      </figcaption>
    </figure>
  );
}

import type { ECharts } from 'echarts/core';
import * as echarts from 'echarts/core';
import { useEffect, useRef, type RefObject } from 'react';

/**
 * An ECharts instance on a box, made when the box is mounted, following its size, disposed with it.
 * Only chart modules import this (they are loaded lazily), so ECharts never comes with a page that
 * shows no chart. Each caller registers the charts and components it draws with `echarts.use`.
 */
export function useEChart(): { box: RefObject<HTMLDivElement | null>; chart: RefObject<ECharts | null> } {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  useEffect(() => {
    const element = box.current!;
    const instance = echarts.init(element);
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);
  return { box, chart };
}

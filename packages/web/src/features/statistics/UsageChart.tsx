import { BarChart, LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect } from 'react';
import { useEChart } from '../../components/useEChart';
import type { UsagePoint } from './series';

echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

/** More periods than this and the chart opens on the latest ones, with a slider to move along. */
const ZOOM_ABOVE = 62;
const COLORS = { views: '#1677ff', downloads: '#52c41a', orders: '#fa8c16' };

export interface UsageChartProps {
  /** Every period from the first to the last, gaps filled with zeros. */
  series: UsagePoint[];
  names: { views: string; downloads: string; orders: string };
  label: string;
  isPhone: boolean;
}

/**
 * Views (a line), downloads and orders (bars) over time; the statistics feature's only module that imports ECharts, so the
 * library comes in this chunk, with the statistics page only. It follows its box's size.
 */
export default function UsageChart({ series, names, label, isPhone }: UsageChartProps) {
  const { box, chart } = useEChart();

  useEffect(() => {
    const isLong = series.length > ZOOM_ABOVE;
    const start = isLong ? Math.round((1 - ZOOM_ABOVE / series.length) * 100) : 0;
    const bar = (key: 'downloads' | 'orders') => ({
      name: names[key],
      type: 'bar' as const,
      data: series.map((point) => point[key]),
      itemStyle: { color: COLORS[key] },
      barMaxWidth: 24,
    });
    chart.current?.setOption(
      {
        animation: false,
        tooltip: { trigger: 'axis', confine: true },
        legend: { top: 0 },
        grid: { left: 8, right: 16, top: 40, bottom: isLong ? 56 : 8 },
        xAxis: { type: 'category', data: series.map((point) => point.period) },
        yAxis: { type: 'value', minInterval: 1 },
        dataZoom: isLong
          ? [
              { type: 'inside', start, end: 100 },
              { type: 'slider', start, end: 100, height: 24, bottom: 8 },
            ]
          : [],
        series: [
          { name: names.views, type: 'line', data: series.map((point) => point.views), itemStyle: { color: COLORS.views }, showSymbol: series.length <= ZOOM_ABOVE },
          bar('downloads'),
          bar('orders'),
        ],
      },
      { notMerge: true },
    );
  }, [chart, series, names, isPhone]);

  return <div ref={box} role="img" aria-label={label} data-testid="usage-chart" style={{ width: '100%', height: isPhone ? 280 : 360 }} />;
}

import { BarChart, LineChart, ScatterChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect } from 'react';
import type { MethodChart } from '@portal/shared';
import { useEChart } from '../../../components/useEChart';

echarts.use([LineChart, BarChart, ScatterChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

/** More points than this and the chart opens with a slider to move along them. */
const ZOOM_ABOVE = 60;

export interface ResultChartProps {
  chart: NonNullable<MethodChart>;
  /** The x column's values, and each y column's by its name (numbers, or null where a row has none). */
  x: (string | number)[];
  series: { name: string; values: (number | null)[] }[];
  /** Whether x holds numbers (a value axis) rather than labels or dates (categories in the rows' order). */
  isNumericX: boolean;
  label: string;
  isPhone: boolean;
}

/**
 * A run's result drawn as its method describes (line, bar or scatter of y columns against an x
 * column): the only module of the analysis pages that imports ECharts, loaded when a result with a
 * chart is shown.
 */
export default function ResultChart({ chart: description, x, series, isNumericX, label, isPhone }: ResultChartProps) {
  const { box, chart } = useEChart();

  useEffect(() => {
    const isLong = x.length > ZOOM_ABOVE;
    const isValueAxis = isNumericX && description.type === 'scatter';
    chart.current?.setOption(
      {
        animation: false,
        tooltip: { trigger: description.type === 'scatter' ? 'item' : 'axis', confine: true },
        legend: { top: 0, type: 'scroll' },
        grid: { left: 8, right: 16, top: 40, bottom: isLong ? 56 : 8, containLabel: true },
        xAxis: isValueAxis ? { type: 'value', name: description.x, scale: true } : { type: 'category', name: description.x, data: x.map(String) },
        yAxis: { type: 'value', scale: true },
        dataZoom: isLong
          ? [
              { type: 'inside', xAxisIndex: 0 },
              { type: 'slider', xAxisIndex: 0, height: 24, bottom: 8 },
            ]
          : [],
        series: series.map(({ name, values }) => ({
          name,
          type: description.type,
          data: isValueAxis ? values.map((value, index) => [x[index], value]) : values,
          showSymbol: description.type === 'scatter' || x.length <= ZOOM_ABOVE,
          symbolSize: isPhone ? 5 : 7,
          barMaxWidth: 24,
        })),
      },
      { notMerge: true },
    );
  }, [chart, description, x, series, isNumericX, isPhone]);

  return <div ref={box} role="img" aria-label={label} data-testid="result-chart" style={{ width: '100%', height: isPhone ? 280 : 360 }} />;
}

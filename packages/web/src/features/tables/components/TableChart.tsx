import { LineChart, ScatterChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect } from 'react';
import { useEChart } from '../../../components/useEChart';

echarts.use([LineChart, ScatterChart, GridComponent, TooltipComponent, DataZoomComponent, CanvasRenderer]);

export interface TableChartProps {
  kind: 'scatter' | 'line';
  /** The x axis: numbers as values, dates and times on a time axis, text as categories. */
  xAxis: 'value' | 'time' | 'category';
  xName: string;
  yName: string;
  /** [x, y] pairs; rows with either value empty are left out by the caller. */
  points: [string | number, number][];
  label: string;
  isPhone: boolean;
}

/**
 * One column against another, as a scatter or a line; the only module of the tables feature that
 * imports ECharts, loaded when a chart is first opened (ChartPanel), so the viewer comes without it.
 */
export default function TableChart({ kind, xAxis, xName, yName, points, label, isPhone }: TableChartProps) {
  const { box, chart } = useEChart();

  useEffect(() => {
    chart.current?.setOption(
      {
        animation: false,
        tooltip: { trigger: kind === 'line' ? 'axis' : 'item', confine: true },
        grid: { left: 56, right: 24, top: 40, bottom: 72 },
        xAxis: {
          type: xAxis,
          name: xName,
          nameLocation: 'middle',
          nameGap: 28,
          scale: xAxis === 'value',
          data: xAxis === 'category' ? [...new Set(points.map(([x]) => x))] : undefined,
        },
        yAxis: { type: 'value', name: yName, scale: true },
        dataZoom: [
          { type: 'inside', xAxisIndex: 0 },
          { type: 'slider', xAxisIndex: 0, height: 20, bottom: 4 },
        ],
        series: [{ type: kind, name: yName, data: points, symbolSize: isPhone ? 5 : 6, showSymbol: kind === 'scatter' || points.length <= 200, large: points.length > 2000 }],
      },
      { notMerge: true },
    );
  }, [chart, kind, xAxis, xName, yName, points, isPhone]);

  return <div ref={box} role="img" aria-label={label} data-testid="table-chart" style={{ width: '100%', height: isPhone ? 300 : 380 }} />;
}

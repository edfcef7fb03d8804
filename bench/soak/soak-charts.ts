/**
 * The soak's time series as SVG line charts, rendered headless with Vega (no browser, no
 * canvas): one file per measure, each line a process or a series, time on the x axis.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Vega from 'vega';
import { importEsm } from '../lib/import-esm';

export interface SeriesPoint {
  /** Seconds since the soak began. */
  readonly t: number;
  readonly series: string;
  readonly value: number;
}

export interface Chart {
  readonly file: string;
  readonly title: string;
  readonly unit: string;
  readonly points: readonly SeriesPoint[];
}

/** A Vega line chart: x = seconds, y = value, one coloured line per series. */
function lineChartSpec(chart: Chart): Vega.Spec {
  return {
    $schema: 'https://vega.github.io/schema/vega/v6.json',
    width: 720,
    height: 240,
    padding: 8,
    background: 'white',
    title: { text: chart.title },
    data: [{ name: 'points', values: chart.points.filter((point) => Number.isFinite(point.value)) }],
    scales: [
      { name: 'x', type: 'linear', range: 'width', domain: { data: 'points', field: 't' } },
      {
        name: 'y',
        type: 'linear',
        range: 'height',
        zero: true,
        nice: true,
        domain: { data: 'points', field: 'value' },
      },
      { name: 'color', type: 'ordinal', range: 'category', domain: { data: 'points', field: 'series' } },
    ],
    axes: [
      { orient: 'bottom', scale: 'x', title: 'seconds since the soak began' },
      { orient: 'left', scale: 'y', title: chart.unit, grid: true },
    ],
    legends: [{ fill: 'color' }],
    marks: [
      {
        type: 'group',
        from: { facet: { name: 'series', data: 'points', groupby: 'series' } },
        marks: [
          {
            type: 'line',
            from: { data: 'series' },
            sort: { field: 'datum.t' },
            encode: {
              enter: {
                x: { scale: 'x', field: 't' },
                y: { scale: 'y', field: 'value' },
                stroke: { scale: 'color', field: 'series' },
                strokeWidth: { value: 2 },
              },
            },
          },
        ],
      },
    ],
  };
}

async function renderSvg(chart: Chart): Promise<string> {
  const vega = await importEsm<typeof Vega>('vega');
  const view = new vega.View(vega.parse(lineChartSpec(chart)), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Writes each chart into `dir`; returns the files written. */
export async function writeCharts(dir: string, charts: readonly Chart[]): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const chart of charts) {
    const file = join(dir, chart.file);
    writeFileSync(file, await renderSvg(chart));
    files.push(file);
  }
  return files;
}

// What a scan's time is made of, from a report's file (default data/h200-scan.json): for each
// way, a straight line through its median times at 2^24 values and up, fitted by least squares.
// Its slope is what each further byte costs (printed as GB/s, eight bytes a value moved, read
// and written); its intercept is what one dispatch costs whatever its size: starting the
// workgroups, the first wave's loads before any store, the last wave's tail.
//
//   node bench/scan_fit.mjs [report.json]
//
// A way whose intercept is far above the copy's loses its share at the smaller sizes only; one
// whose slope is below the copy's loses it everywhere.
import fs from 'node:fs';

const file = process.argv[2] ?? new URL('../data/h200-scan.json', import.meta.url);
const report = JSON.parse(fs.readFileSync(file, 'utf8'));
const column = (name) => {
  const i = report.columns.indexOf(name);
  if (i < 0) throw new Error(`the report has no column "${name}"`);
  return i;
};
const [way, values, ms] = ['way', 'invocations', 'gpu_ms_median'].map(column);

const points = new Map();
for (const row of report.rows) {
  if (row[values] < 2 ** 24 || row[ms] == null) continue;
  if (!points.has(row[way])) points.set(row[way], []);
  points.get(row[way]).push([row[values], row[ms] * 1000]);
}

const fit = (xy) => {
  const n = xy.length;
  const mx = xy.reduce((s, [x]) => s + x, 0) / n;
  const my = xy.reduce((s, [, y]) => s + y, 0) / n;
  const slope = xy.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / xy.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return { fixedUs: my - slope * mx, gbPerS: 8 / (slope * 1e-6) / 1e9 };
};

const copy = points.get('copy');
const base = copy && copy.length >= 2 ? fit(copy) : null;
console.log(`${'way'.padEnd(26)} sizes  fixed µs  per byte GB/s${base ? '  per byte, of the copy' : ''}`);
for (const [name, xy] of points) {
  if (xy.length < 2) continue;
  const { fixedUs, gbPerS } = fit(xy);
  const share = base ? `  ${((100 * gbPerS) / base.gbPerS).toFixed(1)} %` : '';
  console.log(`${name.padEnd(26)} ${String(xy.length).padStart(5)}  ${fixedUs.toFixed(2).padStart(8)}  ${gbPerS.toFixed(0).padStart(13)}${share}`);
}

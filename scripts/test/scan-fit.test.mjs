// bench/scan_fit.mjs: the straight line it fits through a report's times, on reports whose
// answer is known.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const SCRIPT = path.join(import.meta.dirname, '..', '..', 'bench', 'scan_fit.mjs');
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'scan-fit-'));

/** A report whose ways take exactly `fixedUs` plus eight bytes a value at `gbPerS`. */
function report(ways, columns = ['way', 'invocations', 'gpu_ms_median']) {
  const rows = [];
  for (const [way, fixedUs, gbPerS] of ways) {
    for (const log2 of [20, 24, 25, 26, 27]) {
      const n = 2 ** log2;
      rows.push([way, n, (fixedUs + (n * 8) / (gbPerS * 1e3)) / 1000]);
    }
  }
  const file = path.join(TMP, `${ways.map((w) => w[0]).join('-')}.json`);
  fs.writeFileSync(file, JSON.stringify({ columns, rows }));
  return file;
}

const run = (file) => spawnSync(process.execPath, [SCRIPT, file], { encoding: 'utf8' });

test('a way made of a fixed cost and a rate gives both back, and its rate beside the copy', () => {
  const out = run(report([['copy', 3.5, 4000], ['single-pass', 7.5, 3000]]));
  assert.equal(out.status, 0, out.stderr);
  const line = (way) => out.stdout.split('\n').find((l) => l.startsWith(way + ' '))?.trim().split(/\s+/);
  // way, sizes (2^24 and up only), fixed µs, GB/s, share
  assert.deepEqual(line('copy'), ['copy', '4', '3.50', '4000', '100.0', '%']);
  assert.deepEqual(line('single-pass'), ['single-pass', '4', '7.50', '3000', '75.0', '%']);
});

test('a report without the columns it needs is refused in words', () => {
  const out = run(report([['copy', 1, 1000]], ['way', 'values', 'gpu_ms_median']));
  assert.notEqual(out.status, 0);
  assert.match(out.stderr, /the report has no column "invocations"/);
});

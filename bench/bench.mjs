// Prints syncscope's speed and size figures. A script, not a test: it measures and reports,
// and asserts nothing. Run through scripts/bench.sh (which builds the release site first).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve } from '../e2e/support/server.mjs';
import { launch } from '../e2e/support/browser.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'dist');
const LOADS = 7;
const ROUND_TRIPS = 30;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

function sizes() {
  const rows = [];
  let raw = 0;
  let gz = 0;
  for (const f of fs.readdirSync(DIST).sort()) {
    if (f.startsWith('.')) continue;
    const body = fs.readFileSync(path.join(DIST, f));
    const z = zlib.gzipSync(body, { level: 9 }).length;
    raw += body.length;
    gz += z;
    rows.push(`  ${f.padEnd(44)} ${kb(body.length).padStart(10)} raw ${kb(z).padStart(10)} gzip`);
  }
  rows.push(`  ${'total initial transfer'.padEnd(44)} ${kb(raw).padStart(10)} raw ${kb(gz).padStart(10)} gzip`);
  return rows.join('\n');
}

async function timeToInteractive(browser, url) {
  const times = [];
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${url}?lesson=race`);
    await page.getByTestId('model-step').waitFor();
    // performance.now() counts from navigation start.
    times.push(await page.evaluate(() => performance.now()));
    await context.close();
  }
  return times;
}

async function lessonRoundTrips(browser, url) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${url}?lesson=race&variant=atomic&invocations=1024&workgroup=64`);
  await page.waitForFunction(() => document.querySelector('[data-testid=gpu-status]')?.dataset.state === 'ready');
  const times = [];
  for (let i = 0; i < ROUND_TRIPS + 3; i++) {
    await page.getByTestId('gpu-run').click();
    await page.waitForFunction(() => !document.querySelector('[data-testid=gpu-run]').disabled);
    const ms = Number(await page.getByTestId('gpu-wall-ms').getAttribute('data-ms'));
    if (i >= 3) times.push(ms); // the first runs compile the pipeline
  }
  times.adapter = await page.getByTestId('adapter-name').textContent();
  return times;
}

async function rawWebGpuRoundTrips(browser, url) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  const code = fs.readFileSync(path.join(ROOT, 'shaders', 'race_atomic.wgsl'), 'utf8');
  return page.evaluate(async ({ code, n }) => {
    const adapter = await navigator.gpu.requestAdapter();
    const device = await adapter.requestDevice();
    const module = device.createShaderModule({ code });
    const pipeline = device.createComputePipeline({
      layout: 'auto',
      compute: { module, entryPoint: 'main', constants: { workgroup_size: 64 } },
    });
    const times = [];
    for (let i = 0; i < n + 3; i++) {
      const t0 = performance.now();
      const counter = device.createBuffer({ size: 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
      const params = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
      device.queue.writeBuffer(params, 0, new Uint32Array([1024, 0, 0, 0]));
      const read = device.createBuffer({ size: 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      const group = device.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [{ binding: 0, resource: { buffer: counter } }, { binding: 1, resource: { buffer: params } }],
      });
      const enc = device.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(16);
      pass.end();
      enc.copyBufferToBuffer(counter, 0, read, 0, 4);
      device.queue.submit([enc.finish()]);
      await read.mapAsync(GPUMapMode.READ);
      const value = new Uint32Array(read.getMappedRange())[0];
      read.unmap();
      if (value !== 1024) throw new Error(`raw WebGPU counted ${value}`);
      if (i >= 3) times.push(performance.now() - t0);
    }
    return times;
  }, { code, n: ROUND_TRIPS });
}

const server = await serve({ root: DIST });
const browser = await launch();
try {
  console.log('Sizes (dist/, as served):');
  console.log(sizes());
  const tti = await timeToInteractive(browser, server.url);
  console.log(`\nNavigation → race lesson interactive (headless Chromium, median of ${LOADS}): ${median(tti).toFixed(0)} ms (min ${Math.min(...tti).toFixed(0)}, max ${Math.max(...tti).toFixed(0)})`);
  const lesson = await lessonRoundTrips(browser, server.url);
  const raw = await rawWebGpuRoundTrips(browser, server.url);
  console.log(`\nGPU round trip, atomic race kernel, 1024 invocations (median of ${ROUND_TRIPS}):`);
  console.log(`  syncscope (wgpu → WebGPU, Leptos update included): ${median(lesson).toFixed(2)} ms`);
  console.log(`  raw JavaScript WebGPU, same kernel, same browser:   ${median(raw).toFixed(2)} ms`);
  console.log(`  adapter: ${lesson.adapter}`);
} finally {
  await browser.close();
  server.close();
}

// Every kernel in shaders/<lesson id>/ must compile in the browser's own WGSL compiler, which enforces
// rules naga does not (barrier uniformity, among others).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useSite } from './support/fixture.mjs';
import { openPage } from './support/browser.mjs';

const SHADERS = path.resolve(import.meta.dirname, '..', 'shaders');
const site = useSite();

test('every shader compiles and makes a pipeline in Chromium', async () => {
  // shaders/<lesson id>/<kernel>.wgsl; the refused kernels under rejected/ are tested apart.
  const files = fs
    .readdirSync(SHADERS, { recursive: true })
    .filter((f) => f.endsWith('.wgsl') && !f.split(path.sep).includes('rejected'))
    .sort();
  assert.ok(files.length >= 4, `found ${files}`);
  const sources = Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(SHADERS, f), 'utf8')]));
  const page = await openPage(site.browser, site.url);
  const results = await page.evaluate(async (sources) => {
    const adapter = await navigator.gpu.requestAdapter();
    const device = await adapter.requestDevice();
    const out = {};
    for (const [file, code] of Object.entries(sources)) {
      device.pushErrorScope('validation');
      const module = device.createShaderModule({ code, label: file });
      const info = await module.getCompilationInfo();
      device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
      const error = await device.popErrorScope();
      out[file] = {
        messages: info.messages.filter((m) => m.type === 'error').map((m) => `${m.lineNum}:${m.linePos} ${m.message}`),
        error: error ? error.message : null,
      };
    }
    return out;
  }, sources);
  for (const file of files) {
    assert.deepEqual(results[file], { messages: [], error: null }, file);
  }
});

test('every kernel ends on zeroed buffers in the browser, as the page primes it', async () => {
  // Each page runs a new pipeline once on zeroed buffers before the reader's first run, so that
  // SwiftShader translates it then (GpuContext::prime). Every loop must end with its bounds at
  // 0: SwiftShader runs a workgroup's lanes four at a time, so a wait on a lane of another group
  // of four that a bound of 0 never ends spins for ever here, where lavapipe may not.
  const files = fs.readdirSync(SHADERS, { recursive: true }).filter((f) => f.endsWith('.wgsl') && !f.split(path.sep).includes('rejected')).sort();
  const sources = Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(SHADERS, f), 'utf8')]));
  const page = await openPage(site.browser, site.url);
  const results = await page.evaluate(async (sources) => {
    const device = await (await navigator.gpu.requestAdapter()).requestDevice();
    const out = {};
    for (const [file, code] of Object.entries(sources)) {
      const module = device.createShaderModule({ code, label: file });
      const constants = code.includes('override workgroup_size') ? { workgroup_size: 64 } : {};
      const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main', constants } });
      const bindings = [...code.matchAll(/^@group\(0\) @binding\((\d+)\)/gm)].map((m) => Number(m[1]));
      const entries = bindings.map((binding) => ({ binding, resource: { buffer: device.createBuffer({ size: 65536, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.UNIFORM }) } }));
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      if (entries.length) pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries }));
      pass.dispatchWorkgroups(1);
      pass.end();
      device.queue.submit([encoder.finish()]);
      const started = performance.now();
      const ended = await Promise.race([device.queue.onSubmittedWorkDone().then(() => true), new Promise((r) => setTimeout(() => r(false), 20_000))]);
      out[file] = ended ? 'ended' : `still running after ${Math.round(performance.now() - started)} ms`;
      if (!ended) break;
    }
    return out;
  }, sources);
  for (const file of files) assert.equal(results[file], 'ended', file);
});

test('the browser rejects what it should: a barrier under a thread-dependent branch', async () => {
  // Proves the check above can fail: this kernel compiles natively but not in Chromium.
  const page = await openPage(site.browser, site.url);
  const messages = await page.evaluate(async () => {
    const device = await (await navigator.gpu.requestAdapter()).requestDevice();
    const module = device.createShaderModule({
      code: `@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
        if i < 32u { workgroupBarrier(); }
      }`,
    });
    return (await module.getCompilationInfo()).messages.map((m) => m.message);
  });
  assert.ok(messages.some((m) => m.includes('uniform control flow')), messages.join('\n'));
});

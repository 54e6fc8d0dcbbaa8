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
    // The subgroup kernels need the feature, as the pages ask for it; Chromium's SwiftShader has it.
    const device = await adapter.requestDevice({ requiredFeatures: adapter.features.has('subgroups') ? ['subgroups'] : [] });
    const out = { subgroups: device.features.has('subgroups') };
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
  assert.equal(results.subgroups, true, 'this Chromium offers subgroups, so every subgroup kernel is compiled here');
  assert.ok(files.some((f) => f.includes('subgroups')), 'the subgroup kernels are among them');
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
    const adapter = await navigator.gpu.requestAdapter();
    const device = await adapter.requestDevice({ requiredFeatures: adapter.features.has('subgroups') ? ['subgroups'] : [] });
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

test('the browser refuses a subgroup operation under a value-dependent branch, unless the kernel says it knows', async () => {
  // shaders/subgroups/rejected/: naga (native) lets this through; Chromium's uniformity analysis
  // does not. The lesson's divergent kernel compiles (the test above) only because it switches
  // the check off with diagnostic(off, subgroup_uniformity).
  const code = fs.readFileSync(path.join(SHADERS, 'subgroups', 'rejected', 'subgroups_divergent_checked.wgsl'), 'utf8');
  const page = await openPage(site.browser, site.url);
  const messages = await page.evaluate(async (code) => {
    const adapter = await navigator.gpu.requestAdapter();
    const device = await adapter.requestDevice({ requiredFeatures: ['subgroups'] });
    const module = device.createShaderModule({ code });
    return (await module.getCompilationInfo()).messages.filter((m) => m.type === 'error').map((m) => m.message);
  }, code);
  assert.ok(messages.some((m) => m.includes('uniform')), messages.join('\n') || 'no error at all');
});

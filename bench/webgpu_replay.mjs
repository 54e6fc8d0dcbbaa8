// A baseline for each lesson's GPU round trip: the same WebGPU work the lesson's Run button did,
// issued again by plain JavaScript with nothing around it.
//
// `recordWebGpu` is installed in the page before its scripts run. It notes every object the page
// creates (buffers, shader modules, pipelines) and, while recording, every call one click makes:
// buffers made and filled, bind groups, passes and dispatches, copies, the submit, the maps and
// reads. `replayWebGpu` then runs that log on a device of its own, as hand-written code would:
// no error scopes, no timestamp queries, objects made before the click (pipelines, a kept
// read-back buffer) made once beforehand and not timed, everything else made, submitted, mapped
// and read every time. Both run in the page; they are passed to Playwright as functions.

/** Installed with `page.addInitScript`: wraps the WebGPU methods the lessons use. */
export function recordWebGpu() {
  const ids = new WeakMap();
  let next = 1;
  const idOf = (o) => {
    if (!ids.has(o)) ids.set(o, next++);
    return ids.get(o);
  };
  const isGpu = (v) => typeof v?.constructor === 'function' && /^GPU/.test(v.constructor.name);
  const snap = (v) => {
    if (v === null || typeof v !== 'object') return v;
    if (ArrayBuffer.isView(v)) return { $bytes: new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength)), $type: v.constructor.name };
    if (v instanceof ArrayBuffer) return { $bytes: new Uint8Array(v.slice(0)), $type: 'ArrayBuffer' };
    if (isGpu(v)) return { $id: idOf(v) };
    if (Array.isArray(v) || typeof v[Symbol.iterator] === 'function') return Array.from(v, snap);
    const o = {};
    for (const k of Object.keys(v)) o[k] = snap(v[k]);
    return o;
  };
  const created = new Map(); // id → the call that made it, recorded always
  const mapped = new Map(); // buffer id → ranges handed out while mapped at creation
  const log = [];
  let recording = false;
  const MAKERS = new Set(['createBuffer', 'createShaderModule', 'createComputePipeline', 'getBindGroupLayout', 'createQuerySet', 'createBindGroup', 'createCommandEncoder', 'beginComputePass', 'finish']);
  const wrap = (cls, method) => {
    const original = cls?.prototype?.[method];
    if (!original) return;
    cls.prototype[method] = function (...args) {
      if (method === 'unmap' && mapped.has(idOf(this))) {
        // What the page wrote into a buffer mapped at creation, kept before it is handed over.
        for (const { offset, range } of mapped.get(idOf(this))) {
          const call = { method: '$fill', on: idOf(this), args: [offset, new Uint8Array(range.slice(0))] };
          if (recording) log.push(call);
          else created.get(idOf(this)).fills.push(call);
        }
        mapped.delete(idOf(this));
      }
      const result = original.apply(this, args);
      const call = { method, on: idOf(this), args: args.map(snap) };
      if (MAKERS.has(method) && result && typeof result === 'object') {
        call.made = idOf(result);
        created.set(call.made, { ...call, fills: [] });
      }
      if (method === 'createBuffer' && args[0]?.mappedAtCreation) mapped.set(idOf(result), []);
      if (method === 'getMappedRange' && mapped.has(idOf(this))) mapped.get(idOf(this)).push({ offset: args[0] ?? 0, range: result });
      if (recording) log.push(call);
      return result;
    };
  };
  for (const m of ['createBuffer', 'createShaderModule', 'createComputePipeline', 'createBindGroup', 'createCommandEncoder', 'createQuerySet', 'pushErrorScope', 'popErrorScope']) wrap(globalThis.GPUDevice, m);
  for (const m of ['writeBuffer', 'submit']) wrap(globalThis.GPUQueue, m);
  for (const m of ['beginComputePass', 'copyBufferToBuffer', 'resolveQuerySet', 'clearBuffer', 'finish']) wrap(globalThis.GPUCommandEncoder, m);
  for (const m of ['setPipeline', 'setBindGroup', 'dispatchWorkgroups', 'end']) wrap(globalThis.GPUComputePassEncoder, m);
  for (const m of ['mapAsync', 'getMappedRange', 'unmap']) wrap(globalThis.GPUBuffer, m);
  wrap(globalThis.GPUComputePipeline, 'getBindGroupLayout');
  globalThis.__webgpuLog = {
    start() {
      log.length = 0;
      recording = true;
    },
    /** Keeps the click's calls in the page, for `replayWebGpu`. */
    stop() {
      recording = false;
      globalThis.__webgpuRecorded = { log: log.slice(), created: Object.fromEntries(created) };
      return log.length;
    },
  };
}

/**
 * Runs the click `__webgpuLog.stop()` kept `times` times on a device of its own (made on the
 * first call, then kept) and returns each run's milliseconds, from the first call to the last
 * result read. `faithful` keeps what a hand-written version would leave out — error scopes,
 * timestamp queries — to show what they cost.
 */
export async function replayWebGpu({ times, faithful = false }) {
  // Inside, as Playwright sends this function to the page on its own.
  async function replayer(recorded, faithful) {
    const adapter = await navigator.gpu.requestAdapter();
    const wanted = ['maxStorageBufferBindingSize', 'maxBufferSize', 'maxComputeWorkgroupsPerDimension', 'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupSizeX', 'maxStorageBuffersPerShaderStage', 'maxComputeWorkgroupStorageSize'];
    const requiredFeatures = faithful && adapter.features.has('timestamp-query') ? ['timestamp-query'] : [];
    const device = await adapter.requestDevice({ requiredFeatures, requiredLimits: Object.fromEntries(wanted.map((k) => [k, adapter.limits[k]])) });
    const timestamps = requiredFeatures.length > 0;
    const { log, created } = recorded;
    const usage = (id) => created[id]?.args?.[0]?.usage ?? 0;
    const timing = (id) => (usage(id) & GPUBufferUsage.QUERY_RESOLVE) !== 0;
    const kept = new Map(); // objects made before the click: made once here, not timed
    const live = (objects, v) => {
      if (v === null || typeof v !== 'object') return v;
      if (v.$bytes) return v.$type === 'ArrayBuffer' ? v.$bytes.buffer : new globalThis[v.$type](v.$bytes.buffer);
      if (v.$id !== undefined) return objects.get(v.$id) ?? made(v.$id);
      if (Array.isArray(v)) return v.map((x) => live(objects, x));
      const o = {};
      for (const [k, x] of Object.entries(v)) if (k !== 'timestampWrites' || timestamps) o[k] = live(objects, x);
      return o;
    };
    const made = (id) => {
      if (kept.has(id)) return kept.get(id);
      const call = created[id];
      if (!call) throw new Error(`replay: object ${id} was neither made during the click nor before it`);
      const on = call.method === 'getBindGroupLayout' ? made(call.on) : device;
      const object = on[call.method](...call.args.map((a) => live(kept, a)));
      kept.set(id, object);
      for (const fill of call.fills) new Uint8Array(object.getMappedRange(fill.args[0])).set(fill.args[1]);
      if (call.fills.length) object.unmap();
      return object;
    };
    // Calls a hand-written version would leave out: error scopes and timing.
    const skipped = (call) =>
      (!faithful && ['pushErrorScope', 'popErrorScope'].includes(call.method)) ||
      (!timestamps && ['createQuerySet', 'resolveQuerySet'].includes(call.method)) ||
      (!timestamps && call.method === 'copyBufferToBuffer' && timing(call.args[0]?.$id));
    const once = async () => {
      const objects = new Map([[0, device]]);
      const pending = new Map();
      const target = (call) => {
        if (objects.has(call.on)) return objects.get(call.on);
        if (created[call.on]?.method === 'createBuffer' || created[call.on]?.method === 'createComputePipeline' || created[call.on]?.method === 'getBindGroupLayout') return made(call.on);
        // The device and queue the page used stand for this device and its queue.
        return call.method === 'writeBuffer' || call.method === 'submit' ? device.queue : device;
      };
      let reads = 0;
      for (const call of log) {
        if (skipped(call)) continue;
        const on = target(call);
        if (call.method === '$fill') {
          new Uint8Array(on.getMappedRange(call.args[0])).set(call.args[1]);
          continue;
        }
        if (call.method === 'getMappedRange') {
          // Ranges of a buffer mapped at creation are filled by its `$fill`; results are read out.
          if ((on.usage & GPUBufferUsage.MAP_READ) === 0) continue;
          await pending.get(call.on);
          reads += new Uint8Array(on.getMappedRange(...call.args)).slice().length;
          continue;
        }
        const result = on[call.method](...call.args.map((a) => live(objects, a)));
        if (call.method === 'mapAsync') pending.set(call.on, result);
        if (call.method === 'popErrorScope') pending.set(`scope${pending.size}`, result);
        if (call.made !== undefined) objects.set(call.made, result);
      }
      await Promise.all(pending.values());
      return reads;
    };
    await once(); // makes what was kept, and warms the driver
    return once;
  }

  const recorded = globalThis.__webgpuRecorded;
  const key = `replay:${faithful}`;
  globalThis.__replayers ??= {};
  if (!globalThis.__replayers[key]) globalThis.__replayers[key] = await replayer(recorded, faithful);
  const once = globalThis.__replayers[key];
  const out = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await once();
    out.push(performance.now() - t0);
  }
  return out;
}


/**
 * Clicks the button `testId` names and resolves, once its run has ended (the button, disabled
 * while the run is under way, enabled again), with the milliseconds from the click to the
 * results shown (`shown`) and the run's own round trip, click to results in hand, as the page
 * measured it (`roundTrip`, its `data-round-trip-ms`); rejects with the run's error.
 */
export function clickAndWait(testId) {
  const button = document.querySelector(`[data-testid=${testId}]`);
  const report = `[data-testid=${testId.replace(/-run$/, '')}-report]`;
  return new Promise((resolve, reject) => {
    let started = false;
    // The first report drawn after the click: a first look where the lesson shows one while
    // the rest of the run goes on, else the whole result.
    let firstShown = null;
    const reports = new MutationObserver((records) => {
      if (firstShown !== null) return;
      const drawn = records.some((r) => [...r.addedNodes].some((n) => n.nodeType === 1 && (n.matches(report) || n.querySelector(report))));
      if (drawn) firstShown = performance.now() - t0;
    });
    reports.observe(document.body, { childList: true, subtree: true });
    const observer = new MutationObserver(() => {
      if (button.disabled) started = true;
      else if (started) {
        observer.disconnect();
        reports.disconnect();
        const shown = performance.now() - t0;
        const error = document.querySelector(`[data-testid=${testId.replace(/-run$/, '')}-error]`);
        if (error) reject(new Error(error.textContent));
        else {
          resolve({
            shown,
            firstShown: firstShown ?? shown,
            roundTrip: Number(button.dataset.roundTripMs),
            firstResult: Number(button.dataset.firstResultMs),
          });
        }
      }
    });
    observer.observe(button, { attributes: true, attributeFilter: ['disabled'] });
    const t0 = performance.now();
    button.click();
  });
}

// wasm-opt -O1, in this process's worker threads rather than one `wasm-opt` process a module.
//
// npm's `binaryen` is Binaryen compiled to WebAssembly: its `wasm-opt` command is a Node script
// that compiles an 11 MB module before it reads a byte of the input, which made a 1 KB chunk
// cost 1.4 s, and the six modules of a page about 17 s. A worker compiles Binaryen once and
// then optimises one module after another through its API, which gives the same bytes as the
// command (the same passes at the same levels, the same default features): a page in about 7 s.
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { wasmOptComplaints } from './pages.mjs';

/** `workers` threads that optimise wasm modules: `optimise(bytes)` gives the optimised module
 * and what Binaryen said about it (its warnings about name subsections left out); it fails on a
 * module Binaryen finds invalid. `close()` ends the threads. */
export function optimiser(workers) {
  const threads = Array.from({ length: Math.max(1, workers) }, () => new Worker(new URL(import.meta.url)));
  const idle = [...threads];
  const waiting = [];
  let next = 0;
  const pending = new Map();
  for (const thread of threads) {
    thread.on('message', ({ id, bytes, said, error }) => {
      const { resolve, reject } = pending.get(id);
      pending.delete(id);
      idle.push(thread);
      waiting.shift()?.();
      if (error) reject(new Error(`wasm-opt: ${[error, ...said].join('\n')}`));
      else resolve({ bytes: Buffer.from(bytes), said });
    });
    thread.on('error', (error) => {
      for (const { reject } of pending.values()) reject(error);
      pending.clear();
    });
  }
  const free = async () => {
    while (idle.length === 0) await new Promise((r) => waiting.push(r));
    return idle.pop();
  };
  return {
    async optimise(bytes) {
      const thread = await free();
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        thread.postMessage({ id, bytes });
      });
    },
    close: () => Promise.all(threads.map((t) => t.terminate())),
  };
}

if (!isMainThread) {
  // Binaryen prints through console.error (bound when it loads): caught here, so each
  // module's words go back with it and the caller decides what to show.
  let said = [];
  console.error = console.warn = console.log = (...words) => said.push(words.join(' '));
  const { default: binaryen } = await import('binaryen');
  parentPort.on('message', ({ id, bytes }) => {
    said = [];
    let module;
    try {
      module = binaryen.readBinary(bytes);
      if (!module.validate()) throw new Error('the module is not valid');
      binaryen.setOptimizeLevel(1);
      binaryen.setShrinkLevel(0);
      module.optimize();
      const out = module.emitBinary();
      parentPort.postMessage({ id, bytes: out, said: wasmOptComplaints(said.join('\n')) });
    } catch (error) {
      parentPort.postMessage({ id, error: String(error?.message ?? error), said: wasmOptComplaints(said.join('\n')) });
    } finally {
      module?.dispose();
    }
  });
}

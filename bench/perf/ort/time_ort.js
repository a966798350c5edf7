#!/usr/bin/env node
// Times one ONNX model with ONNX Runtime (CPU execution provider) through
// onnxruntime-node, for bench/perf/run.py.
//
//   node time_ort.js MODEL.onnx OUTDIR --runs N [--warmup W] [--threads T]
//                    [--profile FILE] IN0.npy [IN1.npy ...]
//
// The inputs (float32 .npy, C order) are fed to the graph inputs in
// declaration order. After W warm-up runs (default 5) it times N runs of
// session.run() one after the other (wall clock, process.hrtime around the
// awaited call: it includes the N-API binding's overhead, tens of
// microseconds) and writes the first run's outputs as OUTDIR/out<i>.npy so
// that the caller can check them against the reference. Prints one JSON line:
//   {"ort": version, "median_ms", "min_ms", "runs", "warmup", "threads",
//    "outputs": [...], "times_ms": [every run, in order]}
// Session options: intraOpNumThreads T (default 2), interOpNumThreads 1,
// executionMode "sequential", graphOptimizationLevel "all" (the default).
// --profile FILE turns on ORT's profiler and writes each node's mean time
// over the timed runs to FILE as JSON ({"nodes": [{name, op, ms_per_run}]},
// slowest first; names are those of ORT's optimized graph, which ends a
// fused convolution's name with its last fused node's output). The
// profiler's own cost is in the times then: for comparing kernels, not
// for the latency figures.
'use strict';

const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.toString('latin1', 1, 6) !== 'NUMPY')
    throw new Error(file + ': not a .npy file');
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', start, start + headerLen);
  if (!/'descr':\s*'<f4'/.test(header) ||
      /'fortran_order':\s*True/.test(header))
    throw new Error(file + ': need a C-order float32 array: ' + header);
  const shape = header.match(/'shape':\s*\(([^)]*)\)/)[1]
                    .split(',').map((s) => s.trim()).filter((s) => s)
                    .map(Number);
  const offset = start + headerLen;
  const bytes = buf.subarray(offset);
  const data = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(data.buffer).set(bytes);
  return new ort.Tensor('float32', data, shape);
}

function writeNpy(file, tensor) {
  if (tensor.type !== 'float32')
    throw new Error('output of type ' + tensor.type + ' not supported');
  const shape = tensor.dims.length === 1 ? '(' + tensor.dims[0] + ',)'
                                         : '(' + tensor.dims.join(', ') + ')';
  let header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape +
               ', }';
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  const data = Buffer.from(tensor.data.buffer, tensor.data.byteOffset,
                           tensor.data.byteLength);
  fs.writeFileSync(file, Buffer.concat([head, Buffer.from(header, 'latin1'),
                                        data]));
}

// Sums ORT's per-node kernel events of the timed runs (the first `warmup`
// events of each node are the warm-up runs') into `file`.
function writeNodeProfile(prefix, file, warmup, runs) {
  // ORT names the file PREFIX_<date>.json (and prints that name).
  const dir = path.dirname(prefix), base = path.basename(prefix) + '_';
  const found = fs.readdirSync(dir).filter(
      (f) => f.startsWith(base) && f.endsWith('.json'));
  if (found.length !== 1)
    throw new Error('cannot find ORT\'s profile ' + prefix + '_*.json');
  const rawFile = path.join(dir, found[0]);
  const events = JSON.parse(fs.readFileSync(rawFile, 'utf8'));
  const nodes = new Map();
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time')) continue;
    const name = e.name.slice(0, -'_kernel_time'.length);
    if (!nodes.has(name))
      nodes.set(name, {name, op: e.args.op_name, durations: []});
    nodes.get(name).durations.push(e.dur);
  }
  const out = [];
  for (const n of nodes.values()) {
    const timed = n.durations.slice(warmup);
    const us = timed.reduce((a, b) => a + b, 0);
    out.push({name: n.name, op: n.op, ms_per_run: us / 1000 / runs});
  }
  out.sort((a, b) => b.ms_per_run - a.ms_per_run);
  fs.writeFileSync(file, JSON.stringify({runs, nodes: out}, null, 1) + '\n');
  fs.unlinkSync(rawFile);
}

async function main() {
  const args = process.argv.slice(2);
  const opts = {runs: 30, warmup: 5, threads: 2};
  const positional = [];
  for (let i = 0; i < args.length; ++i) {
    const a = args[i];
    if (a === '--runs' || a === '--warmup' || a === '--threads')
      opts[a.slice(2)] = Number(args[++i]);
    else if (a === '--profile')
      opts.profile = args[++i];
    else
      positional.push(a);
  }
  if (positional.length < 3) {
    console.error('usage: time_ort.js MODEL.onnx OUTDIR --runs N IN.npy...');
    process.exit(2);
  }
  const [model, outdir, ...inputs] = positional;
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: opts.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableProfiling: Boolean(opts.profile),
    profileFilePrefix: opts.profile ? opts.profile + '.raw' : undefined,
  });
  if (inputs.length !== session.inputNames.length)
    throw new Error(model + ' has ' + session.inputNames.length +
                    ' inputs, got ' + inputs.length);
  const feeds = {};
  session.inputNames.forEach((n, i) => { feeds[n] = readNpy(inputs[i]); });

  let first = null;
  for (let i = 0; i < opts.warmup; ++i) {
    const r = await session.run(feeds);
    if (first === null) first = r;
  }
  const times = [];
  for (let i = 0; i < opts.runs; ++i) {
    const t0 = process.hrtime.bigint();
    const r = await session.run(feeds);
    const t1 = process.hrtime.bigint();
    times.push(Number(t1 - t0) / 1e6);
    if (first === null) first = r;
  }
  const inOrder = times.slice();
  times.sort((a, b) => a - b);
  const n = times.length;
  const median = n % 2 ? times[(n - 1) / 2]
                       : (times[n / 2 - 1] + times[n / 2]) / 2;

  fs.mkdirSync(outdir, {recursive: true});
  session.outputNames.forEach((name, i) => {
    writeNpy(path.join(outdir, 'out' + i + '.npy'), first[name]);
  });
  if (opts.profile) {
    session.endProfiling();
    writeNodeProfile(opts.profile + '.raw', opts.profile, opts.warmup,
                     opts.runs);
  }
  const version =
      require('onnxruntime-node/package.json').version;
  console.log(JSON.stringify({
    ort: version, median_ms: median, min_ms: times[0], runs: n,
    warmup: opts.warmup, threads: opts.threads,
    outputs: session.outputNames, times_ms: inOrder,
  }));
}

main().catch((e) => {
  // The stack first; the message last, where run.py's summary looks.
  if (e && e.stack) console.error(e.stack);
  console.error('time_ort.js: ' + (e && e.message ? e.message : e));
  process.exit(1);
});

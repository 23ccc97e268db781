// A stand-in for simt_serve (docs/playground.md) for working on the page without the C++ server:
// two made-up lessons, files kept in memory, runs that stream made-up output over two seconds.
//
//   node tools/mock-server.mjs PAGE.html [--port N]
//
// It prints the address line simt_serve prints: "simt playground: http://127.0.0.1:PORT/?token=T".
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

const page = process.argv[2];
if (!page) { console.error('usage: node tools/mock-server.mjs PAGE.html [--port N]'); process.exit(2); }
const portArg = process.argv.indexOf('--port');
const port = portArg > 0 ? Number(process.argv[portArg + 1]) : 0;
const token = randomBytes(12).toString('hex');

const racy = `#include <cstdio>\n\n__global__ void count(int* c) {\n    c[0] += 1;  // the race\n}\n\nint main() {\n    int* d;\n    cudaMalloc(&d, sizeof(int));\n    count<<<4, 64>>>(d);\n    std::printf("OK\\n");\n    return 0;\n}\n`;
const lessons = [
  { id: '01_threads', title: 'Threads, blocks and the grid', files: ['threads.cu'],
    readme: '# Threads\n\nEvery thread runs the kernel. <script>alert(1)</script> stays text.\n\n```\n./lab run 01_threads\n```\n',
    variants: [] },
  { id: '07_atomics', title: 'Atomics: the racy counter', files: ['atomics.cu', 'helper.h'],
    readme: '# Atomics\n\n`counter[0] += 1` is three steps.\n\n```\n./lab run 07_atomics -- nofence\n```\n',
    variants: [{ label: 'nofence', args: ['nofence'] }] },
];
const original = { '01_threads/threads.cu': racy.replace('c[0] += 1;  // the race', 'c[threadIdx.x] = 1;'),
  '07_atomics/atomics.cu': racy, '07_atomics/helper.h': '#pragma once\n' };
const work = new Map();
const runs = new Map();
let nextRun = 1;

function json(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
async function body(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text || '{}');
}

function startRun(lesson, mode, args) {
  const id = String(nextRun++);
  const text = work.get(`${lesson}/atomics.cu`) ?? original[`${lesson}/${lesson === '07_atomics' ? 'atomics.cu' : 'threads.cu'}`];
  const r = { id, state: 'building', output: '', exit: null, stopped: false, compile_errors: [], findings: [], report: false, timers: [] };
  runs.set(id, r);
  const bad = text.split('\n').findIndex((l) => l.includes('= ;'));
  const at = (ms, f) => r.timers.push(setTimeout(f, ms));
  if (bad >= 0) {
    at(400, () => { r.output += `atomics.cu:${bad + 1}:13: error: expected expression\n`; r.compile_errors = [{ file: 'atomics.cu', line: bad + 1, column: 13, message: 'expected expression' }]; r.state = 'done'; r.exit = 1; });
    return r;
  }
  at(300, () => { r.state = 'running'; r.output += `-- mode ${mode}${args.length ? `, args ${args.join(' ')}` : ''}\n`; });
  for (let i = 0; i < 6; ++i) at(400 + i * 250, () => { r.output += `line ${i} of the program's output\n`; });
  at(2000, () => {
    const raceLine = text.split('\n').findIndex((l) => l.includes('c[0] += 1')) + 1;
    r.output += 'OK\n';
    if (raceLine > 0 && mode === 'checked') {
      r.findings.push({ kind: 'data-race', file: `/mock/${lesson}/atomics.cu`, line: raceLine,
        sites: [{ file: `/mock/${lesson}/atomics.cu`, line: raceLine, access: 'read' }],
        text: `simt: data race (read after write) on global memory 'd'[0]\n  read at atomics.cu:${raceLine}` });
      r.output += `simt: data race (read after write) on global memory 'd'[0]\nsimt: 1 finding (1 data-race)\n`;
    } else r.output += 'simt: no findings (race, bounds, init, sync checked)\n';
    r.state = 'done'; r.exit = 0; r.report = mode === 'checked';
  });
  return r;
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  try {
    if (req.method === 'GET' && url.pathname === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      return res.end(readFileSync(page));
    }
    const report = url.pathname.match(/^\/run\/(\d+)\/report\.html$/);
    if (report) {
      if (url.searchParams.get('token') !== token) return json(res, 403, { error: 'no token' });
      res.writeHead(200, { 'Content-Type': 'text/html' });
      return res.end(`<!doctype html><h1>Report of run ${report[1]}</h1><p>A made-up report page.</p>`);
    }
    if (!url.pathname.startsWith('/api/')) return json(res, 404, { error: 'not found' });
    if (req.headers['x-simt-token'] !== token) return json(res, 403, { error: 'no token' });
    if (req.method === 'GET' && url.pathname === '/api/lessons') return json(res, 200, { lessons, gpu: false });
    if (url.pathname === '/api/file') {
      if (req.method === 'GET') {
        const key = `${url.searchParams.get('lesson')}/${url.searchParams.get('file')}`;
        if (!(key in original)) return json(res, 404, { error: 'no such file' });
        return json(res, 200, { text: work.get(key) ?? original[key], edited: work.has(key) });
      }
      const b = await body(req);
      work.set(`${b.lesson}/${b.file}`, b.text);
      return json(res, 200, { ok: true });
    }
    if (req.method === 'POST' && url.pathname === '/api/reset') {
      const b = await body(req);
      for (const key of [...work.keys()]) if (key.startsWith(`${b.lesson}/`)) work.delete(key);
      return json(res, 200, { ok: true });
    }
    if (req.method === 'POST' && url.pathname === '/api/run') {
      const b = await body(req);
      return json(res, 200, { id: startRun(b.lesson, b.mode, b.args || []).id });
    }
    const m = url.pathname.match(/^\/api\/run\/(\d+)(\/stop)?$/);
    if (m && runs.has(m[1])) {
      const r = runs.get(m[1]);
      if (m[2]) {
        r.timers.forEach(clearTimeout);
        if (r.state !== 'done') Object.assign(r, { state: 'done', stopped: true, exit: 130, output: `${r.output}simt: interrupted\n` });
        return json(res, 200, { ok: true });
      }
      const from = Number(url.searchParams.get('from') || 0);
      const done = r.state === 'done';
      return json(res, 200, { state: r.state, output: r.output.slice(from), next: r.output.length, exit: r.exit,
        stopped: r.stopped, compile_errors: done ? r.compile_errors : [], findings: done ? r.findings : [], report: done && r.report });
    }
    return json(res, 404, { error: 'not found' });
  } catch (error) {
    return json(res, 400, { error: String(error.message) });
  }
});
server.listen(port, '127.0.0.1', () => {
  console.log(`simt playground: http://127.0.0.1:${server.address().port}/?token=${token}`);
});

// The playground's server (tools/serve, docs/playground.md) tested over HTTP, as the page and a
// hostile page would talk to it: each case starts its own simt_serve on a free port with a state
// folder of its own (never a learner's working copies), reads the address line, and checks what
// the server answers and what it leaves on disk and in the process table.
//
//   node serve_test.mjs CASE SIMT_SERVE SOURCE_DIR BUILD_DIR STATE_DIR
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const [caseName, serverPath, sourceDir, buildDir, stateDir] = process.argv.slice(2);
const mineDir = path.join(sourceDir, 'tests/serve/mine');

function check(ok, what) {
  if (!ok) throw new Error(`not so: ${what}`);
  console.log(`ok: ${what}`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Starts simt_serve; resolves once it has printed its address.
function startServer(extra = []) {
  fs.rmSync(stateDir, { recursive: true, force: true });
  const proc = spawn(serverPath, ['--port', '0', '--root', sourceDir, '--build', buildDir,
                                  '--state', stateDir, ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    proc.on('exit', (code) => reject(new Error(`simt_serve ended (${code}) before printing its address`)));
    proc.stdout.on('data', (chunk) => {
      seen += chunk;
      const m = /^simt playground: http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{32})\n/.exec(seen);
      if (m) resolve({ proc, port: Number(m[1]), token: m[2] });
    });
  });
}

// One request; headers as given (Host included: node sends what it is told). token: false sends none.
function request(server, method, urlPath, { body, headers = {}, token = server.token } = {}) {
  const all = { Host: `127.0.0.1:${server.port}`, ...headers };
  if (token) all['X-Simt-Token'] = token;
  const data = body === undefined ? undefined : (typeof body === 'string' ? body : JSON.stringify(body));
  if (data !== undefined) all['Content-Type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, method, path: urlPath, headers: all }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => {
        let json = null;
        try { json = JSON.parse(text); } catch { /* a page, not JSON */ }
        resolve({ status: res.statusCode, json, text });
      });
    });
    req.on('error', reject);
    if (data !== undefined) req.write(data);
    req.end();
  });
}

async function runToEnd(server, id, limitMs = 120000) {
  const start = Date.now();
  for (;;) {
    const r = await request(server, 'GET', `/api/run/${id}?from=0`);
    if (r.json.state === 'done') return r.json;
    if (Date.now() - start > limitMs) throw new Error(`run ${id} did not end in ${limitMs} ms: ${JSON.stringify(r.json)}`);
    await sleep(100);
  }
}

async function untilOutput(server, id, text, limitMs = 60000) {
  const start = Date.now();
  for (;;) {
    const r = await request(server, 'GET', `/api/run/${id}`);
    if (r.json.output.includes(text)) return r.json;
    if (r.json.state === 'done') throw new Error(`run ${id} ended without printing '${text}': ${r.json.output}`);
    if (Date.now() - start > limitMs) throw new Error(`run ${id} did not print '${text}' in ${limitMs} ms`);
    await sleep(100);
  }
}

// The processes whose command line starts with the program's path.
function processesOf(program) {
  const found = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const argv0 = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
      if (argv0 === program) found.push(pid);
    } catch { /* gone meanwhile */ }
  }
  return found;
}

const cases = {
  // Another site open in the browser, or a request without the printed token, is refused.
  async safety(s) {
    const lessons = '/api/lessons';
    check((await request(s, 'GET', lessons)).status === 200, 'the listing answers with the token');
    check((await request(s, 'GET', lessons, { token: false })).status === 403, 'a request without the token is refused with 403');
    check((await request(s, 'GET', lessons, { token: '0'.repeat(32) })).status === 403, 'a request with a wrong token is refused with 403');
    check((await request(s, 'GET', lessons, { headers: { Origin: 'http://evil.example' } })).status === 403,
      'a request whose Origin is another site is refused with 403');
    check((await request(s, 'GET', lessons, { headers: { Origin: `http://localhost:${s.port}` } })).status === 200,
      'a request whose Origin is the server itself is answered');
    check((await request(s, 'GET', lessons, { headers: { Host: `evil.example:${s.port}` } })).status === 403,
      'a request with a foreign Host (DNS rebinding) is refused with 403');
    check((await request(s, 'GET', '/', { token: false, headers: { Host: `rebound.example:${s.port}` } })).status === 403,
      'even the page is refused under a foreign Host');
    check((await request(s, 'GET', '/', { token: false })).status === 200, 'the page itself needs no token');
    check((await request(s, 'GET', '/api/file?lesson=../../etc&file=passwd')).status === 404,
      'a lesson named by a path is not found (404)');
    check((await request(s, 'GET', '/api/file?lesson=07_atomics&file=../README.md')).status === 404,
      'a file named by a path is not found (404)');
    check((await request(s, 'GET', '/api/file?lesson=07_atomics&file=CMakeLists.txt')).status === 404,
      'a file of the lesson that is not listed is not found (404)');
    check((await request(s, 'GET', '/api/file?lesson=mine&file=spin.cu')).status === 404,
      'without a served folder there is no lesson "mine"');
    check((await request(s, 'PUT', '/api/file', { body: '{"lesson": "07_atomics"' })).status === 400,
      'a body that is not JSON is refused with 400');
    check((await request(s, 'GET', '/api/run/999')).status === 404, 'a run that never was is not found (404)');
    check((await request(s, 'GET', '/run/1/report.html?token=nope', { token: false })).status === 403,
      'a report page without the token is refused with 403');
  },

  // The listing holds each lesson's files, README and the variants its README runs.
  async lessons(s) {
    const r = await request(s, 'GET', '/api/lessons');
    check(typeof r.json.gpu === 'boolean', 'the listing says whether a GPU answers');
    const atomics = r.json.lessons.find((l) => l.id === '07_atomics');
    check(atomics && atomics.files.includes('atomics.cu'), 'lesson 07_atomics is listed with atomics.cu');
    check(atomics.title.startsWith('Atomics') && atomics.readme.startsWith('# Atomics'), "its title is its README's first line");
    check(atomics.variants.some((v) => JSON.stringify(v.args) === '["nofence"]' && v.label === 'nofence'),
      'its README\'s `./lab run 07_atomics nofence` is a variant with args ["nofence"]');
    const coalescing = r.json.lessons.find((l) => l.id === '14_coalescing');
    check(coalescing.variants.some((v) => JSON.stringify(v.args) === '["stride","8","16"]'),
      '`./lab run 14 --html -- stride 8 16` is a variant with args ["stride","8","16"], lab\'s --html dropped');
    check(!r.json.lessons.some((l) => l.id === 'mine'), 'without a folder there is no entry "mine"');
  },

  // Edits go to the working copy, never over the lesson's own file; Reset brings it back.
  async edits(s) {
    const own = fs.readFileSync(path.join(sourceDir, 'lessons/07_atomics/atomics.cu'), 'utf8');
    let r = await request(s, 'GET', '/api/file?lesson=07_atomics&file=atomics.cu');
    check(r.json.text === own && r.json.edited === false, 'a file not edited reads as the lesson has it');
    const edit = `// an edit\n${own}`;
    r = await request(s, 'PUT', '/api/file', { body: { lesson: '07_atomics', file: 'atomics.cu', text: edit } });
    check(r.status === 200 && r.json.ok === true, 'PUT saves an edit');
    r = await request(s, 'GET', '/api/file?lesson=07_atomics&file=atomics.cu');
    check(r.json.text === edit && r.json.edited === true, 'GET then returns the edit');
    check(fs.readFileSync(path.join(stateDir, 'work/07_atomics/atomics.cu'), 'utf8') === edit, 'the edit is in the working copy');
    check(fs.readFileSync(path.join(sourceDir, 'lessons/07_atomics/atomics.cu'), 'utf8') === own, "the lesson's own file is unchanged");
    r = await request(s, 'PUT', '/api/file', { body: { lesson: '07_atomics', file: '../x.cu', text: 'x' } });
    check(r.status === 404, 'PUT to a file not listed is refused with 404');
    r = await request(s, 'POST', '/api/reset', { body: { lesson: '07_atomics' } });
    check(r.status === 200 && r.json.ok === true, 'reset answers ok');
    r = await request(s, 'GET', '/api/file?lesson=07_atomics&file=atomics.cu');
    check(r.json.text === own && r.json.edited === false, "after reset the lesson's own text is back");
  },

  // Two runs go at once, each to its end; a third waits its turn (429).
  async runs(s) {
    const body = { lesson: '01_threads', mode: 'checked', args: [] };
    const [a, b] = await Promise.all([request(s, 'POST', '/api/run', { body }), request(s, 'POST', '/api/run', { body })]);
    check(a.status === 200 && b.status === 200 && a.json.id !== b.json.id, 'two runs of 01_threads start at once');
    const third = await request(s, 'POST', '/api/run', { body });
    check(third.status === 429, 'a third run while two are going is refused with 429');
    const [ra, rb] = await Promise.all([runToEnd(s, a.json.id), runToEnd(s, b.json.id)]);
    for (const [r, which] of [[ra, 'first'], [rb, 'second']]) {
      check(r.exit === 0 && r.stopped === false, `the ${which} run is done with exit 0`);
      check(/^OK$/m.test(r.output), `the ${which} run's output holds its OK`);
      check(r.report === true && Array.isArray(r.findings), `the ${which} run left a report page and its findings`);
    }
    const page = await request(s, 'GET', `/run/${a.json.id}/report.html?token=${s.token}`, { token: false });
    check(page.status === 200 && page.text.includes('simt-data'), 'the report page is served with token=');
    const part = await request(s, 'GET', `/api/run/${a.json.id}?from=${ra.next - 3}`);
    check(part.json.output.length === 3 && part.json.next === ra.next, 'from=N answers the output from byte N on');
    check((await request(s, 'POST', '/api/run', { body: { lesson: '01_threads', mode: 'gpu' } })).status ===
      ((await request(s, 'GET', '/api/lessons')).json.gpu ? 200 : 400), 'a GPU run is refused with 400 where no GPU answers');
  },

  // A compiler error in an edit is marked at its file and line.
  async compile_errors(s) {
    const own = fs.readFileSync(path.join(mineDir, 'spin.cu'), 'utf8');
    const lines = own.split('\n');
    const at = lines.findIndex((l) => l.startsWith('int main'));
    lines.splice(at + 1, 0, '    undeclared_name = 1;');
    await request(s, 'PUT', '/api/file', { body: { lesson: 'mine', file: 'spin.cu', text: lines.join('\n') } });
    const run = await request(s, 'POST', '/api/run', { body: { lesson: 'mine', mode: 'checked' } });
    const r = await runToEnd(s, run.json.id);
    check(r.exit !== 0, 'a build that fails is done with a non-zero exit');
    const e = r.compile_errors[0];
    check(e && e.file === 'spin.cu' && e.line === at + 2 && /undeclared_name/.test(e.message),
      `the error is at spin.cu:${at + 2} and names the undeclared name (${JSON.stringify(r.compile_errors)})`);
    check(fs.readFileSync(path.join(mineDir, 'spin.cu'), 'utf8') === own, "the served folder's own file is unchanged");
  },

  // Stop ends a run as Ctrl-C does: the program says which kernel it interrupted. Its spin runs
  // unchecked (spin.cu): checked, the simulator would soon report it as a deadlock and end.
  async stop(s) {
    const run = await request(s, 'POST', '/api/run', { body: { lesson: 'mine', mode: 'unchecked' } });
    await untilOutput(s, run.json.id, 'spinning');
    check((await request(s, 'POST', `/api/run/${run.json.id}/stop`)).json.ok === true, 'stop answers ok');
    const r = await runToEnd(s, run.json.id, 30000);
    check(r.state === 'done' && r.stopped === true, 'the stopped run is done, and says it was stopped');
    check(/interrupted[^\n]*kernel launched at spin\.cu/.test(r.output), `its output names the kernel it interrupted (${r.output.trim()})`);
    check(r.exit === 130, 'it ended with exit 130, as after Ctrl-C');
  },

  // A server killed with SIGKILL takes its runs' programs with it.
  async killed(s) {
    const run = await request(s, 'POST', '/api/run', { body: { lesson: 'mine', mode: 'unchecked' } });
    await untilOutput(s, run.json.id, 'spinning');
    const program = path.join(stateDir, 'runs', run.json.id, 'mine');
    check(processesOf(program).length === 1, 'the spinning program is running');
    s.proc.kill('SIGKILL');
    await sleep(1000);
    check(processesOf(program).length === 0, 'a second after the server was killed, no process runs the program');
  },

  // SIGTERM (or Ctrl-C) to the server ends its runs and the server, with exit 0.
  async terminated(s) {
    const run = await request(s, 'POST', '/api/run', { body: { lesson: 'mine', mode: 'unchecked' } });
    await untilOutput(s, run.json.id, 'spinning');
    const program = path.join(stateDir, 'runs', run.json.id, 'mine');
    const exited = new Promise((r) => s.proc.on('exit', (code) => r(code)));
    s.proc.kill('SIGTERM');
    check(await exited === 0, 'the server exits 0 on SIGTERM');
    await sleep(200);
    check(processesOf(program).length === 0, 'and no process runs the program after it');
  },
};

const withFolder = ['compile_errors', 'stop', 'killed', 'terminated'];
if (!cases[caseName]) {
  console.error(`serve_test.mjs: no case '${caseName}'; the cases are ${Object.keys(cases).join(', ')}`);
  process.exit(2);
}
const server = await startServer(withFolder.includes(caseName) ? [mineDir] : []);
try {
  await cases[caseName](server);
} catch (e) {
  console.error(e.message);
  process.exitCode = 1;
} finally {
  server.proc.kill('SIGKILL');
}

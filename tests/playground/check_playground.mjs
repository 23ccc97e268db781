// The playground (docs/playground.md) as a learner uses it, in Chromium driven by Playwright:
// lesson 07's race marked at its line, a variant's finding, an edit that fixes the race and
// survives a reload, a compile error at its line, and Stop ending a kernel that never ends.
// Stops at the first step that fails, saying which, with a full-page screenshot of each step.
//
//   node check_playground.mjs SIMT_SERVE --shots DIR [--mine FOLDER]
//
// SIMT_SERVE is started as `SIMT_SERVE --port 0 [FOLDER]` and its address line read from its
// output. SIMT_NODE_MODULES names the node_modules folder with playwright-core (the report page's,
// build/web/report/node_modules); CHROMIUM the browser (default /usr/bin/chromium).
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { mkdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

function usage(message) {
  console.error(`check_playground.mjs: ${message}\nusage: node check_playground.mjs SIMT_SERVE --shots DIR [--mine FOLDER]`);
  process.exit(2);
}
const argv = process.argv.slice(2);
const option = (name) => {
  const i = argv.indexOf(name);
  if (i < 0) return null;
  const value = argv[i + 1];
  argv.splice(i, 2);
  return value;
};
const shots = option('--shots');
const mine = option('--mine');
const serverPath = argv[0];
if (!serverPath || argv.length !== 1 || !shots) usage('a server and --shots are needed');
if (mine && !existsSync(mine)) usage(`no folder ${mine}`);
mkdirSync(shots, { recursive: true });

const nodeModules = resolve(process.env.SIMT_NODE_MODULES || 'node_modules');
const requireThere = createRequire(join(nodeModules, 'check_playground.mjs'));
const { chromium } = requireThere(join(nodeModules, 'playwright-core'));
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';

// Generous: a Run builds the lesson first (as ./lab run does), which on a cold build takes minutes.
const RUN_MS = 300_000;
const LESSON = '07_atomics';
const FILE = 'atomics.cu';

let server = null;
let serverOutput = '';
let browser = null;
let page = null;
let stepNumber = 0;
let stepName = '';

function startServer() {
  const args = ['--port', '0', ...(mine ? [mine] : [])];
  // SIMT_NODE_MODULES is this script's, not the runs': the simulator would warn of an unknown setting.
  const env = { ...process.env };
  delete env.SIMT_NODE_MODULES;
  server = spawn(serverPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  return new Promise((resolveAddress, reject) => {
    const timer = setTimeout(() => reject(new Error(`${serverPath} printed no address in 60 s; it said:\n${serverOutput}`)), 60_000);
    const look = (chunk) => {
      serverOutput += chunk;
      const m = serverOutput.match(/simt playground: (http:\/\/\S+)/);
      if (m) { clearTimeout(timer); resolveAddress(m[1]); }
    };
    server.stdout.on('data', look);
    server.stderr.on('data', look);
    server.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${serverPath} ${args.join(' ')} ended (${signal || `exit ${code}`}) before printing its address; it said:\n${serverOutput}`));
    });
  });
}

async function shot(name) {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

// One step: its name in the failure, and a screenshot of how the page looked when it failed.
async function step(name, body) {
  stepNumber += 1;
  stepName = name;
  console.log(`step ${stepNumber}: ${name}`);
  await body();
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

const text = (selector) => page.locator(selector).textContent();
const marks = () => page.evaluate(() => window.simtPlayground.diagnostics());
const marksText = (list) => list.map((d) => `  line ${d.line}: ${d.message}`).join('\n') || '  (none)';

async function pickLesson(id) {
  await page.click(`#lessons li[data-id="${id}"]`);
  await page.waitForSelector(`#lessons li.active[data-id="${id}"]`);
}

async function openFile(name) {
  await page.click(`#tabs button[data-file="${name}"]`);
  await page.waitForFunction((file) => window.simtPlayground.file() === file, name);
  await page.waitForSelector('#editor .cm-content');
}

// Waits for the run to end; returns the status line.
async function waitDone(what) {
  try {
    await page.waitForFunction(() => /^(done|stopped)/.test(document.querySelector('#status').textContent),
      null, { timeout: RUN_MS });
  } catch {
    throw new Error(`${what} did not end in ${RUN_MS / 1000} s: the status says "${await text('#status')}"; the output:\n${await text('#output')}`);
  }
  return text('#status');
}

// The editor's mark at `line`, looked at as the learner sees it: the line scrolled into view, its
// text underlined (.cm-lintRange-error), a marker in the gutter.
async function expectMarkAt(line, what) {
  const list = await marks();
  const mark = list.find((d) => d.line === line && d.severity === 'error');
  check(mark, `no error mark at line ${line} of ${await page.evaluate(() => window.simtPlayground.file())} (${what}); the marks:\n${marksText(list)}`);
  await page.evaluate((n) => {
    const { view } = window.simtPlayground;
    view.dispatch({ effects: view.constructor.scrollIntoView(view.state.doc.line(n).from, { y: 'center' }) });
  }, line);
  await page.waitForTimeout(100);
  const shown = await page.evaluate((lineText) => [...document.querySelectorAll('#editor .cm-line')]
    .some((el) => el.textContent === lineText && el.querySelector('.cm-lintRange-error')), mark.text);
  check(shown, `line ${line} has a mark, but the editor does not underline it (.cm-lintRange-error)`);
  check(await page.locator('#editor .cm-lint-marker-error').count() > 0, 'no error marker in the editor\'s gutter (.cm-lint-marker-error)');
  return mark;
}

// The run's report page, in its frame under the output, drawn.
async function expectReport() {
  const frame = page.locator('iframe#report');
  await frame.waitFor({ timeout: 10_000 }).catch(() => { throw new Error('no iframe#report after a checked run'); });
  const src = await frame.getAttribute('src');
  check(/^\/run\/[^/]+\/report\.html\?token=./.test(src), `the report frame's address is ${src}`);
  const inner = await (await frame.elementHandle()).contentFrame();
  await inner.waitForFunction(() => document.body && document.body.innerText.includes('simt report'), null, { timeout: 20_000 })
    .catch(() => { throw new Error(`the report frame (${src}) does not show a report page`); });
}

// Selects `from` in the editor's text (the first time it occurs) and types `to` over it, as keys.
async function typeOver(from, to) {
  const found = await page.evaluate((needle) => {
    const { view } = window.simtPlayground;
    const at = view.state.doc.toString().indexOf(needle);
    if (at < 0) return false;
    view.focus();
    view.dispatch({ selection: { anchor: at, head: at + needle.length }, scrollIntoView: true });
    return true;
  }, from);
  check(found, `the editor does not hold "${from}"`);
  await page.keyboard.type(to);
}

async function main() {
  const address = await startServer();
  console.log(`server: ${address}`);
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('dialog', (dialog) => dialog.accept());  // Reset's confirm

  await step('the page opens and lists the lessons', async () => {
    await page.goto(address);
    await page.waitForSelector(`#lessons li[data-id="${LESSON}"]`, { timeout: 30_000 });
    const lessons = await page.evaluate(async () => {
      const token = new URLSearchParams(location.search).get('token');
      return (await fetch('/api/lessons', { headers: { 'X-Simt-Token': token } })).json();
    });
    check(await page.locator('#run-gpu').isVisible() === !!lessons.gpu,
      `Run on GPU is ${await page.locator('#run-gpu').isVisible() ? 'shown' : 'hidden'} and the server says gpu: ${lessons.gpu}`);
    if (mine) check(await page.locator('#lessons li[data-id="mine"]').count() === 1, 'the served folder is not listed as "mine"');
  });

  await step(`${LESSON} opens with its README, and Reset brings back the lesson's version`, async () => {
    await pickLesson(LESSON);
    await page.waitForSelector('#readme h1');
    check((await text('#readme')).includes('atomicAdd'), 'the README does not mention atomicAdd');
    await page.click('#reset');
    await page.waitForFunction(() => !document.querySelector('#tabs').textContent.includes('(edited)'));
    await shot('01-lesson');
  });

  await step('Run: the program prints OK, the race is marked at line 25, and the report page shows', async () => {
    await page.click('button#run');
    await page.waitForFunction(() => /^(building|running|done)/.test(document.querySelector('#status').textContent));
    const status = await waitDone('The run of 07_atomics');
    check(status === 'done: exit 0', `the status says "${status}", not "done: exit 0"; the output:\n${await text('#output')}`);
    const output = await text('#output');
    check(/^OK$/m.test(output), `no "OK" line in the output:\n${output}`);
    check(output.includes('data race'), `the output does not tell the race:\n${output}`);
    check(await page.evaluate(() => window.simtPlayground.file()) === FILE, `the editor does not show ${FILE} after the run`);
    const mark = await expectMarkAt(25, 'the racy counter');
    check(mark.message.startsWith('data race'), `the mark at line 25 says "${mark.message}", not the race`);
    await expectReport();
    await shot('02-run');
  });

  await step('the variant nofence runs and marks the last-block sum\'s race at line 78', async () => {
    await page.click('#variants button[data-args="nofence"]');
    await page.waitForFunction(() => !document.querySelector('#status').textContent.startsWith('done'));
    const status = await waitDone('The run with nofence');
    check(status === 'done: exit 0', `the status says "${status}"; the output:\n${await text('#output')}`);
    check((await text('#output')).includes('(without the fence)'), 'the output does not say it ran without the fence');
    await expectMarkAt(78, 'the read of a partial sum without the fence');
    await expectMarkAt(25, 'the racy counter, still there');
    await expectReport();
    await shot('03-nofence');
  });

  await step('an edit to line 25 (atomicAdd) is typed, and its Run has no finding', async () => {
    await openFile(FILE);
    await typeOver('counter[0] += 1;', 'atomicAdd(&counter[0], 1);');
    await page.click('button#run');
    await page.waitForFunction(() => !document.querySelector('#status').textContent.startsWith('done'));
    const status = await waitDone('The run of the edited lesson');
    const output = await text('#output');
    check(status === 'done: exit 0', `the status says "${status}"; the output:\n${output}`);
    check(/^OK$/m.test(output), `no "OK" line in the output:\n${output}`);
    check(output.includes('simt: no findings'), `the output does not end "simt: no findings":\n${output}`);
    const list = await marks();
    check(!list.some((d) => d.line === 25), `line 25 is still marked:\n${marksText(list)}`);
    check(list.length === 0, `a finding-free run left marks:\n${marksText(list)}`);
    await expectReport();
    await shot('04-fixed');
  });

  await step('after a reload, the lesson opens with the edit', async () => {
    await page.reload();
    await page.waitForSelector(`#lessons li[data-id="${LESSON}"]`);
    await pickLesson(LESSON);
    await openFile(FILE);
    const line25 = await page.evaluate(() => window.simtPlayground.view.state.doc.line(25).text);
    check(line25.includes('atomicAdd(&counter[0], 1);'), `line 25 after the reload is "${line25}"`);
    check((await text('#tabs')).includes(`${FILE} (edited)`), 'the tab does not say the file is edited');
    await shot('05-reloaded');
  });

  let badLine = 0;
  await step('Reset, then a compile error in main is marked at its line and the run ends non-zero', async () => {
    await page.click('#reset');
    await page.waitForFunction(() => window.simtPlayground.view.state.doc.line(25).text.includes('counter[0] += 1;'));
    await openFile(FILE);
    badLine = await page.evaluate(() => {
      const { view } = window.simtPlayground;
      const doc = view.state.doc;
      for (let n = 1; n <= doc.lines; ++n) {
        const line = doc.line(n);
        if (line.text.startsWith('int main(')) {
          view.focus();
          view.dispatch({ selection: { anchor: line.to }, scrollIntoView: true });
          return n + 1;
        }
      }
      return 0;
    });
    check(badLine > 0, `no "int main(" line in ${FILE}`);
    await page.keyboard.press('Enter');
    await page.keyboard.type('int x = ;');
    await page.click('button#run');
    await page.waitForFunction(() => !document.querySelector('#status').textContent.startsWith('done'));
    const status = await waitDone('The run of the broken lesson');
    const exit = Number((status.match(/^done: exit (-?\d+)/) || [])[1]);
    check(exit && exit !== 0, `the status says "${status}", not "done: exit N" with N other than 0; the output:\n${await text('#output')}`);
    await expectMarkAt(badLine, 'the compile error');
    await shot('06-compile-error');
    await page.click('#reset');
    await page.waitForFunction(() => !window.simtPlayground.view.state.doc.toString().includes('int x = ;'));
  });

  if (mine) {
    await step('Stop ends a kernel that never ends (run unchecked): the status says stopped, the output interrupted', async () => {
      await pickLesson('mine');
      await openFile('spin.cu');
      // Unchecked: a checked run sees that nothing can change the flag and ends the spin itself,
      // as a deadlock; an unchecked one spins until its watchdog (SIMT_TIMEOUT, 30 s).
      await page.click('#run-unchecked');
      try {
        await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('running'), null, { timeout: RUN_MS });
      } catch {
        throw new Error(`spin.cu never ran: the status says "${await text('#status')}"; the output:\n${await text('#output')}`);
      }
      await page.waitForTimeout(2000);
      const still = await text('#status');
      check(still.startsWith('running'), `2 s into the spin the status says "${still}"`);
      await shot('07-spinning');
      await page.click('#stop');
      const status = await waitDone('The stopped run');
      check(status.startsWith('stopped'), `after Stop the status says "${status}"`);
      check((await text('#output')).includes('interrupted'), `the output does not say "interrupted":\n${await text('#output')}`);
      await shot('08-stopped');
    });
  }

  check(pageErrors.length === 0, `the page threw: ${pageErrors.join('; ')}`);
  console.log(`check_playground.mjs: every step passed; screenshots in ${shots}`);
}

let failed = false;
try {
  await main();
} catch (error) {
  failed = true;
  console.error(`check_playground.mjs: step ${stepNumber} (${stepName}) failed: ${error.message}`);
  if (page) await shot(`failed-step-${stepNumber}`).catch(() => {});
} finally {
  if (browser) await browser.close().catch(() => {});
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((done) => { server.once('exit', done); setTimeout(done, 5000); });
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  }
}
if (failed && serverOutput) console.error(`the server said:\n${serverOutput.slice(-4000)}`);
process.exit(failed ? 1 : 0);

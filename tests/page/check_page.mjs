// Opens a report page in headless Chromium, as a person would from disk, runs the checks of an
// expect file in order (clicks included), and saves a screenshot of the whole page to look at.
//
//   node check_page.mjs --page P.html --screenshot OUT.png --expect EXPECT.json
//
// EXPECT.json is a list of steps, each one of:
//   {"selector": css, "min_count": n}                  at least n elements match
//   {"selector": css, "count": n}                      exactly n match
//   {"selector": css, "text_contains": s}              the first match's text holds s
//   {"selector": css, "attr": name, "equals": v}       the first match's attribute is v
//   {"selector": css, "attr": name, "greater_than": v} ... is a number above v
//   {"click": css}                                     click the first match
//   {"visible": css}                                   the first match is in the viewport
//   {"shot": css, "file": name}                        save the first match's picture as name,
//                                                      beside --screenshot (the README's image)
//   {"overlap": [css_a, css_b]}                        some a and some b, on different data-row,
//                                                      overlap in [data-start, data-end): two
//                                                      operations at once on the timeline
// A step may carry "why": a sentence printed when it fails. Any console error or page error
// fails the run too. Exit 0 when every step passed, 1 otherwise (2: bad arguments).
//
// playwright-core comes from SIMT_NODE_MODULES (default: web/report/node_modules); the browser
// from CHROMIUM (default /usr/bin/chromium): the page must open with nothing downloaded.
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

function usage(message) {
  console.error(`check_page: ${message}\nusage: node check_page.mjs --page P.html --screenshot OUT.png --expect EXPECT.json`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({ options: { page: { type: 'string' }, screenshot: { type: 'string' }, expect: { type: 'string' } } }).values;
} catch (err) {
  usage(err.message);
}
if (!args.page || !args.expect) usage('--page and --expect are needed');
const pagePath = resolve(args.page);
if (!existsSync(pagePath)) usage(`no page at ${pagePath}`);
let steps;
try {
  steps = JSON.parse(readFileSync(args.expect, 'utf8'));
} catch (err) {
  usage(`cannot read ${args.expect}: ${err.message}`);
}
if (!Array.isArray(steps)) usage(`${args.expect} must hold a list of steps`);

const here = dirname(fileURLToPath(import.meta.url));
const nodeModules = resolve(process.env.SIMT_NODE_MODULES || join(here, '..', '..', 'web', 'report', 'node_modules'));
const requireThere = createRequire(join(nodeModules, 'check_page.mjs'));
const { chromium } = requireThere(join(nodeModules, 'playwright-core'));
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
if (!existsSync(executablePath)) usage(`no Chromium at ${executablePath} (set CHROMIUM, or apt-get install chromium)`);

const failures = [];
const fail = (text) => {
  failures.push(text);
  console.error(`FAIL ${text}`);
};

const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // The page must need nothing from the network: any request other than the file itself fails.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    fail(`the page asked the network for ${url}`);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('console', (msg) => { if (msg.type() === 'error') fail(`console error: ${msg.text()}`); });
  page.on('pageerror', (err) => fail(`page error: ${err.message}`));
  await page.goto(pathToFileURL(pagePath).href, { waitUntil: 'load' });

  for (const [i, step] of steps.entries()) {
    const name = `step ${i + 1} ${JSON.stringify(step)}`;
    const why = step.why ? ` — ${step.why}` : '';
    if (step.click) {
      const target = page.locator(step.click).first();
      if (!(await target.count())) { fail(`${name}: nothing matches ${step.click} to click${why}`); continue; }
      await target.click();
      continue;
    }
    if (step.visible) {
      const inView = await page.locator(step.visible).first().evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.bottom > 0 && r.top < window.innerHeight && r.height > 0;
      }).catch(() => false);
      if (!inView) fail(`${name}: ${step.visible} is not in view${why}`);
      continue;
    }
    if (step.shot) {
      const target = page.locator(step.shot).first();
      if (!(await target.count())) { fail(`${name}: nothing matches ${step.shot} to picture${why}`); continue; }
      await target.screenshot({ path: join(dirname(resolve(args.screenshot || args.page)), step.file) });
      continue;
    }
    if (step.overlap) {
      const spans = async (css) => page.locator(css).evaluateAll((els) => els.map((e) =>
        ({ row: e.getAttribute('data-row'), start: Number(e.getAttribute('data-start')), end: Number(e.getAttribute('data-end')) })));
      const [a, b] = [await spans(step.overlap[0]), await spans(step.overlap[1])];
      const found = a.some((p) => b.some((q) => p.row !== q.row && p.start < q.end && q.start < p.end));
      if (!found) fail(`${name}: no ${step.overlap[0]} (${a.length}) overlaps a ${step.overlap[1]} (${b.length}) of another row${why}`);
      continue;
    }
    if (!step.selector) { fail(`${name}: a step needs "selector", "click", "visible", "shot" or "overlap"`); continue; }
    const found = page.locator(step.selector);
    const count = await found.count();
    if ('min_count' in step) {
      if (count < step.min_count) fail(`${name}: ${count} elements match, at least ${step.min_count} expected${why}`);
      continue;
    }
    if ('count' in step) {
      if (count !== step.count) fail(`${name}: ${count} elements match, ${step.count} expected${why}`);
      continue;
    }
    if (!count) { fail(`${name}: nothing matches${why}`); continue; }
    const first = found.first();
    if ('text_contains' in step) {
      const text = (await first.textContent()) ?? '';
      if (!text.includes(step.text_contains))
        fail(`${name}: the text is ${JSON.stringify(text.slice(0, 300))}, which lacks ${JSON.stringify(step.text_contains)}${why}`);
    } else if ('attr' in step) {
      const value = await first.getAttribute(step.attr);
      if ('equals' in step && value !== String(step.equals))
        fail(`${name}: ${step.attr} is ${JSON.stringify(value)}, ${JSON.stringify(String(step.equals))} expected${why}`);
      if ('greater_than' in step && !(Number(value) > Number(step.greater_than)))
        fail(`${name}: ${step.attr} is ${JSON.stringify(value)}, above ${step.greater_than} expected${why}`);
    } else if (count < 1) {
      fail(`${name}: nothing matches${why}`);
    }
  }
  // Errors raised by the last clicks arrive a moment later.
  await page.waitForTimeout(100);
  if (args.screenshot) await page.screenshot({ path: args.screenshot, fullPage: true });
} finally {
  await browser.close();
}

if (failures.length) {
  console.error(`check_page: ${failures.length} check${failures.length === 1 ? '' : 's'} failed on ${args.page}`);
  process.exit(1);
}
console.log(`check_page: ${steps.length} steps passed on ${args.page}${args.screenshot ? `; screenshot ${args.screenshot}` : ''}`);

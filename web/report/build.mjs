// Builds the report page's template: src/main.js bundled by esbuild (one minified script) and
// src/page.css, both inlined into template.html, which keeps the slot the simulator fills with
// the run's data (sim/src/report/page.cpp).
//
//   node build.mjs OUT.html
//
// CMake runs it from the build folder, where `npm ci` installed the packages: SIMT_NODE_MODULES
// names that node_modules folder (default: node_modules beside this file), and every package,
// esbuild and d3 alike, is taken from there.
import { createRequire } from 'node:module';
import { readFileSync, renameSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const SLOT = '__SIMT_REPORT_DATA__';

function fail(message) {
  console.error(`build.mjs: ${message}`);
  process.exit(1);
}

const out = process.argv[2];
if (!out || process.argv.length > 3) fail('usage: node build.mjs OUT.html');

const nodeModules = resolve(process.env.SIMT_NODE_MODULES || join(here, 'node_modules'));
if (!existsSync(join(nodeModules, 'esbuild')))
  fail(`no esbuild in ${nodeModules}: run \`npm ci\` in web/report (or set SIMT_NODE_MODULES to the node_modules folder where it was run)`);
// A require() that looks in that folder only, whatever the working directory and NODE_PATH.
const requireThere = createRequire(join(nodeModules, 'build.mjs'));
const esbuild = requireThere(join(nodeModules, 'esbuild'));

const bundle = await esbuild.build({
  entryPoints: [join(here, 'src', 'main.js')],
  bundle: true,
  format: 'iife',
  minify: true,
  write: false,
  charset: 'utf8',
  target: ['es2020'],
  nodePaths: [nodeModules],
  logLevel: 'warning',
});
const js = bundle.outputFiles[0].text;
const css = readFileSync(join(here, 'src', 'page.css'), 'utf8');
const template = readFileSync(join(here, 'template.html'), 'utf8');

// What would end the inline <script> or <style> early, or give the simulator a second slot.
for (const [what, text] of [['script', js], ['styles', css]]) {
  if (/<\/(script|style)/i.test(text) || text.includes('<!--')) fail(`the ${what} hold "</script", "</style" or "<!--"`);
  if (text.includes(SLOT)) fail(`the ${what} hold the data slot's placeholder ${SLOT}`);
}

// Split and join, not String.replace: a "$&" in the bundle must stay as it is.
function put(text, marker, value) {
  const parts = text.split(marker);
  if (parts.length !== 2) fail(`template.html must hold ${marker} once`);
  return parts[0] + value + parts[1];
}
const page = put(put(template, '/*__SIMT_PAGE_CSS__*/', css), '/*__SIMT_PAGE_JS__*/', js);
if (page.split(SLOT).length !== 2) fail(`the page must hold ${SLOT} exactly once`);

// Whole or not at all: a half-written page must never look built to make.
mkdirSync(dirname(resolve(out)), { recursive: true });
const tmp = `${resolve(out)}.tmp`;
writeFileSync(tmp, page);
renameSync(tmp, resolve(out));
console.log(`build.mjs: ${out} (${(page.length / 1024).toFixed(0)} KiB: script ${(js.length / 1024).toFixed(0)} KiB, styles ${(css.length / 1024).toFixed(0)} KiB)`);

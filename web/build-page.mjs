// Builds one of simt's pages (web/report, web/playground): the package's src/main.js bundled by
// esbuild (one minified script) and src/page.css, both inlined into its template.html, written as
// one self-contained HTML file. Each package's build.mjs calls buildPage with its own folder.
//
// CMake runs it from the build folder, where `npm ci` installed the package's packages:
// SIMT_NODE_MODULES names that node_modules folder (default: node_modules beside the package),
// and every package, esbuild included, is taken from there.
import { createRequire } from 'node:module';
import { readFileSync, renameSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

function fail(message) {
  console.error(`build.mjs: ${message}`);
  process.exit(1);
}

// Split and join, not String.replace: a "$&" in the bundle must stay as it is.
function put(text, marker, value) {
  const parts = text.split(marker);
  if (parts.length !== 2) fail(`template.html must hold ${marker} once`);
  return parts[0] + value + parts[1];
}

/// `here`: the package's folder; `slot`: a placeholder the page must keep exactly once (the
/// report page's data slot, which the simulator fills), or none.
export async function buildPage(here, { slot } = {}) {
  const out = process.argv[2];
  if (!out || process.argv.length > 3) fail('usage: node build.mjs OUT.html');
  const nodeModules = resolve(process.env.SIMT_NODE_MODULES || join(here, 'node_modules'));
  if (!existsSync(join(nodeModules, 'esbuild')))
    fail(`no esbuild in ${nodeModules}: run \`npm ci\` in web/${basename(here)} (or set SIMT_NODE_MODULES to the node_modules folder where it was run)`);
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
  // A library's own patterns may hold "<!--" (marked's, the HTML comment it recognises), which an
  // inline <script> must not: each such "<" becomes "\x3C", the same character in a string or a
  // regular expression (the bundle is minified, so it is in one of those). One after a backslash
  // would change meaning.
  const rawJs = bundle.outputFiles[0].text;
  if (/\\(<!--|<\/script|<\/style)/i.test(rawJs))
    fail('the script holds "\\<!--", "\\</script" or "\\</style", which cannot be escaped');
  const js = rawJs.replace(/<(!--|\/script|\/style)/gi, '\\x3C$1');
  const css = readFileSync(join(here, 'src', 'page.css'), 'utf8');
  const template = readFileSync(join(here, 'template.html'), 'utf8');

  // What would end the inline <script> or <style> early, or give the simulator a second slot.
  for (const [what, text] of [['script', js], ['styles', css]]) {
    if (/<\/(script|style)/i.test(text) || text.includes('<!--')) fail(`the ${what} hold "</script", "</style" or "<!--"`);
    if (slot && text.includes(slot)) fail(`the ${what} hold the data slot's placeholder ${slot}`);
  }
  const page = put(put(template, '/*__SIMT_PAGE_CSS__*/', css), '/*__SIMT_PAGE_JS__*/', js);
  if (slot && page.split(slot).length !== 2) fail(`the page must hold ${slot} exactly once`);

  // Whole or not at all: a half-written page must never look built to make.
  mkdirSync(dirname(resolve(out)), { recursive: true });
  const tmp = `${resolve(out)}.tmp`;
  writeFileSync(tmp, page);
  renameSync(tmp, resolve(out));
  console.log(`build.mjs: ${out} (${(page.length / 1024).toFixed(0)} KiB: script ${(js.length / 1024).toFixed(0)} KiB, styles ${(css.length / 1024).toFixed(0)} KiB)`);
}

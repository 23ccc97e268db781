// Fills a built template with a run's data, as the simulator does (page_html in
// sim/src/report/page.cpp): the JSON in place of the placeholder, every '<' in it written
// "\u003c". A '<' appears only inside JSON strings, where the escape reads back the same, so no
// string can end the script element ("</script>") or put the HTML parser in the script's escaped
// state ("<!--"), where a "<script" in a later string would make the real "</script>" not count.
// For developing the page and for its tests.
//
//   node tools/fill.mjs TEMPLATE.html DATA.json OUT.html
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const [template, dataPath, out] = process.argv.slice(2);
if (!out) {
  console.error('usage: node fill.mjs TEMPLATE.html DATA.json OUT.html');
  process.exit(1);
}
const SLOT = '__SIMT_REPORT_DATA__';
const page = readFileSync(template, 'utf8');
const at = page.indexOf(SLOT);
if (at < 0) {
  console.error(`fill.mjs: ${template} has no ${SLOT}`);
  process.exit(1);
}
// Parsed and written again: the file must be JSON, and the page gets it on one line as the
// simulator writes it.
const json = JSON.stringify(JSON.parse(readFileSync(dataPath, 'utf8')))
  .replaceAll('<', '\\u003c');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, page.slice(0, at) + json + page.slice(at + SLOT.length));

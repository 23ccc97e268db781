// Checks the data in a report page against report.schema.json: the JSON in #simt-data taken out
// of the HTML (its "\u003c" escapes read back as "<", as the browser's JSON.parse reads them),
// validated with ajv.
//
//   node check_schema.mjs SCHEMA.json PAGE.html
//
// Packages come from SIMT_NODE_MODULES (default: web/report/node_modules), as for build.mjs.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const [schemaPath, pagePath] = process.argv.slice(2);
if (!pagePath) {
  console.error('usage: node check_schema.mjs SCHEMA.json PAGE.html');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const nodeModules = resolve(process.env.SIMT_NODE_MODULES || join(here, '..', '..', 'web', 'report', 'node_modules'));
const requireThere = createRequire(join(nodeModules, 'check_schema.mjs'));
const Ajv = requireThere(join(nodeModules, 'ajv')).default;

const html = readFileSync(pagePath, 'utf8');
const match = /<script id="simt-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html);
if (!match) {
  console.error(`check_schema: ${pagePath} has no <script id="simt-data" type="application/json"> element`);
  process.exit(1);
}
let data;
try {
  // JSON reads "\u003c" as "<" by itself: the escape is JSON's own.
  data = JSON.parse(match[1]);
} catch (err) {
  console.error(`check_schema: the data in ${pagePath} is not JSON: ${err.message}`);
  process.exit(1);
}
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));
if (validate(data)) {
  console.log(`check_schema: ${pagePath} matches ${schemaPath}`);
  process.exit(0);
}
console.error(`check_schema: ${pagePath} does not match ${schemaPath}:`);
for (const e of validate.errors.slice(0, 50))
  console.error(`  ${e.instancePath || '/'} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`);
if (validate.errors.length > 50) console.error(`  ... and ${validate.errors.length - 50} more`);
process.exit(1);

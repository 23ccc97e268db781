// Builds the report page's template (web/build-page.mjs): its scripts and styles inlined, and the
// slot the simulator fills with the run's data (sim/src/report/page.cpp) kept once.
//
//   node build.mjs OUT.html
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPage } from '../build-page.mjs';

await buildPage(dirname(fileURLToPath(import.meta.url)), { slot: '__SIMT_REPORT_DATA__' });

// Builds the playground page (docs/playground.md; web/build-page.mjs): CodeMirror and marked
// among its scripts, one self-contained file that simt_serve hands out at GET /.
//
//   node build.mjs OUT.html
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPage } from '../build-page.mjs';

await buildPage(dirname(fileURLToPath(import.meta.url)));

// #summary: which program ran, how it ended, on which simulated GPU, what was found and what
// the page kept of it.
import { h, int, plural, si } from './dom.js';

// What each way of ending means, said to someone who has not met the word.
const ENDINGS = {
  error: 'it stopped on an error',
  fault: 'it stopped on a fault',
  deadlock: 'it stopped in a deadlock',
  interrupted: 'it was interrupted',
  watchdog: "it ran longer than simt's watchdog allows, and was stopped",
};

export function renderSummary(data, sections) {
  const root = h('section', { id: 'summary', class: 'panel' });
  root.append(h('h1', {}, 'simt report: ', h('span', { class: 'program' }, data.program || '(unnamed program)')));

  const ended = data.ended ?? { how: 'normally' };
  if (ended.how === 'normally') {
    root.append(h('p', { class: 'ended normal' }, 'The program ended normally',
      ended.status !== undefined ? ` (exit status ${ended.status})` : '', '.'));
  } else {
    // Everything below may be incomplete: say so first, where it cannot be missed.
    root.append(h('div', { class: 'ended stopped', role: 'alert' },
      h('strong', {}, 'the program stopped: '), h('span', { class: 'ended-text' }, ended.text || ENDINGS[ended.how] || ended.how),
      ended.status !== undefined ? h('span', { class: 'status' }, ` (exit status ${ended.status})`) : null,
      h('p', {}, `How: ${ENDINGS[ended.how] ?? ended.how}. What the page shows is what the run saw up to then.`)));
  }

  const device = data.device ?? {};
  const roofs = device.roofs ?? {};
  root.append(h('p', { class: 'device' },
    'Simulated GPU: ', h('strong', {}, device.name ?? '?'), device.key ? ` (SIMT_DEVICE=${device.key})` : '',
    device.multiprocessors ? `, ${plural(device.multiprocessors, 'multiprocessor')}` : '',
    device.max_warps_per_multiprocessor ? `, up to ${device.max_warps_per_multiprocessor} warps each` : '',
    roofs.ops_per_s ? `; its model's peaks: ${si(roofs.ops_per_s, 'ops/s')} and ${si(roofs.dram_bytes_per_s, 'B/s')} from DRAM.` : '.'));

  const findings = data.findings ?? [];
  const launches = data.launches ?? [];
  const bounds = data.bounds ?? {};
  const kinds = {};
  for (const f of findings) kinds[f.kind] = (kinds[f.kind] ?? 0) + 1;
  const kindText = Object.entries(kinds).map(([k, n]) => `${n} ${k}`).join(', ');
  root.append(h('p', { class: 'counts' },
    h('strong', { class: 'finding-count' }, plural(findings.length, 'finding')),
    kindText ? ` (${kindText})` : '',
    bounds.findings_dropped ? `, and ${plural(bounds.findings_dropped, 'more finding')} not kept on this page` : '',
    '; ', h('strong', { class: 'launch-count' }, plural(launches.length, 'kernel launch', 'kernel launches')),
    bounds.launches_dropped ? `, and ${plural(bounds.launches_dropped, 'more launch', 'more launches')} not kept` : '',
    '.'));

  root.append(h('p', { class: 'kept' }, h('strong', {}, 'What was kept: '), keptText(bounds), '.'));

  if (sections.length) {
    root.append(h('nav', { class: 'toc', 'aria-label': 'sections' }, 'On this page: ',
      sections.map(([id, title], i) => [i ? ' · ' : '', h('a', { href: `#${id}` }, title)])));
  }
  return root;
}

/// bounds, as a sentence: what the pictures were cut down to.
function keptText(b) {
  const parts = [];
  if (b.samples_per_line !== undefined)
    parts.push(`${plural(b.samples_per_line, 'sampled warp')} per line (the first and the costliest)`);
  if (b.divergence_warps !== undefined)
    parts.push(`the first block's first ${plural(b.divergence_warps, 'warp')} for divergence`);
  if (b.elements_per_array !== undefined)
    parts.push(`arrays drawn up to ${int(b.elements_per_array)} elements`);
  if (b.findings !== undefined) parts.push(`the first ${plural(b.findings, 'finding')}`);
  if (b.launches_kept !== undefined) parts.push(`the first ${plural(b.launches_kept, 'launch', 'launches')}`);
  return parts.join(', ');
}

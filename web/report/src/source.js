// #source: each source file the run touched, its lines numbered, with the counters of every
// launch in a margin beside the lines they count, and a mark on each line a finding names.
// Clicking a counted line shows its sampled requests in #access and #divergence.
import { group } from 'd3-array';
import { h, baseName, count, fixed1, int, place, sameFile, modelled } from './dom.js';
import { accessName, costClass, costRatio, countedLines, perRequest, selectionAt } from './lines.js';

// The Nsight Compute metric a line's cost is the model of, for the margin's hover text.
const METRIC = {
  'global load': 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum',
  'global store': 'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum',
  'global atomic': 'l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum',
  'global reduction': 'l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum',
  'shared load': 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum',
  'shared store': 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum',
  'shared atomic': 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum',
};

/// One entry's counters as the margin says them: "32.0 sectors/req (ideal 4.0)", "32-way", ...
function counterParts(rec) {
  const parts = [perRequest(rec)];
  const req = rec.requests || 0;
  const ways = Math.max(0, ...(rec.samples ?? []).map((s) => s.conflict_ways ?? 0));
  if (ways > 1) parts.push(`${ways}-way`);
  if (req && rec.lanes < req * 32) parts.push(`active lanes ${fixed1(rec.lanes / req)}/32`);
  if (rec.unit !== 'requests' && req) parts.push(`${count(req)} req`);
  return parts;
}

function hoverText(list) {
  const rec = list[0].rec;
  const metric = METRIC[accessName(rec)];
  const lines = list.slice(0, 12).map(({ li, launch, rec: r }) =>
    `launch ${li + 1} (${launch.kernel}): ${int(r.requests)} requests, ${int(r.actual)} ${r.unit} (ideal ${int(r.ideal)}), ` +
    `${int(r.lanes)} active lanes, ${int(r.partial)} requests with fewer lanes than the warp` + (r.array ? `, array ${r.array}` : ''));
  const shown = list.length > 1 ? [`${list.length} launches made this access; the margin shows launch ${list[0].li + 1}'s counts.`] : [];
  if (list.length > 12) lines.push(`… and ${list.length - 12} more launches`);
  return [`${accessName(rec)} at ${place(rec.file, rec.line)}${metric ? ` — ${metric}` : ''} (modelled, not measured)`, ...shown, ...lines].join('\n');
}

/// Brings a line into its file's view, a third of the way down, if it is not in view already.
function scrollWithin(view, el) {
  const top = el.offsetTop, bottom = top + el.offsetHeight;
  if (top >= view.scrollTop && bottom <= view.scrollTop + view.clientHeight) return;
  view.scrollTop = Math.max(0, top - view.clientHeight / 3);
}

export function renderSource(data, ctx) {
  const sources = data.sources ?? [];
  const root = h('section', { id: 'source', class: 'panel' }, h('h2', {}, 'Source'),
    h('p', { class: 'intro' },
      'Each line that reached memory has its counters in the margin: what one warp-level request cost on average, in 32-byte ',
      h('em', {}, 'sectors'), ' (global memory) or ', h('em', {}, 'wavefronts'), ' (shared memory), beside the least the same bytes could cost (ideal). ',
      'These are the simulator\'s counts of what Nsight Compute would measure: ', modelled(), '. ',
      'Click a line with counters to see a warp\'s request drawn below.'),
    h('p', { class: 'legend-line' }, 'Cost over ideal: ',
      h('span', { class: 'chip cost-ok' }, 'under 2×'), ' ', h('span', { class: 'chip cost-some' }, '2× to 4×'), ' ',
      h('span', { class: 'chip cost-high' }, 'over 4×'), ' · ',
      h('span', { class: 'finding-mark' }, 'finding'), ' a line a finding names'));

  // Counted entries and findings by file:line (files by base name, as reports name them): the
  // margin and the marks. A finding marks its reported line and the lines of its sites.
  const key = (file, line) => `${baseName(file)}:${line}`;
  const counted = group(countedLines(data), (e) => key(e.rec.file, e.rec.line));
  const marks = new Map();
  for (const f of data.findings ?? [])
    for (const p of [f, ...(f.sites ?? [])]) {
      const k = key(p.file, p.line);
      if (!marks.has(k)) marks.set(k, new Set());
      marks.get(k).add(f);
    }
  const lineEls = [];

  for (const src of sources) {
    const view = h('div', { class: 'src-view' });
    const box = h('div', { class: 'src-file' },
      h('h3', {}, h('code', {}, src.file), src.path && src.path !== src.file ? h('span', { class: 'path' }, ` ${src.path}`) : null),
      view);
    (src.lines ?? []).forEach((text, i) => {
      const n = i + 1;
      const here = counted.get(key(src.file, n)) ?? [];
      const found = [...(marks.get(key(src.file, n)) ?? [])];
      const el = h('div', { class: 'src-line', 'data-file': src.file, 'data-line': n });

      // The margin: one chip per kind of access; several launches of one kind show the first.
      const margin = h('span', { class: 'counters' });
      for (const [name, list] of group(here, (e) => accessName(e.rec))) {
        const rec = list[0].rec;
        margin.append(h('span', { class: `chip ${costClass(rec)}`, title: hoverText(list) },
          h('b', {}, name), ' ', counterParts(rec).concat(list.length > 1 ? [`×${list.length}`] : [])
            .map((part, i) => [i ? ' · ' : '', h('span', { class: 'part' }, part)])));
      }
      const kinds = [...new Set(found.map((f) => f.kind))];
      const mark = h('span', { class: 'mark' }, kinds.map((k) => h('span', { class: 'finding-mark', 'data-kind': k }, k)));
      el.append(margin, h('span', { class: 'ln' }, String(n)), mark, h('code', { class: 'code' }, text.length ? text : ' '));

      if (found.length) {
        el.classList.add('has-finding');
        el.title = found.map((f) => f.text?.split('\n')[0] ?? f.kind).join('\n');
      }
      if (here.length) {
        el.classList.add('counted');
        // The line's mark takes the colour of its costliest access.
        el.dataset.cost = costClass(here.reduce((a, b) => ((costRatio(b.rec) ?? 0) > (costRatio(a.rec) ?? 0) ? b : a)).rec);
        el.tabIndex = 0;
        const choose = () => ctx.select(selectionAt(data, src.file, n));
        el.addEventListener('click', choose);
        el.addEventListener('keydown', (e) => { if (e.key === 'Enter') choose(); });
      }
      lineEls.push(el);
      view.append(el);
    });
    // Columns as wide as this file needs: no margin where nothing was counted, the marks as
    // wide as the longest kind named (about 6.5 px a character at their size).
    const kindsHere = [...marks.entries()].filter(([k]) => k.startsWith(`${baseName(src.file)}:`))
      .flatMap(([, fs]) => [...fs].map((f) => f.kind.length));
    view.style.setProperty('--mark-w', `${kindsHere.length ? Math.max(...kindsHere) * 6.5 + 16 : 12}px`);
    if (!view.querySelector('.src-line.counted')) view.classList.add('no-counters');
    if (src.truncated)
      box.append(h('p', { class: 'note' }, `The file goes on past line ${src.lines.length}; the page keeps its first lines only.`));
    root.append(box);
  }

  // The selected line, marked wherever it is, and scrolled into its file's view (the view only:
  // the page stays where the reader is). The first time, every other file shows its first
  // marked line instead of its includes.
  let first = true;
  ctx.onSelect((sel) => {
    let chosen = null;
    for (const el of lineEls) {
      const on = Number(el.dataset.line) === sel.rec.line && sameFile(el.dataset.file, sel.rec.file);
      el.classList.toggle('selected', on);
      if (on) chosen = el;
    }
    if (first) {
      for (const view of root.querySelectorAll('.src-view')) {
        const mark = view.querySelector('.src-line.has-finding, .src-line.counted');
        if (mark && !(chosen && view.contains(chosen))) scrollWithin(view, mark);
      }
      first = false;
    }
    if (chosen) scrollWithin(chosen.parentElement, chosen);
  });
  // A finding's click: the line brought to the middle of its file's view, and flashed.
  ctx.showLine = (file, line) => {
    const el = lineEls.find((e) => Number(e.dataset.line) === line && sameFile(e.dataset.file, file));
    if (!el) return false;
    el.scrollIntoView({ block: 'center' });
    el.classList.remove('flash');
    void el.offsetWidth;  // restart the animation when the same line is shown again
    el.classList.add('flash');
    return true;
  };
  return root;
}

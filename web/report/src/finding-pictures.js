// The picture under each finding, drawn from its `picture` object (one function per kind; see
// report.schema.json and sim/src/report/page.cpp's picture()). Each draws what is there and
// returns null when it has too little, and the finding then shows its text alone.
import { create } from 'd3-selection';
import { scaleBand, scaleLinear } from 'd3-scale';
import { axisBottom, axisLeft, axisTop } from 'd3-axis';
import { range } from 'd3-array';
import { h, int, place, plural, triple } from './dom.js';

const CELL = 18;       // one element's square, in pixels
const MAX_ROW = 48;    // cells drawn in one row of a 1-D array
const MAX_ROWS = 12;   // rows drawn of a 2-D array

export function drawPicture(finding) {
  const p = finding.picture;
  if (!p || typeof p !== 'object') return null;
  switch (finding.kind) {
    case 'data-race': return raceArray(finding, p);
    case 'out-of-bounds':
    case 'use-after-free': return outOfBounds(finding, p);
    case 'uninitialized-read': return neverWritten(finding, p);
    case 'deadlock':
    case 'barrier-divergence': return blockThreads(p, p.waiting ?? [], p.ended ?? [], 'exited');
    case 'barrier-exit': return blockThreads(p, [], p.exited_threads ?? [], 'finished without reaching the barrier');
    case 'warp-mask':
    case 'warp-divergence': return warpLanes(p);
    default: return null;
  }
}

/// `count` indices around `at`, inside [lo, hi): the cells a picture draws of a longer array.
function windowAround(at, count, lo, hi) {
  const first = Math.max(lo, Math.min(at - Math.floor(count / 2), hi - count));
  return [first, Math.min(hi, first + count)];
}

const figure = (svg, ...caption) =>
  h('figure', { class: 'finding-picture' }, svg.node(), caption.some(Boolean) ? h('figcaption', {}, caption) : null);

const threadText = (t) =>
  `block ${triple(t.block)} thread ${triple(t.thread)}${t.access ? `, ${t.access}` : ''}${t.file ? ` at ${place(t.file, t.line)}` : ''}`;

/// The cells of an array around element `at`: a grid of rows where the picture gives the array
/// two dimensions (shape), one row otherwise, with room on the right for labels. `classOf(i)`
/// names each cell's classes. Returns the svg, the element's centre and a sentence on the window.
function arrayGrid(finding, p, at, classOf, { right = 0, minHeight = 0 } = {}) {
  const shape = Array.isArray(p.shape) && p.shape.length === 2 ? p.shape : null;
  const cols = shape ? shape[1] : p.elements;
  const row = shape ? Math.floor(at / cols) : 0;
  const col = shape ? at % cols : at;
  const [r0, r1] = windowAround(row, MAX_ROWS, 0, shape ? shape[0] : 1);
  const [c0, c1] = windowAround(col, shape ? 32 : MAX_ROW, 0, cols);
  const rows = range(r0, r1), columns = range(c0, c1);

  const margin = { top: 34, left: shape ? 44 : 12 };
  const gridW = columns.length * CELL, gridH = rows.length * CELL;
  const width = margin.left + gridW + right, height = Math.max(margin.top + gridH + 30, minHeight);
  const x = scaleBand().domain(columns).range([margin.left, margin.left + gridW]);
  const y = scaleBand().domain(rows).range([margin.top, margin.top + gridH]);
  const svg = create('svg').attr('class', 'cells').attr('width', width).attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`);
  const everyN = (list, n) => list.filter((v) => v % n === 0);
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${margin.top})`)
    .call(axisTop(x).tickValues(everyN(columns, shape ? 4 : 8)).tickSizeOuter(0));
  if (shape)
    svg.append('g').attr('class', 'axis').attr('transform', `translate(${margin.left},0)`)
      .call(axisLeft(y).tickValues(everyN(rows, 2)).tickSizeOuter(0));
  const cells = svg.append('g');
  for (const r of rows)
    for (const c of columns) {
      const i = shape ? r * cols + c : c;
      cells.append('rect').attr('class', ['cell', classOf(i)].filter(Boolean).join(' '))
        .attr('x', x(c)).attr('y', y(r)).attr('width', x.bandwidth()).attr('height', y.bandwidth())
        .append('title').text(shape ? `${finding.array}[${r}][${c}] (element ${i})` : `${finding.array}[${i}]`);
    }
  const total = shape ? shape[0] * shape[1] : p.elements;
  const shown = rows.length * columns.length;
  const note = [shape ? `${finding.array} is ${shape[0]}×${shape[1]}` : `${finding.array} has ${plural(total, 'element')}`,
    shown < total ? shape
      ? `; rows ${r0}–${r1 - 1} and columns ${c0}–${c1 - 1} are drawn, around the element`
      : `; elements ${c0}–${c1 - 1} are drawn, around the element` : '', '.'].join('');
  return { svg, centre: [x(col) + x.bandwidth() / 2, y(row) + y.bandwidth() / 2], labelsX: margin.left + gridW + 40, top: margin.top, note };
}

// A data race: the array, its contended element, and the two threads that met there.
function raceArray(finding, p) {
  if (!(p.elements > 0) || p.element === undefined) return null;
  const threads = (p.threads ?? []).slice(0, 2);
  const { svg, centre: [ex, ey], labelsX, top, note } = arrayGrid(finding, p, p.element,
    (i) => (i === p.element ? 'race-element' : ''), { right: 460, minHeight: 34 + 40 + threads.length * 42 });
  svg.classed('race', true);
  // The two threads, right of the array, each with a line to the element they both touched.
  threads.forEach((t, k) => {
    const ty = top + 14 + k * 42;
    const g = svg.append('g').attr('class', `race-thread access-${t.access ?? 'unknown'}`);
    g.append('path').attr('class', 'pointer').attr('d', `M${labelsX - 6},${ty - 4} L${ex},${ey}`);
    g.append('text').attr('x', labelsX).attr('y', ty).attr('class', 'label strong')
      .text(`block ${triple(t.block)} thread ${triple(t.thread)}`);
    g.append('text').attr('x', labelsX).attr('y', ty + 15).attr('class', 'label')
      .text(`${t.access ?? 'access'}${t.file ? ` at ${place(t.file, t.line)}` : ''}`);
  });
  return figure(svg, p.ordered_by ? h('div', { class: 'ordered-by' }, p.ordered_by) : null, h('div', { class: 'note' }, note));
}

// Out of bounds: the array's last elements, the red zone past its end, and where the index fell.
function outOfBounds(finding, p) {
  if (!(p.elements >= 0) || p.index === undefined) return null;
  const n = p.elements, red = p.red_zone_elements ?? 0, at = p.index;
  const keys = [];  // what each drawn cell is: an element, a red-zone element, or a gap
  const push = (i, kind) => keys.push({ key: `${kind}:${i}`, i, kind });
  const gap = (where) => keys.push({ key: `gap:${where}`, kind: 'gap' });
  if (at < 0) {
    push(at, 'outside');
    gap('before');
    range(0, Math.min(n, 16)).forEach((i) => push(i, 'element'));
  } else {
    const [a0, a1] = at < n ? windowAround(at, 24, 0, n) : [Math.max(0, n - 16), n];
    if (a0 > 0) gap('head');
    range(a0, a1).forEach((i) => push(i, 'element'));
    if (a1 < n) gap('tail');
    if (at >= n) {
      // Near the end: the red zone cell by cell up to the index; far: its start, a gap, the index.
      const near = at - n < 16;
      const redEnd = Math.min(n + red, near ? Math.max(at + 4, n + 8) : n + 8);
      range(n, redEnd).forEach((i) => push(i, 'red'));
      if (at >= redEnd) {
        gap('red');
        push(at, at < n + red ? 'red' : 'outside');
      }
    } else if (red) range(n, n + Math.min(red, 8)).forEach((i) => push(i, 'red'));
  }

  const width = Math.max(640, keys.length * (CELL + 4) + 40), height = 118;
  const x = scaleBand().domain(keys.map((k) => k.key)).range([20, 20 + keys.length * (CELL + 4)]).paddingInner(0.15);
  const svg = create('svg').attr('class', 'cells oob').attr('width', width).attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`);
  const top = 46;
  for (const k of keys) {
    if (k.kind === 'gap') {
      svg.append('text').attr('class', 'label gap').attr('x', x(k.key) + x.bandwidth() / 2).attr('y', top + CELL - 4)
        .attr('text-anchor', 'middle').text('…');
      continue;
    }
    const cls = ['cell', k.kind === 'red' ? 'red-zone' : k.kind === 'outside' ? 'outside' : '', k.i === at ? 'oob-index' : '']
      .filter(Boolean).join(' ');
    const rect = svg.append('rect').attr('class', cls).attr('x', x(k.key)).attr('y', top)
      .attr('width', x.bandwidth()).attr('height', CELL);
    rect.append('title').text(k.kind === 'element' ? `${finding.array}[${k.i}]`
      : k.kind === 'red' ? `[${k.i}]: the red zone past the end` : `[${k.i}]: outside the array`);
  }
  // Index labels under a few cells: the bad one first, then the ends of the parts, each only
  // where it keeps clear of those already placed.
  const cellsOnly = keys.filter((k) => k.kind !== 'gap');
  const candidates = [cellsOnly.find((k) => k.i === at), cellsOnly[0], cellsOnly.find((k) => k.i === n - 1),
    cellsOnly.find((k) => k.i === n), cellsOnly[cellsOnly.length - 1]].filter(Boolean);
  const labelled = [];
  for (const k of candidates)
    if (labelled.every((o) => Math.abs(keys.indexOf(o) - keys.indexOf(k)) >= 3)) labelled.push(k);
  const axis = axisBottom(x).tickValues(labelled.map((k) => k.key)).tickFormat((key) => key.split(':')[1]).tickSizeOuter(0);
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${top + CELL})`).call(axis);
  svg.select('.axis .domain').remove();

  // Brackets naming the parts.
  const span = (kind) => keys.filter((k) => k.kind === kind);
  const bracket = (list, text, cls) => {
    if (!list.length) return;
    const x0 = x(list[0].key), x1 = x(list[list.length - 1].key) + x.bandwidth();
    svg.append('path').attr('class', `bracket ${cls}`).attr('d', `M${x0},${top - 6} V${top - 10} H${x1} V${top - 6}`);
    svg.append('text').attr('class', `label ${cls}`).attr('x', x0).attr('y', top - 14).text(text);
  };
  bracket(span('element'), `${finding.array}: ${int(n)} elements, 0..${int(n - 1)}`, 'array-part');
  bracket(span('red'), red ? `red zone: ${int(red)} elements past the end` : '', 'red-part');
  const bad = keys.find((k) => k.i === at && k.kind !== 'gap');
  if (bad) {
    const bx = x(bad.key) + x.bandwidth() / 2;
    svg.append('text').attr('class', 'label strong oob-label').attr('x', bx).attr('y', top + CELL + 40)
      .attr('text-anchor', bx > width - 160 ? 'end' : 'middle').text(`the ${p.threads?.[0]?.access ?? 'access'} lands here`);
  }

  const threads = p.threads ?? [];
  const list = threads.length ? h('ul', { class: 'thread-list' }, threads.slice(0, 8).map((t) => h('li', {}, threadText(t))),
    (p.threads_total ?? threads.length) > Math.min(threads.length, 8)
      ? h('li', { class: 'note' }, `${int(p.threads_total ?? threads.length)} threads in all made this access`) : null) : null;
  return h('div', {}, figure(svg, h('span', { class: 'note' },
    at >= n && at < n + red
      ? 'The index lies in the red zone simt keeps past every array: the access landed there harmlessly, and was caught.'
      : at >= n ? 'The index lies past the red zone.' : at < 0 ? 'The index is negative: before the array.' : '')), list);
}

// A read of memory never written: the array, the unwritten ranges shaded, the element read.
function neverWritten(finding, p) {
  if (!(p.elements > 0) || p.index === undefined) return null;
  const n = p.elements, at = p.index;
  const ranges = (p.never_written ?? []).filter((r) => Array.isArray(r) && r.length === 2);
  const unwritten = (i) => ranges.some(([a, b]) => i >= a && i <= b);
  const caption = h('span', { class: 'note' },
    'Shaded: never written before the read, as far as simt knew at the time of the read. Outlined: the element read.');
  const cellClass = (i) => [unwritten(i) ? 'never-written' : '', i === at ? 'uninit-index' : ''].filter(Boolean).join(' ');
  if (Array.isArray(p.shape) && p.shape.length === 2) {
    const grid = arrayGrid(finding, p, at, cellClass);
    return figure(grid.svg, h('div', { class: 'note' }, grid.note), caption);
  }

  const width = 900, height = 150;
  const svg = create('svg').attr('class', 'cells uninit').attr('width', width).attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`);
  // The whole array as a strip, to scale.
  const x = scaleLinear().domain([0, n]).range([20, width - 20]);
  const strip = 22;
  svg.append('text').attr('class', 'label').attr('x', 20).attr('y', strip - 6)
    .text(`${finding.array}, all ${plural(n, 'element')}`);
  svg.append('rect').attr('class', 'strip').attr('x', x(0)).attr('y', strip).attr('width', x(n) - x(0)).attr('height', 14);
  for (const [lo, hi] of ranges)
    svg.append('rect').attr('class', 'never-written').attr('x', x(lo)).attr('y', strip)
      .attr('width', Math.max(2, x(hi + 1) - x(lo))).attr('height', 14)
      .append('title').text(lo === hi ? `[${lo}] never written` : `[${lo}..${hi}] never written`);
  svg.append('path').attr('class', 'index-mark').attr('d', `M${x(at + 0.5)},${strip - 3} V${strip + 17}`);
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${strip + 14})`)
    .call(axisBottom(x).ticks(8).tickSizeOuter(0));

  // The elements around the one read, cell by cell.
  const [lo, hi] = windowAround(at, 32, 0, n);
  const cells = range(lo, hi);
  const bx = scaleBand().domain(cells).range([20, 20 + cells.length * (CELL + 3)]).paddingInner(0.15);
  const top = 92;
  for (const i of cells)
    svg.append('rect').attr('class', ['cell', cellClass(i)].filter(Boolean).join(' '))
      .attr('x', bx(i)).attr('y', top).attr('width', bx.bandwidth()).attr('height', CELL)
      .append('title').text(`${finding.array}[${i}]${unwritten(i) ? ': never written' : ''}`);
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${top + CELL})`)
    .call(axisBottom(bx).tickValues(cells.filter((i) => i === at || (i % 8 === 0 && Math.abs(i - at) > 2))).tickSizeOuter(0));
  svg.append('text').attr('class', 'label').attr('x', 20).attr('y', top - 6)
    .text(`elements ${lo}..${hi - 1}, around the one read (${at})`);
  return figure(svg, caption);
}

// The threads of a block (or the blocks of a grid), coloured by the barrier each waits at.
const GROUP_COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#b07aa1', '#edc948', '#76b7b2'];
function blockThreads(p, waiting, ended, endedText) {
  const dim = Array.isArray(p.block_dim) ? p.block_dim : null;
  if (!dim) return null;
  const total = dim.reduce((a, b) => a * b, 1);
  const drawn = Math.min(total, 2048);
  const perRow = 32;  // a row is a warp: threads are numbered x first, then y, then z
  const rows = Math.ceil(drawn / perRow);
  const unit = p.grid === true ? 'block' : 'thread';
  const group = new Map();
  waiting.forEach((w, k) => (w.threads ?? []).forEach((r) => group.set(r, k)));
  const gone = new Set(ended);

  const cell = 14, left = 64, top = 26;
  const width = left + perRow * cell + 20, height = top + rows * cell + 12;
  const x = scaleBand().domain(range(perRow)).range([left, left + perRow * cell]).paddingInner(0.12);
  const y = scaleBand().domain(range(rows)).range([top, top + rows * cell]).paddingInner(0.12);
  const svg = create('svg').attr('class', 'cells block-threads').attr('width', width).attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`);
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${top})`)
    .call(axisTop(x).tickValues([0, 8, 16, 24, 31]).tickSizeOuter(0));
  svg.append('g').attr('class', 'axis').attr('transform', `translate(${left},0)`)
    .call(axisLeft(y).tickValues(range(0, rows, Math.max(1, Math.ceil(rows / 16))))
      .tickFormat((r) => (unit === 'thread' ? `warp ${r}` : `${r * perRow}`)).tickSizeOuter(0));
  const xyz = (r) => `(${r % dim[0]},${Math.floor(r / dim[0]) % dim[1]},${Math.floor(r / (dim[0] * dim[1]))})`;
  for (let r = 0; r < drawn; ++r) {
    const k = group.get(r);
    const cls = k !== undefined ? `cell waiting group-${k}` : gone.has(r) ? 'cell exited' : 'cell unknown';
    const rect = svg.append('rect').attr('class', cls).attr('data-rank', r)
      .attr('x', x(r % perRow)).attr('y', y(Math.floor(r / perRow))).attr('width', x.bandwidth()).attr('height', y.bandwidth());
    // A style, not a fill attribute: the stylesheet's .cell fill would win over an attribute.
    if (k !== undefined) rect.style('fill', GROUP_COLOURS[k % GROUP_COLOURS.length]);
    rect.append('title').text(`${unit} ${xyz(r)}: ${k !== undefined ? `waits at ${waiting[k].what} at ${place(waiting[k].file, waiting[k].line)}`
      : gone.has(r) ? endedText : 'not listed'}`);
  }
  const legend = h('ul', { class: 'legend' },
    waiting.map((w, k) => h('li', {}, h('span', { class: 'swatch', style: `background:${GROUP_COLOURS[k % GROUP_COLOURS.length]}` }),
      `${int(w.count ?? w.threads?.length ?? 0)} ${unit}s wait at ${w.what} at ${place(w.file, w.line)}`,
      w.count > (w.threads?.length ?? 0) ? ` (the first ${int(w.threads.length)} drawn)` : '')),
    (ended.length || p.exited) ? h('li', {}, h('span', { class: 'swatch exited' }),
      `${int(p.exited ?? ended.length)} ${unit}${(p.exited ?? ended.length) === 1 ? '' : 's'} ${endedText}`) : null,
    drawn < total ? h('li', { class: 'note' }, `the first ${int(drawn)} of ${int(total)} ${unit}s are drawn`) : null);
  return h('figure', { class: 'finding-picture' }, svg.node(),
    h('figcaption', {}, `${unit === 'thread' ? `The block's ${int(total)} threads` : `The grid's ${int(total)} blocks`} ${triple(dim)}, a row per warp of 32:`, legend));
}

// A warp intrinsic's mask: which lanes it names, which lane called it, and which lanes got there.
function warpLanes(p) {
  if (p.mask === undefined) return null;
  const waiting = new Set(p.lanes_waiting ?? []);
  const x = scaleBand().domain(range(32)).range([20, 20 + 32 * 24]).paddingInner(0.15);
  const width = 20 + 32 * 24 + 20, height = 92, top = 28;
  const svg = create('svg').attr('class', 'cells warp-lanes').attr('width', width).attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`);
  for (const l of range(32)) {
    const inMask = (p.mask >>> l) & 1;
    const cls = ['lane-cell', inMask ? 'in-mask' : 'out-of-mask', l === p.lane ? 'caller' : '', waiting.has(l) ? 'waiting' : '']
      .filter(Boolean).join(' ');
    svg.append('rect').attr('class', cls).attr('x', x(l)).attr('y', top).attr('width', x.bandwidth()).attr('height', 20)
      .append('title').text(`lane ${l}: ${inMask ? 'in the mask' : 'not in the mask'}${l === p.lane ? ', the caller' : ''}${waiting.has(l) ? ', reached the call' : ''}`);
    if (waiting.has(l))
      svg.append('circle').attr('class', 'waiting-dot').attr('cx', x(l) + x.bandwidth() / 2).attr('cy', top + 10).attr('r', 3);
  }
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${top + 20})`)
    .call(axisBottom(x).tickValues([0, 8, 16, 24, 31]).tickSizeOuter(0));
  if (p.lane !== undefined) {
    const cx = x(p.lane) + x.bandwidth() / 2;
    svg.append('text').attr('class', 'label strong').attr('x', cx).attr('y', top - 8).attr('text-anchor', 'middle')
      .text(`lane ${p.lane} called`);
  }
  const hex = `0x${(p.mask >>> 0).toString(16).padStart(8, '0')}`;
  return h('figure', { class: 'finding-picture' }, svg.node(), h('figcaption', {},
    h('ul', { class: 'legend' },
      h('li', {}, h('span', { class: 'swatch in-mask' }), `in the mask ${hex}`),
      h('li', {}, h('span', { class: 'swatch out-of-mask' }), 'not in the mask'),
      waiting.size ? h('li', {}, h('span', { class: 'swatch waiting' }), 'reached the call') : null),
    p.problem ? h('p', { class: 'ordered-by' }, p.problem) : null));
}

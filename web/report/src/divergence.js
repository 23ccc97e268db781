// #divergence: for the selected line, which lanes of each warp of the first block took part in
// each of its requests. A full row is a warp that did not diverge there; runs of identical
// requests (a loop's iterations) are drawn once, with their count.
import { create } from 'd3-selection';
import { scaleBand } from 'd3-scale';
import { axisTop } from 'd3-axis';
import { range } from 'd3-array';
import { h, int, place } from './dom.js';
import { accessName } from './lines.js';

const RUNS_PER_WARP = 12;  // rows drawn for one warp; later ones are counted
const CELL = 14;

export function hasDivergenceData(data) {
  return (data.launches ?? []).some((l) => (l.lines ?? []).some((r) => r.divergence?.length));
}

/// Consecutive identical masks as [mask, count] runs.
function runs(masks) {
  const out = [];
  for (const m of masks) {
    const last = out[out.length - 1];
    if (last && last[0] === m) last[1] += 1;
    else out.push([m, 1]);
  }
  return out;
}

export function renderDivergence(data, ctx) {
  const root = h('section', { id: 'divergence', class: 'panel' }, h('h2', {}, 'Which lanes took part'),
    h('p', { class: 'intro' },
      'For the selected line: each row is one request of a warp of the first block, each cell one of its 32 lanes, filled where the lane was active. ',
      'Lanes left out by an if, a loop that ends sooner for some, or an early return still take the warp\'s time: a warp runs its request once for all of them. ',
      'Identical requests in a row (a loop\'s iterations) are drawn once, with how many there were.'));
  const body = h('div', { class: 'divergence-body' });
  root.append(body);
  ctx.onSelect((sel) => body.replaceChildren(...(sel ? draw(data, sel) : [])));
  return root;
}

function draw(data, { rec, launch, li }) {
  const head = h('h3', {}, h('code', {}, place(rec.file, rec.line)), ` — ${accessName(rec)} in ${launch.kernel} (launch ${li + 1})`);
  const warps = rec.divergence ?? [];
  if (!warps.length) return [head, h('p', { class: 'note' }, 'No lanes were kept for this line.')];

  // Rows: per warp, its runs of identical masks, the last row saying how many more were left out.
  const rows = [];
  for (const w of warps) {
    const rs = runs(w.masks ?? []);
    rs.slice(0, RUNS_PER_WARP).forEach(([mask, count], k) => rows.push({ key: `${w.warp}:${k}`, warp: w.warp, first: k === 0, mask, count }));
    if (rs.length > RUNS_PER_WARP)
      rows.push({ key: `${w.warp}:more`, warp: w.warp, more: rs.slice(RUNS_PER_WARP).reduce((a, r) => a + r[1], 0) });
  }
  const left = 70, top = 30;
  const x = scaleBand().domain(range(32)).range([left, left + 32 * CELL]).paddingInner(0.15);
  // A little air between warps: each warp's first row starts a new group.
  const ys = [];
  let y = top;
  rows.forEach((r, i) => {
    if (i && r.first) y += 6;
    ys.push(y);
    y += CELL;
  });
  const width = left + 32 * CELL + 260, height = y + 10;
  const svg = create('svg').attr('class', 'divergence-chart').attr('width', width).attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`);
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${top - 2})`)
    .call(axisTop(x).tickValues([0, 4, 8, 12, 16, 20, 24, 28, 31]).tickSize(0).tickPadding(4));
  svg.select('.axis .domain').remove();
  svg.append('text').attr('class', 'row-title').attr('x', left + 32 * CELL + 12).attr('y', top - 8).text('active lanes × requests');

  rows.forEach((r, i) => {
    const g = svg.append('g').attr('class', 'warp-row').attr('data-warp', r.warp).attr('transform', `translate(0,${ys[i]})`);
    if (r.first) g.append('text').attr('class', 'row-title').attr('x', 0).attr('y', CELL - 4).text(`warp ${r.warp}`);
    if (r.more !== undefined) {
      g.append('text').attr('class', 'note-text').attr('x', left).attr('y', CELL - 4).text(`… and ${int(r.more)} more requests`);
      return;
    }
    let active = 0;
    for (const l of range(32)) {
      const on = (r.mask >>> l) & 1;
      active += on;
      g.append('rect').attr('class', on ? 'lane-cell on' : 'lane-cell off').attr('x', x(l)).attr('width', x.bandwidth())
        .attr('height', CELL - 3).append('title').text(`warp ${r.warp}, lane ${l}: ${on ? 'active' : 'not active'}`);
    }
    g.append('text').attr('class', 'label').attr('x', left + 32 * CELL + 12).attr('y', CELL - 4)
      .text(`${active}/32${r.count > 1 ? ` × ${r.count} requests` : ''}`);
  });
  return [head, svg.node(), h('p', { class: 'note' },
    `The warps of the first block, (0,0,0), up to ${data.bounds?.divergence_warps ?? 32} of them; a warp not listed made no request at this line. `,
    `Over the whole launch, ${int(rec.partial)} of this line's ${int(rec.requests)} requests had fewer lanes than the warp.`)];
}

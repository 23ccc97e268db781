// #timeline: the run's operations on two clocks, a row per stream. Top: the GPU's, as the
// simulator predicts it (copies at the link's speed, kernels by the time model). Bottom: this
// machine's, how long simulating each one took. The same program, two very different clocks.
import { create } from 'd3-selection';
import { scaleBand, scaleLinear } from 'd3-scale';
import { axisBottom } from 'd3-axis';
import { max } from 'd3-array';
import { h, duration, modelled } from './dom.js';

const WIDTH = 1160, LEFT = 180, RIGHT = 20, ROW = 26;
const KINDS = ['kernel', 'copy', 'device memory', 'event', 'graph'];
const slug = (kind) => kind.replace(/\s+/g, '-');

export function hasTimelineData(data) {
  return (data.timeline?.ops ?? []).some((o) => o.gpu_us !== undefined || o.sim_us !== undefined);
}

export function renderTimeline(data) {
  const tl = data.timeline;
  const ops = tl.ops ?? [];
  // Rows in the order streams first appear, the same on both panels.
  const rows = [...new Set(ops.map((o) => o.row))];
  const root = h('section', { id: 'timeline', class: 'panel' }, h('h2', {}, 'Timeline'),
    h('p', { class: 'intro' },
      'Each bar is one operation: a kernel, a copy between host and device, or work on device memory (a memset). ',
      'The top panel is the GPU\'s time as the simulator predicts it — copies at the link\'s speed, kernels by its time model — ',
      'so streams overlap as they would on the GPU: ', modelled('predicted, modelled, not measured'), '. ',
      'The bottom panel is how long this machine took to simulate each one, which says nothing of the GPU.'));
  const kinds = KINDS.filter((k) => ops.some((o) => o.kind === k));
  root.append(h('ul', { class: 'legend inline' }, kinds.map((k) =>
    h('li', {}, h('span', { class: `swatch op-${slug(k)}` }), k))));
  root.append(panel('GPU (predicted)', tl.gpu, 'gpu', ops, rows, 'gpu_start_us', 'gpu_us'));
  root.append(panel('simulator (this machine)', '', 'sim', ops, rows, 'sim_start_us', 'sim_us'));
  return root;
}

function panel(title, subtitle, clock, ops, rows, startKey, lengthKey) {
  const shown = ops.filter((o) => typeof o[startKey] === 'number' && typeof o[lengthKey] === 'number');
  const wrap = h('figure', { class: 'timeline-panel' }, h('figcaption', {}, h('strong', {}, title),
    subtitle ? h('span', { class: 'note' }, ` ${subtitle}`) : '',
    shown.length < ops.length ? ` — ${ops.length - shown.length} operations have no time on this clock` : ''));
  if (!shown.length) return wrap;
  const end = max(shown, (o) => o[startKey] + o[lengthKey]) || 1;
  const x = scaleLinear().domain([0, end]).range([LEFT, WIDTH - RIGHT]).nice();
  const y = scaleBand().domain(rows).range([10, 10 + rows.length * ROW]).paddingInner(0.2);
  const height = 10 + rows.length * ROW + 40;
  const svg = create('svg').attr('class', 'timeline-chart').attr('data-clock', clock).attr('width', WIDTH).attr('height', height)
    .attr('viewBox', `0 0 ${WIDTH} ${height}`);
  // Whole milliseconds read better than thousands of microseconds.
  const inMs = x.domain()[1] >= 2000;
  const axis = axisBottom(x).ticks(10).tickFormat((v) => (inMs ? `${v / 1000} ms` : `${v} µs`));
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${10 + rows.length * ROW})`).call(axis);
  svg.append('text').attr('class', 'axis-title').attr('x', WIDTH - RIGHT).attr('y', height - 4).attr('text-anchor', 'end')
    .text(`time since the run's first operation (${inMs ? 'ms' : 'µs'})`);
  for (const r of rows)
    svg.append('text').attr('class', 'row-title').attr('x', 0).attr('y', y(r) + y.bandwidth() / 2 + 4).text(r);

  for (const o of shown) {
    const start = o[startKey], stop = o[startKey] + o[lengthKey];
    const x0 = x(start), w = Math.max(2, x(stop) - x0);
    const g = svg.append('g');
    g.append('rect').attr('class', `op op-${slug(o.kind)}`)
      .attr('data-kind', o.kind).attr('data-row', o.row).attr('data-start', start).attr('data-end', stop)
      .attr('x', x0).attr('y', y(o.row)).attr('width', w).attr('height', y.bandwidth()).attr('rx', 2)
      .append('title').text(`${o.name}\n${o.kind} on ${o.row}${o.engine ? `, ${o.engine}` : ''}\n` +
        `starts at ${duration(start)}, takes ${duration(o[lengthKey])}`);
    // The name inside the bar where it fits (about 6.5 px a character).
    const fits = Math.floor((w - 8) / 6.5);
    const label = o.name.length <= fits ? o.name : fits >= 6 ? `${o.name.slice(0, fits - 1)}…` : '';
    if (label)
      g.append('text').attr('class', 'op-label').attr('x', x0 + 4).attr('y', y(o.row) + y.bandwidth() / 2 + 4).text(label);
  }
  wrap.append(svg.node());
  return wrap;
}

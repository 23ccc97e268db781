// #roofline: each launch placed by its arithmetic intensity (operations per byte from DRAM)
// and its rate (operations a second over its predicted time), under the simulated GPU's two
// roofs: DRAM bandwidth (the slope) and arithmetic (the flat top). Left of the ridge a kernel
// cannot go faster than memory feeds it; right of it, than the GPU computes.
import { create } from 'd3-selection';
import { scaleLog, scaleOrdinal } from 'd3-scale';
import { axisBottom, axisLeft } from 'd3-axis';
import { line } from 'd3-shape';
import { extent } from 'd3-array';
import { format } from 'd3-format';
import { h, duration, int, place, si, triple, uid, modelled } from './dom.js';

const W = 1000, H = 440, M = { top: 20, right: 30, bottom: 50, left: 70 };
const ratio = format('.3~g');
const TABLE_ROWS = 12;  // launches listed before the rest fold away
// Tableau's ten colours: one per kernel, told apart by most readers.
const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

const plotted = (l) => typeof l.roofline?.intensity === 'number' && l.roofline.intensity > 0 && l.roofline.ops_per_s > 0;

export function hasRooflineData(data) {
  return !!data.device?.roofs?.ops_per_s && (data.launches ?? []).some(plotted);
}

export function renderRoofline(data) {
  const roofs = data.device.roofs;
  const launches = (data.launches ?? []).map((l, i) => ({ ...l, number: i + 1 }));
  const points = launches.filter(plotted);
  const root = h('section', { id: 'roofline', class: 'panel' }, h('h2', {}, 'Roofline'),
    h('p', { class: 'intro' },
      `Each launch sits at its arithmetic intensity (thread operations per byte read from or written to DRAM) and its rate (those operations over its predicted time), on the ${data.device.name}. `,
      'No kernel rises above the roofs: the slope is what DRAM can deliver, the flat top what the GPU can compute. A launch far below both is held back by something else: shared memory, latency, or the fixed cost of a launch. ',
      'Every number here is the simulator\'s time model: ', modelled('predicted, modelled, not measured'), '.'));

  // Decades around every point and the ridge, so the roofs' corner is always in view.
  const [xl, xh] = extent([...points.map((p) => p.roofline.intensity), roofs.ridge]);
  const [yl, yh] = extent([...points.map((p) => p.roofline.ops_per_s), roofs.ops_per_s]);
  const decade = (v, up) => 10 ** (up ? Math.ceil(Math.log10(v)) : Math.floor(Math.log10(v)));
  const x = scaleLog().domain([decade(xl / 4, false), decade(xh * 4, true)]).range([M.left, W - M.right]);
  const y = scaleLog().domain([decade(yl / 4, false), decade(yh * 2, true)]).range([H - M.bottom, M.top]);

  const svg = create('svg').attr('class', 'roofline-chart').attr('width', W).attr('height', H).attr('viewBox', `0 0 ${W} ${H}`);
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${H - M.bottom})`).call(axisBottom(x).ticks(8, '~g'));
  svg.append('g').attr('class', 'axis').attr('transform', `translate(${M.left},0)`).call(axisLeft(y).ticks(8, '~s'));
  svg.append('text').attr('class', 'axis-title').attr('x', (M.left + W - M.right) / 2).attr('y', H - 10).attr('text-anchor', 'middle')
    .text('arithmetic intensity: operations per DRAM byte (log scale)');
  svg.append('text').attr('class', 'axis-title').attr('transform', `translate(16,${(M.top + H - M.bottom) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle').text('operations per second (log scale)');

  // The roofs, clipped to the plot: the slope meets the flat top at the ridge the data gives.
  const clip = uid('roofline-clip');
  svg.append('clipPath').attr('id', clip).append('rect').attr('x', M.left).attr('y', M.top)
    .attr('width', W - M.left - M.right).attr('height', H - M.top - M.bottom);
  const plot = svg.append('g').attr('clip-path', `url(#${clip})`);
  const path = line().x((d) => x(d[0])).y((d) => y(d[1]));
  const [x0, x1] = x.domain();
  const slopeStart = [x0, roofs.ops_per_s * (x0 / roofs.ridge)];  // the slope's own line, at the left edge
  plot.append('path').attr('class', 'roof roof-dram').attr('d', path([slopeStart, [roofs.ridge, roofs.ops_per_s]]));
  plot.append('path').attr('class', 'roof roof-compute').attr('d', path([[roofs.ridge, roofs.ops_per_s], [x1, roofs.ops_per_s]]));

  // Roof labels: the flat one above its line, the slope one along it.
  svg.append('text').attr('class', 'roof-label').attr('x', W - M.right - 4).attr('y', y(roofs.ops_per_s) - 6).attr('text-anchor', 'end')
    .text(`compute roof: ${si(roofs.ops_per_s, 'ops/s')}`);
  const [ax, ay] = [x(slopeStart[0]), y(slopeStart[1])], [bx, by] = [x(roofs.ridge), y(roofs.ops_per_s)];
  const angle = (Math.atan2(by - ay, bx - ax) * 180) / Math.PI;
  const t = 0.3;  // low on the slope: points sit below the roofs, their labels beside them
  svg.append('text').attr('class', 'roof-label')
    .attr('transform', `translate(${ax + (bx - ax) * t},${ay + (by - ay) * t - 6}) rotate(${angle})`)
    .attr('text-anchor', 'middle').text(`DRAM roof: ${si(roofs.dram_bytes_per_s, 'B/s')}`);

  svg.append('circle').attr('class', 'ridge').attr('cx', bx).attr('cy', by).attr('r', 5)
    .append('title').text(`ridge point: ${ratio(roofs.ridge)} operations per byte`);
  // Up and left of the ridge: above the slope, where no launch can be.
  svg.append('text').attr('class', 'ridge-label').attr('x', bx - 10).attr('y', by - 10).attr('text-anchor', 'end')
    .text(`ridge: ${ratio(roofs.ridge)} ops/byte`);

  // The launches, a colour per kernel. A kernel launched many times is labelled once, at its
  // first launch.
  const colour = scaleOrdinal(PALETTE).domain([...new Set(points.map((p) => p.kernel))]);
  // Drawn last to first, so that where launches share a place the first shows on top.
  for (const p of [...points].reverse())
    svg.append('circle').attr('class', 'launch-point').attr('data-kernel', p.kernel).attr('data-launch', p.number)
      .attr('cx', x(p.roofline.intensity)).attr('cy', y(p.roofline.ops_per_s)).attr('r', 6).style('fill', colour(p.kernel))
      .append('title').text(`${p.kernel} (launch ${p.number}): predicted ${duration(p.predicted_us)}, ${p.bound}-bound\n` +
        `${ratio(p.roofline.intensity)} ops per DRAM byte, ${si(p.roofline.ops_per_s, 'ops/s')}`);
  const labels = colour.domain().map((kernel) => {
    const p = points.find((q) => q.kernel === kernel);
    return { cx: x(p.roofline.intensity), cy: y(p.roofline.ops_per_s), text: `${p.kernel}: ${duration(p.predicted_us)}, ${p.bound}-bound` };
  });
  // Labels right of their point, or left near the right edge; pushed apart where they would touch.
  labels.sort((a, b) => a.cy - b.cy);
  let lastY = -Infinity;
  for (const l of labels) {
    const ly = Math.max(l.cy + 4, lastY + 14);
    lastY = ly;
    const leftSide = l.cx > W - M.right - l.text.length * 6.2 - 14;
    svg.append('text').attr('class', 'point-label').attr('x', leftSide ? l.cx - 10 : l.cx + 10).attr('y', ly)
      .attr('text-anchor', leftSide ? 'end' : 'start').text(l.text);
  }

  root.append(h('figure', { class: 'roofline-figure' }, svg.node(), h('figcaption', {},
    h('ul', { class: 'legend' }, colour.domain().map((k) => h('li', {}, h('span', { class: 'swatch', style: `background:${colour(k)}` }), k))),
    points.length < launches.length ? h('span', { class: 'note' },
      `${launches.length - points.length} of ${launches.length} launches are not placed: they read or wrote nothing from DRAM, or did no arithmetic.`) : null)));
  root.append(launchTable(launches));
  return root;
}

/// Every launch's numbers, and all its counters one click away; past the first few launches
/// the rest fold away.
function launchTable(launches) {
  const head = () => h('thead', {}, h('tr', {}, ['#', 'kernel', 'launched at', 'grid × block', 'predicted time', 'bound by',
    'ops per DRAM byte', 'ops/s', 'counters'].map((c) => h('th', {}, c))));
  const table = (list) => h('table', { class: 'launches' }, head(), h('tbody', {}, list.map(launchRow)));
  if (launches.length <= TABLE_ROWS + 2) return table(launches);
  return h('div', {}, table(launches.slice(0, TABLE_ROWS)),
    h('details', { class: 'more-launches' }, h('summary', {}, `the other ${launches.length - TABLE_ROWS} launches`),
      table(launches.slice(TABLE_ROWS))));
}

function launchRow(l) {
  const metrics = Object.entries(l.metrics ?? {});
  return h('tr', {},
    h('td', { class: 'num' }, l.number),
    h('td', {}, h('code', {}, l.kernel)),
    h('td', {}, l.launch ? place(l.launch.file, l.launch.line) : ''),
    h('td', {}, `${triple(l.grid)} × ${triple(l.block)}`),
    h('td', { class: 'num' }, duration(l.predicted_us)),
    h('td', {}, l.bound),
    h('td', { class: 'num' }, plotted(l) ? ratio(l.roofline.intensity) : '—'),
    h('td', { class: 'num' }, l.roofline?.ops_per_s ? si(l.roofline.ops_per_s, 'ops/s') : '—'),
    h('td', {}, metrics.length ? h('details', {}, h('summary', {}, `${metrics.length} counters`),
      h('table', { class: 'metrics' }, metrics.map(([k, v]) =>
        h('tr', {}, h('td', {}, h('code', {}, k)), h('td', { class: 'num' }, typeof v === 'number' ? int(v) : JSON.stringify(v)))))) : ''));
}

// #occupancy: for each kernel (its first launch), the warps one multiprocessor could hold at
// every block size, with the launch's own block size marked, and the limits that set it.
import { create } from 'd3-selection';
import { scaleLinear } from 'd3-scale';
import { axisBottom, axisLeft } from 'd3-axis';
import { line } from 'd3-shape';
import { max, min } from 'd3-array';
import { format } from 'd3-format';
import { h, int, modelled } from './dom.js';

const W = 370, H = 230, M = { top: 26, right: 16, bottom: 40, left: 44 };
const pct = format('.0f');

// What each limit is, in words: the simulator writes them in blocks per multiprocessor.
const LIMIT_NAMES = { warps: 'warps', registers: 'registers', shared_mem: 'shared memory', blocks: 'block slots' };

export function hasOccupancyData(data) {
  return (data.launches ?? []).some((l) => l.occupancy?.curve?.length);
}

export function renderOccupancy(data) {
  const maxWarps = data.device?.max_warps_per_multiprocessor;
  const root = h('section', { id: 'occupancy', class: 'panel' }, h('h2', {}, 'Occupancy'),
    h('p', { class: 'intro' },
      `How many warps one multiprocessor of the ${data.device?.name ?? 'GPU'} can hold at once, for each block size (the curve), and where each kernel's launch sits (the dot). `,
      'More resident warps give the scheduler more to switch to while others wait for memory. The count is theoretical: CUDA\'s occupancy rules for the simulated device, from the block size, shared memory and registers — ',
      modelled('predicted, not measured'), '.'));
  const grid = h('div', { class: 'occupancy-grid' });
  root.append(grid);
  const seen = new Set();
  (data.launches ?? []).forEach((l, i) => {
    if (seen.has(l.kernel) || !l.occupancy?.curve?.length) return;
    seen.add(l.kernel);
    grid.append(chart(l, i + 1, maxWarps));
  });
  return root;
}

function chart(launch, number, maxWarps) {
  const o = launch.occupancy;
  const top = maxWarps || max(o.curve, (c) => c.warps) || 1;
  const x = scaleLinear().domain([0, max(o.curve, (c) => c.threads)]).range([M.left, W - M.right]);
  const y = scaleLinear().domain([0, top]).range([H - M.bottom, M.top]);
  const svg = create('svg').attr('class', 'occupancy-chart').attr('data-kernel', launch.kernel)
    .attr('width', W).attr('height', H).attr('viewBox', `0 0 ${W} ${H}`);
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${H - M.bottom})`)
    .call(axisBottom(x).tickValues([0, 256, 512, 768, 1024].filter((v) => v <= x.domain()[1])));
  // Quarters of the most a multiprocessor holds, so that the top tick is that most.
  const quarters = top % 4 === 0 ? [0, top / 4, top / 2, (3 * top) / 4, top] : null;
  svg.append('g').attr('class', 'axis').attr('transform', `translate(${M.left},0)`)
    .call(quarters ? axisLeft(y).tickValues(quarters) : axisLeft(y).ticks(5));
  svg.append('text').attr('class', 'axis-title').attr('x', (M.left + W - M.right) / 2).attr('y', H - 6).attr('text-anchor', 'middle')
    .text('threads per block');
  svg.append('text').attr('class', 'axis-title').attr('x', 4).attr('y', 12)
    .text(maxWarps ? `warps per multiprocessor (at most ${maxWarps})` : 'warps per multiprocessor');
  if (maxWarps) svg.append('path').attr('class', 'max-line').attr('d', `M${x.range()[0]},${y(maxWarps)} H${x.range()[1]}`);
  svg.append('path').attr('class', 'curve').attr('d', line().x((c) => x(c.threads)).y((c) => y(c.warps))(o.curve));
  svg.append('g').selectAll('circle').data(o.curve).join('circle').attr('class', 'curve-point')
    .attr('cx', (c) => x(c.threads)).attr('cy', (c) => y(c.warps)).attr('r', 2)
    .append('title').text((c) => `${c.threads} threads per block: ${c.warps} warps`);
  const px = x(o.threads), py = y(o.warps);
  svg.append('circle').attr('class', 'occupancy-point').attr('data-kernel', launch.kernel).attr('cx', px).attr('cy', py).attr('r', 6)
    .append('title').text(`this launch: ${o.threads} threads per block, ${o.warps} warps (${pct(o.theoretical_pct)}%)`);
  // The label low in the chart, where the curve seldom goes, joined to its dot.
  const ly = y(top * 0.2), lx = Math.min(Math.max(px, M.left + 110), W - M.right - 100);
  svg.append('path').attr('class', 'leader').attr('d', `M${px},${py + 6} L${lx},${ly - 12}`);
  svg.append('text').attr('class', 'point-label').attr('x', lx).attr('y', ly).attr('text-anchor', 'middle')
    .text(`this launch: ${o.threads} threads, ${o.warps} warps`);

  // The limits, the smallest (the one that decides) in bold.
  const limits = Object.entries(o.limits ?? {}).filter(([, v]) => typeof v === 'number');
  const least = min(limits, ([, v]) => v);
  const limitList = limits.length ? h('p', { class: 'limits' }, 'Blocks per multiprocessor allowed by ',
    limits.map(([k, v], i) => [i ? ', ' : '', h(v === least ? 'strong' : 'span', {}, `${LIMIT_NAMES[k] ?? k}: ${int(v)}`)]),
    '. The smallest decides.') : null;
  return h('figure', { class: 'occupancy-figure' },
    h('figcaption', { title: `launch ${number}` }, h('code', {}, launch.kernel), `: ${pct(o.theoretical_pct)}% theoretical occupancy`),
    svg.node(), limitList,
    h('p', { class: 'note' }, `${int(o.shared_bytes)} bytes of shared memory per block; ${o.registers} registers per thread`,
      o.registers_assumed ? ' — registers assumed: the simulator cannot know what nvcc would give the kernel' : '', '.'));
}

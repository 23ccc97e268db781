// #access: one sampled warp request of the selected line, drawn: its 32 lanes on top, each
// active lane's line down to where its bytes fell. Global memory: the 32-byte sectors it
// touched, inside their 128-byte lines. Shared memory: the 32 banks, with the distinct words
// asked of each; a bank asked for more than one word serves them one after another.
import { create } from 'd3-selection';
import { scaleBand } from 'd3-scale';
import { axisTop } from 'd3-axis';
import { linkVertical } from 'd3-shape';
import { group, range } from 'd3-array';
import { h, int, place, triple, modelled, unitFor } from './dom.js';
import { accessName, costliest, entriesAt, perRequest } from './lines.js';

const WIDTH = 1160;
const LEFT = 120;       // room for the row titles
const LANE_Y = 40;      // the lanes' centres
const link = linkVertical().x((d) => d[0]).y((d) => d[1]);

export function hasAccessData(data) {
  return (data.launches ?? []).some((l) => (l.lines ?? []).some((r) => r.samples?.length));
}

export function renderAccess(data, ctx) {
  const root = h('section', { id: 'access', class: 'panel' }, h('h2', {}, 'How one warp\'s request met memory'),
    h('p', { class: 'intro' },
      'For the selected line, the simulator kept two warp-level requests: the first one it saw, and the costliest (the most above its ideal). ',
      'The 32 lanes of the warp are on top (filled: active in this request; hollow: not), each active lane joined to where its bytes fell. ',
      'Global memory is fetched in 32-byte sectors, so lanes spread over many sectors cost more; shared memory has 32 banks, and a bank asked for several different words serves them one at a time (a bank conflict). ',
      'The costs are the simulator\'s model of Nsight Compute\'s counters: ', modelled(), '.'));
  const body = h('div', { class: 'access-body' });
  root.append(body);
  ctx.onSelect((sel) => {
    body.replaceChildren(...(sel ? drawSelection(data, sel, ctx) : [h('p', { class: 'note' }, 'Click a line with counters in the source to see its requests.')]));
  });
  return root;
}

function drawSelection(data, sel, ctx) {
  const { rec, launch, li } = sel;
  const out = [];
  // The accesses counted at this line: a button per kind (global load, shared store, ...), and
  // where several launches counted the same kind, a list of them with their costs.
  const here = entriesAt(data, rec.file, rec.line);
  const same = (e) => e.li === li && e.ri === sel.ri;
  out.push(h('h3', {}, h('code', {}, place(rec.file, rec.line)), ` — ${accessName(rec)}`, rec.array ? ` of ${rec.array}` : '',
    ` in ${launch.kernel} (launch ${li + 1})`));
  const kinds = group(here, (e) => accessName(e.rec));
  if (kinds.size > 1)
    out.push(h('div', { class: 'choices', role: 'group', 'aria-label': 'accesses at this line' }, 'Accesses at this line: ',
      [...kinds].map(([name, list]) => h('button', {
        type: 'button', class: 'choice', 'aria-pressed': String(name === accessName(rec)),
        onclick: () => ctx.select(list.find((e) => e.li === li) ?? list[0]),
      }, name))));
  const sameKind = kinds.get(accessName(rec)) ?? [];
  if (sameKind.length > 1) {
    const select = h('select', { class: 'launch-choice', 'aria-label': 'launch' }, sameKind.map((e, k) =>
      h('option', { value: k, selected: same(e) }, `launch ${e.li + 1}: ${e.launch.kernel}, ${perRequest(e.rec)}`)));
    select.addEventListener('change', () => ctx.select(sameKind[Number(select.value)]));
    const worst = costliest(sameKind);
    out.push(h('div', { class: 'choices' }, `${sameKind.length} launches made this access: `, select,
      worst && !same(worst) ? h('button', { type: 'button', class: 'choice', onclick: () => ctx.select(worst) },
        `show the costliest (launch ${worst.li + 1})`) : null));
  }
  out.push(h('p', { class: 'totals' },
    `Over the whole launch: ${int(rec.requests)} requests cost ${int(rec.actual)} ${rec.unit}; the ideal was ${int(rec.ideal)}. `,
    `${int(rec.partial)} requests had fewer active lanes than the warp.`));

  const samples = rec.samples ?? [];
  if (!samples.length) out.push(h('p', { class: 'note' }, 'No sampled request was kept for this line.'));
  const first = samples.find((s) => s.which === 'first');
  for (const s of samples) {
    // A costliest request that cost what the first did shows nothing new: said, not drawn again.
    if (s !== first && first && s.actual === first.actual && s.ideal === first.ideal) {
      out.push(h('p', { class: 'note same-cost' }, `The costliest request (warp ${s.warp} of block ${triple(s.block)}) cost the same as the first, ` +
        `${int(s.actual)} ${unitFor(s.actual, rec.unit)} with an ideal of ${int(s.ideal)}: no request at this line cost more over its ideal than the one drawn.`));
      continue;
    }
    out.push(drawSample(rec, s));
  }
  return out;
}

function drawSample(rec, s) {
  const active = new Set(s.lanes.map((l) => l.lane));
  const lanesX = scaleBand().domain(range(32)).range([LEFT, WIDTH - 20]).paddingInner(0.2);
  let body;
  if (rec.space === 'shared' || s.lanes.some((l) => l.bank !== undefined)) body = banks(s, lanesX);
  else if (s.lanes.some((l) => l.sector !== undefined)) body = sectors(s, lanesX);
  else body = addresses(s, lanesX, rec);

  const svg = create('svg').attr('class', `access-sample ${rec.space}`).attr('width', WIDTH).attr('height', body.height)
    .attr('viewBox', `0 0 ${WIDTH} ${body.height}`)
    .attr('data-actual', s.actual).attr('data-ideal', s.ideal).attr('data-which', s.which);
  svg.append('text').attr('class', 'row-title').attr('x', 0).attr('y', LANE_Y + 4).text(`lanes of warp ${s.warp}`);
  svg.append('g').attr('class', 'axis lanes-axis').attr('transform', `translate(0,${LANE_Y - 14})`)
    .call(axisTop(lanesX).tickValues([0, 4, 8, 12, 16, 20, 24, 28, 31]).tickSize(0).tickPadding(4));
  svg.select('.lanes-axis .domain').remove();

  // The links first, so that lanes and boxes sit on top of them.
  const links = svg.append('g').attr('class', 'links');
  for (const lane of s.lanes) {
    const [tx, ty] = body.target(lane);
    links.append('path').attr('class', 'link')
      .attr('d', link({ source: [lanesX(lane.lane) + lanesX.bandwidth() / 2, LANE_Y + 8], target: [tx, ty] }));
  }
  const byLane = new Map(s.lanes.map((l) => [l.lane, l]));
  for (const l of range(32)) {
    const lane = byLane.get(l);
    svg.append('circle').attr('class', active.has(l) ? 'lane active' : 'lane inactive').attr('data-lane', l)
      .attr('cx', lanesX(l) + lanesX.bandwidth() / 2).attr('cy', LANE_Y).attr('r', Math.min(8, lanesX.bandwidth() / 2))
      .append('title').text(lane ? laneText(lane) : `lane ${l}: not active in this request`);
  }
  body.draw(svg);

  const unit = rec.unit === 'requests' ? 'requests' : rec.unit;
  const ways = s.conflict_ways > 1 ? ` (${s.conflict_ways}-way bank conflict)` : '';
  return h('figure', { class: 'access-figure' }, svg.node(), h('figcaption', {},
    h('strong', {}, `warp ${s.warp} of block ${triple(s.block)}, ${s.which}: ${int(s.actual)} ${unitFor(s.actual, unit)}, ideal ${int(s.ideal)}`), ways,
    ` — ${active.size} of 32 lanes active. `,
    h('span', { class: 'note' }, s.which === 'first' ? 'The first request the simulator saw at this line.' : 'The request that cost the most over its ideal.')));
}

function laneText(l) {
  const parts = [`lane ${l.lane}: byte ${int(l.offset)}`];
  if (l.index !== undefined) parts.push(`element ${int(l.index)}`);
  if (l.sector !== undefined) parts.push(`sector ${l.sector}`);
  if (l.line !== undefined) parts.push(`line ${l.line}`);
  if (l.bank !== undefined) parts.push(`bank ${l.bank}`);
  parts.push(`${l.size} bytes`);
  return parts.join(', ');
}

// Global memory: the sectors touched, grouped by the 128-byte line the data puts each in.
function sectors(s, lanesX) {
  const byLine = group(s.lanes, (l) => l.line ?? 0);
  const lines = [...byLine.keys()].sort((a, b) => a - b);
  const slots = [];
  const sectorsOf = new Map();
  lines.forEach((ln, i) => {
    const list = [...new Set(byLine.get(ln).map((l) => l.sector))].sort((a, b) => a - b);
    sectorsOf.set(ln, list);
    if (i) slots.push(`gap:${ln}`);
    for (const sec of list) slots.push(`s:${sec}`);
  });
  // Boxes as wide as fit, no wider than 64 px, centred under the lanes.
  const span = WIDTH - 20 - LEFT;
  const slotW = Math.min(64, span / slots.length);
  const x0 = LEFT + (span - slotW * slots.length) / 2;
  const x = scaleBand().domain(slots).range([x0, x0 + slotW * slots.length]).paddingInner(0.12);
  const top = 190, boxH = 30;
  const height = top + boxH + 56;
  const sectorOfLane = (l) => `s:${l.sector}`;
  return {
    height,
    target: (l) => [x(sectorOfLane(l)) + x.bandwidth() / 2, top - 2],
    draw(svg) {
      svg.append('text').attr('class', 'row-title').attr('x', 0).attr('y', top + 20).text('32-byte sectors');
      svg.append('text').attr('class', 'row-title').attr('x', 0).attr('y', top + boxH + 24).text('in 128-byte lines');
      for (const ln of lines) {
        const list = sectorsOf.get(ln);
        const lx0 = x(`s:${list[0]}`) - 4, lx1 = x(`s:${list[list.length - 1]}`) + x.bandwidth() + 4;
        const g = svg.append('g');
        g.append('rect').attr('class', 'cache-line').attr('data-line', ln).attr('x', lx0).attr('y', top - 8)
          .attr('width', lx1 - lx0).attr('height', boxH + 16).attr('rx', 3)
          .append('title').text(`128-byte line ${ln} (counted from the array's first byte): ${list.length} of its 4 sectors touched`);
        g.append('text').attr('class', 'line-label').attr('x', (lx0 + lx1) / 2).attr('y', top + boxH + 24)
          .attr('text-anchor', 'middle').text(lx1 - lx0 > 42 ? `line ${ln}` : String(ln));
        for (const sec of list) {
          const lanes = s.lanes.filter((l) => l.sector === sec).map((l) => l.lane);
          g.append('rect').attr('class', 'sector').attr('data-sector', sec).attr('x', x(`s:${sec}`)).attr('y', top)
            .attr('width', x.bandwidth()).attr('height', boxH)
            .append('title').text(`sector ${sec}: lanes ${lanes.join(', ')}`);
          if (x.bandwidth() >= 14)
            g.append('text').attr('class', 'sector-label').attr('x', x(`s:${sec}`) + x.bandwidth() / 2).attr('y', top + boxH / 2 + 4)
              .attr('text-anchor', 'middle').text(String(sec));
        }
      }
    },
  };
}

// Shared memory: the 32 banks, and in each the distinct 4-byte words the active lanes asked for.
function banks(s, lanesX) {
  const x = scaleBand().domain(range(32)).range(lanesX.range()).paddingInner(0.12);
  const words = new Map(range(32).map((b) => [b, new Map()]));  // bank -> word -> lanes
  for (const l of s.lanes) {
    const w = Math.floor(l.offset / 4);
    const inBank = words.get(l.bank);
    if (!inBank.has(w)) inBank.set(w, []);
    inBank.get(w).push(l.lane);
  }
  const most = Math.max(1, ...[...words.values()].map((m) => m.size));
  const top = 170, rowH = 15;
  const colH = most * rowH + 10;
  const height = top + colH + 34;
  return {
    height,
    target: (l) => [x(l.bank) + x.bandwidth() / 2, top - 2],
    draw(svg) {
      svg.append('text').attr('class', 'row-title').attr('x', 0).attr('y', top - 20).text('32 banks of 4 bytes');
      svg.append('g').attr('class', 'axis banks-axis').attr('transform', `translate(0,${top - 4})`)
        .call(axisTop(x).tickValues([0, 4, 8, 12, 16, 20, 24, 28, 31]).tickSize(0).tickPadding(2));
      svg.select('.banks-axis .domain').remove();
      svg.append('text').attr('class', 'row-title').attr('x', 0).attr('y', top + 14).text('distinct words');
      for (const b of range(32)) {
        const inBank = [...words.get(b).entries()].sort((p, q) => p[0] - q[0]);
        const ways = inBank.length;
        const col = svg.append('rect').attr('class', ways > 1 ? 'bank conflict' : 'bank').attr('data-bank', b)
          .attr('data-words', ways).attr('x', x(b)).attr('y', top).attr('width', x.bandwidth()).attr('height', colH);
        col.append('title').text(`bank ${b}: ${ways} distinct word${ways === 1 ? '' : 's'}${ways > 1 ? ', served one after another' : ''}`);
        inBank.forEach(([w, lanes], k) => {
          const y = top + 5 + k * rowH;
          svg.append('rect').attr('class', 'word').attr('x', x(b) + 2).attr('y', y).attr('width', x.bandwidth() - 4).attr('height', rowH - 3)
            .append('title').text(`word ${w} (byte ${w * 4}) in bank ${b}: lane${lanes.length > 1 ? 's' : ''} ${lanes.join(', ')}`);
          svg.append('text').attr('class', 'word-label').attr('x', x(b) + x.bandwidth() / 2).attr('y', y + rowH - 6)
            .attr('text-anchor', 'middle').text(lanes.length === 1 ? `L${lanes[0]}` : `${lanes.length} L`);
        });
        if (ways > 1)
          svg.append('text').attr('class', 'ways-label').attr('x', x(b) + x.bandwidth() / 2).attr('y', top + colH + 16)
            .attr('text-anchor', 'middle').text(`${ways}-way`);
      }
    },
  };
}

// Any other memory (constant): the distinct addresses, in order.
function addresses(s, lanesX, rec) {
  const offsets = [...new Set(s.lanes.map((l) => l.offset))].sort((a, b) => a - b);
  const span = WIDTH - 20 - LEFT;
  const w = Math.min(64, span / Math.max(1, offsets.length));
  const x0 = LEFT + (span - w * offsets.length) / 2;
  const x = scaleBand().domain(offsets).range([x0, x0 + w * offsets.length]).paddingInner(0.12);
  const top = 170;
  return {
    height: top + 60,
    target: (l) => [x(l.offset) + x.bandwidth() / 2, top - 2],
    draw(svg) {
      svg.append('text').attr('class', 'row-title').attr('x', 0).attr('y', top + 18).text(`${rec.space} addresses`);
      for (const o of offsets) {
        const lane = s.lanes.find((l) => l.offset === o);
        svg.append('rect').attr('class', 'address').attr('x', x(o)).attr('y', top).attr('width', x.bandwidth()).attr('height', 26)
          .append('title').text(`byte ${o}${lane.index !== undefined ? `, element ${lane.index}` : ''}`);
        if (x.bandwidth() >= 18)
          svg.append('text').attr('class', 'sector-label').attr('x', x(o) + x.bandwidth() / 2).attr('y', top + 17)
            .attr('text-anchor', 'middle').text(String(lane.index ?? o));
      }
    },
  };
}

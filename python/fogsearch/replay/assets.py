"""The page's stylesheet and script, inlined into every page (no network, no CDN)."""

CSS = """
body { font: 14px/1.35 'DejaVu Sans', sans-serif; margin: 12px; color: #222; background: #fafafa; }
h1 { font-size: 18px; margin: 0 0 8px; }
#controls { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin-bottom: 8px; }
#controls input[type=range] { width: 320px; }
button { font: inherit; padding: 2px 8px; }
button.on { background: #333; color: #fff; }
#boards { display: flex; gap: 16px; flex-wrap: wrap; }
.panel h2 { font-size: 13px; margin: 4px 0; max-width: 352px; height: 34px; }
svg text { font-family: 'DejaVu Sans', sans-serif; pointer-events: none; }
#info { min-width: 260px; max-width: 340px; }
#info td { padding: 1px 6px 1px 0; vertical-align: top; }
#info td:first-child { color: #666; white-space: nowrap; }
#chart { margin-top: 10px; }
#moves { margin-top: 8px; max-height: 160px; overflow-y: auto; columns: 4; font-size: 12px; }
#moves div { cursor: pointer; }
#moves div.cur { background: #ffe08a; }
#moves .mark { color: #c00; }
.legend { font-size: 12px; color: #555; }
"""

JS = r"""
'use strict';
const D = JSON.parse(document.getElementById('game-data').textContent);
const GLYPH = {k: '\u265a', q: '\u265b', r: '\u265c', b: '\u265d', n: '\u265e', p: '\u265f'};
const NAMES = ['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'];
const S = 44, NS = 'http://www.w3.org/2000/svg';
const turns = Math.max(D.sides[0].length, D.sides[1].length);
const state = {t: 0, side: 0, piece: 0, model: false};

function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
function sqName(sq) { return 'abcdefgh'[sq % 8] + (Math.floor(sq / 8) + 1); }
function xy(sq, flip) {
  const f = sq % 8, r = Math.floor(sq / 8);
  return flip ? [(7 - f) * S, r * S] : [f * S, (7 - r) * S];
}
function placement(fen) {
  const out = new Array(64).fill(null);
  fen.split(' ')[0].split('/').forEach((row, i) => {
    let f = 0;
    for (const c of row) {
      if (c >= '1' && c <= '8') f += +c; else { out[(7 - i) * 8 + f] = c; f += 1; }
    }
  });
  return out;
}
function piece(svg, sq, sym, flip, opacity) {
  const [x, y] = xy(sq, flip);
  const white = sym === sym.toUpperCase();
  el('text', {x: x + S / 2, y: y + S * 0.78, 'text-anchor': 'middle', 'font-size': S * 0.8,
    fill: white ? '#fff' : '#111', stroke: white ? '#111' : '#888', 'stroke-width': 1,
    opacity: opacity}, svg).textContent = GLYPH[sym.toLowerCase()];
}
function squares(svg, flip, shade) {
  for (let sq = 0; sq < 64; sq++) {
    const [x, y] = xy(sq, flip);
    const light = (sq % 8 + Math.floor(sq / 8)) % 2 === 1;
    el('rect', {x: x, y: y, width: S, height: S, fill: shade ? (light ? '#eee' : '#d6d6d6')
      : (light ? '#f0d9b5' : '#b58863')}, svg);
  }
}
function arrow(svg, uci, flip, color, dash) {
  if (!uci) return;
  const from = 'abcdefgh'.indexOf(uci[0]) + 8 * (+uci[1] - 1);
  const to = 'abcdefgh'.indexOf(uci[2]) + 8 * (+uci[3] - 1);
  const [x1, y1] = xy(from, flip), [x2, y2] = xy(to, flip);
  el('line', {x1: x1 + S / 2, y1: y1 + S / 2, x2: x2 + S / 2, y2: y2 + S / 2, stroke: color,
    'stroke-width': 5, 'stroke-linecap': 'round', opacity: 0.75,
    'stroke-dasharray': dash ? '8 6' : 'none'}, svg);
  el('circle', {cx: x2 + S / 2, cy: y2 + S / 2, r: 7, fill: color, opacity: 0.75}, svg);
}
function mark(svg, sq, flip, color) {
  if (sq === null || sq === undefined) return;
  const [x, y] = xy(sq, flip);
  el('rect', {x: x + 2, y: y + 2, width: S - 4, height: S - 4, fill: 'none', stroke: color,
    'stroke-width': 4}, svg);
}
function frame() { return D.sides[state.side][state.t] || null; }

function drawTruth(f, flip) {
  const svg = document.getElementById('truth');
  svg.innerHTML = '';
  squares(svg, flip, false);
  if (!f) return;
  const board = placement(f.truth);
  board.forEach((sym, sq) => { if (sym) piece(svg, sq, sym, flip, 1); });
  if (f.s !== null) {
    const [x, y] = xy(f.s, flip);
    el('rect', {x: x - S, y: y - S, width: 3 * S, height: 3 * S, fill: '#3a7bd5',
      'fill-opacity': 0.15, stroke: '#3a7bd5', 'stroke-width': 3}, svg);
  }
  mark(svg, f.oc, flip, '#d00');
  mark(svg, f.c, flip, '#f80');
  arrow(svg, f.rq, flip, '#888', f.rq !== f.tk);
  arrow(svg, f.tk, flip, '#1a7f37', false);
}
function drawBelief(f, flip) {
  const svg = document.getElementById('belief');
  svg.innerHTML = '';
  squares(svg, flip, true);
  if (!f) return;
  const shares = state.model && f.mb ? f.mb : f.b;
  const own = f.side === 0 ? (c => c === c.toUpperCase()) : (c => c === c.toLowerCase());
  placement(f.truth).forEach((sym, sq) => { if (sym && own(sym)) piece(svg, sq, sym, flip, 0.35); });
  if (!shares) {
    el('text', {x: 4 * S, y: 4 * S, 'text-anchor': 'middle', 'font-size': 14}, svg)
      .textContent = 'not tracked (' + (f.stop || 'set too large') + ')';
    return;
  }
  for (let sq = 0; sq < 64; sq++) {
    let p = 0;
    if (state.piece === 0) for (let k = 0; k < 6; k++) p += shares[k][sq];
    else p = shares[state.piece - 1][sq];
    const [x, y] = xy(sq, flip);
    const cell = el('rect', {x: x, y: y, width: S, height: S, fill: '#d62728',
      'fill-opacity': Math.min(1, p / D.units) * 0.85, class: 'belief-sq', 'data-sq': sq,
      'data-p': (p / D.units).toFixed(4)}, svg);
    el('title', {}, cell).textContent = sqName(sq) + ': ' + (100 * p / D.units).toFixed(2) + '%';
    if (p > 0) el('text', {x: x + S / 2, y: y + S * 0.62, 'text-anchor': 'middle',
      'font-size': 12, fill: p / D.units > 0.5 ? '#fff' : '#000'}, svg)
      .textContent = p >= D.units ? '100' : (100 * p / D.units).toFixed(p < D.units / 10 ? 1 : 0);
  }
}
function num(n) { return n === null || n === undefined ? '-' : n.toLocaleString('en'); }
function drawInfo(f) {
  const rows = [];
  const name = state.side === 0 ? D.white : D.black;
  if (!f) {
    document.getElementById('info').textContent = (state.side === 0 ? 'White' : 'Black')
      + ' did not play turn ' + (state.t + 1) + ': the game ended before it.';
    return;
  }
  rows.push(['side', (state.side === 0 ? 'White' : 'Black') + ' (' + name + ')']);
  rows.push(['turn', f.t]);
  rows.push(['opponent captured', f.oc === null ? '-' : 'on ' + sqName(f.oc)]);
  rows.push(['sense', f.s === null ? 'none' : sqName(f.s) + ': ' + f.sr.map(
    ([sq, p]) => sqName(sq) + '=' + (p || '.')).join(' ')]);
  rows.push(['requested', f.rq || 'pass']);
  rows.push(['taken', (f.tk || 'pass') + (f.c === null ? '' : ', captured on ' + sqName(f.c))]);
  rows.push(['boards before sense', num(f.n[0])]);
  rows.push(['boards after sense', num(f.n[1])]);
  rows.push(['boards after move', num(f.n[2])]);
  const share = state.model && f.mts !== null ? f.mts : f.ts;
  rows.push(['true board\'s share', share === null ? '-' : (100 * share).toPrecision(3) + '%'
    + (state.model ? ' (model)' : ' (uniform)')]);
  if (f.lost) rows.push(['material', 'lost material this turn']);
  const shown = ['value', 'depth', 'plies', 'sense_by', 'weighed', 'tied', 'search_seconds', 'budget'];
  if (f.log) for (const k of shown) {
    const v = f.log[k];
    if (v === undefined || v === null) continue;
    if (typeof v === 'object') rows.push(['bot: ' + k, Object.entries(v).map(
      ([request, value]) => request + ' ' + value).join(', ')]);
    else rows.push(['bot: ' + k, typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(2) : v]);
  }
  if (f.stop) rows.push(['note', f.stop]);
  const table = document.createElement('table');
  for (const [k, v] of rows) {
    const tr = table.insertRow();
    tr.insertCell().textContent = k;
    tr.insertCell().textContent = v;
  }
  const info = document.getElementById('info');
  info.innerHTML = '';
  info.appendChild(table);
}
function drawChart() {
  const svg = document.getElementById('chart');
  svg.innerHTML = '';
  const W = 640, H = 170, L = 44, B = 20;
  let most = 1;
  D.sides.forEach(fs => fs.forEach(f => { if (f.n[0]) most = Math.max(most, f.n[0]); }));
  const top = Math.max(1, Math.ceil(Math.log10(most)));
  const x = t => L + (W - L - 10) * (turns > 1 ? t / (turns - 1) : 0);
  const y = n => H - B - (H - B - 8) * Math.log10(Math.max(1, n)) / top;
  for (let e = 0; e <= top; e++) {
    el('line', {x1: L, x2: W - 10, y1: y(10 ** e), y2: y(10 ** e), stroke: '#ddd'}, svg);
    el('text', {x: L - 4, y: y(10 ** e) + 4, 'text-anchor': 'end', 'font-size': 10}, svg)
      .textContent = '1e' + e;
  }
  ['#c9a227', '#333'].forEach((color, side) => {
    const pts = [];
    D.sides[side].forEach((f, t) => { if (f.n[1]) pts.push(x(t) + ',' + y(f.n[1])); });
    el('polyline', {points: pts.join(' '), fill: 'none', stroke: color, 'stroke-width': 2}, svg);
    D.sides[side].forEach((f, t) => {
      if (f.mark) el('circle', {cx: x(t), cy: y(f.n[1] || 1), r: 4, fill: '#d00',
        class: 'marked', 'data-side': side, 'data-turn': t}, svg);
    });
  });
  el('line', {x1: x(state.t), x2: x(state.t), y1: 4, y2: H - B, stroke: '#3a7bd5',
    'stroke-width': 2, id: 'cursor'}, svg);
  el('text', {x: W - 10, y: H - 4, 'text-anchor': 'end', 'font-size': 10}, svg).textContent =
    'boards after the sense, log scale (gold: White, black: Black; red: marked turn)';
  svg.onclick = ev => {
    const r = svg.getBoundingClientRect();
    go(Math.round((ev.clientX - r.left - L) / (W - L - 10) * (turns - 1)));
  };
}
function drawMoves() {
  const box = document.getElementById('moves');
  box.innerHTML = '';
  for (let t = 0; t < turns; t++) {
    const div = document.createElement('div');
    const w = D.sides[0][t], b = D.sides[1][t];
    div.textContent = (t + 1) + '. ' + (w ? w.tk || '--' : '') + ' ' + (b ? b.tk || '--' : '');
    if ((w && w.mark) || (b && b.mark)) div.className = 'mark';
    div.onclick = () => go(t);
    box.appendChild(div);
  }
}
function render() {
  const f = frame(), flip = state.side === 1;
  drawTruth(f, flip);
  drawBelief(f, flip);
  drawInfo(f);
  drawChart();
  document.getElementById('slider').value = state.t;
  document.getElementById('turn-label').textContent = 'turn ' + (state.t + 1) + ' / ' + turns;
  document.body.dataset.turn = state.t + 1;
  document.body.dataset.side = state.side === 0 ? 'white' : 'black';
  document.querySelectorAll('#moves div').forEach((d, t) => d.classList.toggle('cur', t === state.t));
  document.querySelectorAll('[data-side-button]').forEach(b =>
    b.classList.toggle('on', +b.dataset.sideButton === state.side));
  document.querySelectorAll('[data-piece]').forEach(b =>
    b.classList.toggle('on', +b.dataset.piece === state.piece));
  const m = document.getElementById('model');
  if (m) m.classList.toggle('on', state.model);
}
function go(t) { state.t = Math.max(0, Math.min(turns - 1, t)); render(); }
function setup() {
  document.getElementById('title').textContent = D.white + ' (White) vs ' + D.black + ' (Black): ' + D.result;
  const slider = document.getElementById('slider');
  slider.max = turns - 1;
  slider.oninput = () => go(+slider.value);
  document.getElementById('prev').onclick = () => go(state.t - 1);
  document.getElementById('next').onclick = () => go(state.t + 1);
  document.querySelectorAll('[data-side-button]').forEach(b =>
    b.onclick = () => { state.side = +b.dataset.sideButton; render(); });
  document.querySelectorAll('[data-piece]').forEach(b =>
    b.onclick = () => { state.piece = +b.dataset.piece; render(); });
  const m = document.getElementById('model');
  if (D.hasModel) m.onclick = () => { state.model = !state.model; render(); };
  else m.remove();
  document.addEventListener('keydown', ev => {
    const to = {ArrowLeft: state.t - 1, ArrowRight: state.t + 1, Home: 0, End: turns - 1}[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    go(to);
  });
  drawMoves();
  render();
}
setup();
"""

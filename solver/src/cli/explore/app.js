// stud explore: walks a strategy's betting tree street by street. The server answers
// GET /api/node?spot=SPOT (the spot in `stud query` notation); this page draws the answer.
// The URL's fragment keeps the spot (#spot=3c 8d pb), so a reload or a link comes back to it;
// #play=3c 8d pb clicks the page's own buttons one step at a time (the browser test's route);
// #values=AsKd then asks the values of the actions for those down cards (#values=- for none).
// Values come from GET /api/values?spot=SPOT&hand=CARDS, asked only on a click: an estimate
// takes seconds. With `stud explore A --diff B` a decision also shows B's strategy beside A's.
// A multiway file (three to eight seats) is walked the same way: every seat's up cards, the
// seat to act's strategy, each live seat's range as `stud query --ranges` gives a table's.
// The Train tab (#train=SEED, and &pick=CODE to pick as a click would) asks
// GET /api/drill?seed=SEED for a spot dealt from the seed, then &pick=CODE for the judgement;
// the page keeps the score.
'use strict';

let spot = [];
let busy = Promise.resolve();

const $ = (id) => document.getElementById(id);

// An element with attributes and children (strings become text: nothing is parsed as HTML).
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'onclick') e.addEventListener('click', v);
    // Styles through the CSSOM: the page's Content-Security-Policy refuses inline style text.
    else if (k === 'css') Object.assign(e.style, v);
    else if (v !== null && v !== undefined) e.setAttribute(k, v);
  }
  for (const k of kids.flat()) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return e;
}

// A card with its suit coloured.
function card(c) {
  return el('span', { class: 'cards s-' + c[1] }, c);
}

// What kind of action a PHH code is: f fold, c check/call/bring-in, r bet/raise/complete.
function kind(code) {
  return code === 'f' ? 'f' : code.startsWith('cbr') ? 'r' : 'c';
}

// The colour of each kind of action (as in style.css's .k-f, .k-c, .k-r).
const RGB = { f: '127,166,214', c: '121,199,121', r: '224,122,122' };

const pct = (p) => (100 * p).toFixed(1) + '%';

// Asks the server where the spot leads and draws it; the returned promise ends when drawn.
function go(tokens) {
  spot = tokens;
  history.replaceState(null, '', '#spot=' + encodeURIComponent(spot.join(' ')));
  busy = fetch('/api/node?spot=' + encodeURIComponent(spot.join(' ')))
    .then((r) => r.json().then((v) => ({ ok: r.ok, v })))
    .then(({ ok, v }) => {
      if (!ok) throw new Error(v.error || 'the server refused the spot');
      $('error').hidden = true;
      draw(v);
    })
    .catch((e) => {
      $('error').hidden = false;
      $('error').textContent = String(e.message || e);
    });
  return busy;
}

function drawHistory(v) {
  const h = $('history');
  h.replaceChildren();
  let street = null;
  let group = null;
  v.history.forEach((step, i) => {
    if (step.street_name !== street) {
      street = step.street_name;
      group = el('span', {}, el('span', { class: 'street' }, street + ':'));
      h.append(group);
    }
    group.append(
      el('button', { title: 'back to before this', 'data-back': i, onclick: () => go(spot.slice(0, i)) }, step.text),
      ' '
    );
  });
  if (v.history.length > 0) h.append(el('button', { 'data-back': 'start', onclick: () => go([]) }, 'new hand'));
}

function drawBoard(v) {
  const b = $('board');
  const folded = new Set(v.folded);
  b.replaceChildren(
    ...v.up.map((up, s) => el('p', { 'data-seat': s, class: folded.has(s) ? 'folded' : null }, `p${s + 1} shows: `,
      up.length ? up.flatMap((c) => [card(c), ' ']) : 'nothing yet', folded.has(s) ? '(folded)' : '')),
    v.community.length ? el('p', {}, 'the community card: ', ...v.community.map(card)) : '',
    el('p', {}, 'pot ', el('b', { id: 'pot' }, String(v.pot)))
  );
}

// The places in a street's order of play.
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth'];

function drawDeal(v) {
  const seat = v.due[0];
  const left = new Set(v.unseen);
  const deck = el('div', { class: 'deck' });
  // Ranks down, suits across, as a player sorts a deck: aces first.
  for (const s of 'shdc') {
    for (const r of 'AKQJT98765432') {
      const c = r + s;
      deck.append(el('button', { 'data-step': c, disabled: left.has(c) ? null : '', onclick: () => go([...spot, c]) }, card(c)));
    }
  }
  const random = () => go([...spot, v.unseen[Math.floor(Math.random() * v.unseen.length)]]);
  $('panel').replaceChildren(
    el('h2', {}, v.community_due ? `${v.street_name}: the community card` : `${v.street_name}: p${seat + 1}'s up card`),
    deck,
    el('p', { class: 'actions' }, el('button', { id: 'random', onclick: random }, 'a random card'))
  );
  $('charts').replaceChildren();
}

function drawDecision(v) {
  const q = v.query;
  const role = ORDINALS[q.role];
  const odds = v.pot_odds === null ? '' : ` · to call ${v.to_call}, pot odds ${pct(v.pot_odds)}`;
  const buttons = q.action_names.map((name, i) =>
    el('button', { class: kind(v.next[i]), 'data-step': v.next[i], onclick: () => go([...spot, v.next[i]]) }, name)
  );
  $('panel').replaceChildren(
    el('h2', { id: 'decision' }, `p${v.seat + 1} to act on ${v.street_name} (${role} to act on this street)`),
    el('p', { id: 'odds' }, `pot ${v.pot}${odds}`),
    v.seats > 2 ? el('p', { id: 'against' }, tableWords(q)) : '',
    q.capped ? el('p', {}, "past the strategy's raise cap: its game has no more raises here, and it calls") : '',
    el('p', { class: 'actions' }, buttons),
    el('p', {}, 'The same node on the command line:'),
    el('code', { id: 'command' }, v.command),
    el('p', { class: 'actions' },
      el('input', { id: 'values-hand', size: 14, placeholder: 'down cards: As Kd', title: "the down cards of the player to act (none: the whole range and each hand class)" }),
      el('button', { id: 'values-go', onclick: () => askValues() }, 'values of the actions')),
    el('section', { id: 'values' })
  );
  const codes = v.next;
  const head = () => q.action_names.map((n) => el('th', {}, n));
  const probCells = (ps) =>
    ps.map((p, i) => el('td', { class: 'p', 'data-p': p, css: { background: `rgba(${RGB[kind(codes[i])]},${p.toFixed(3)})` } }, p.toFixed(3)));
  const bar = (ps) =>
    el('td', { class: 'bar' }, ps.map((p, i) => el('span', { class: 'k-' + kind(codes[i]), css: { width: `${(100 * p).toFixed(1)}%` } })));
  const board = v.up.map((up, s) => `p${s + 1} ${up.join(' ')}`).join(', ');
  const chart = el('table', { id: 'chart' },
    el('caption', {}, `p${v.seat + 1}'s strategy by hand class on this board (${board}; its ${q.chart.holdings} possible down cards, each with its bucket's row)`),
    el('tr', {}, el('th', {}, 'hand class'), el('th', {}, 'holdings'), head(), el('th', {}, '')),
    q.chart.rows.map((r) =>
      el('tr', { 'data-class': r.class, class: r.holdings ? null : 'none' },
        el('td', { class: 'name' }, r.class),
        el('td', {}, String(r.holdings)),
        r.holdings ? probCells(r.probabilities) : q.action_names.map(() => el('td', {}, '')),
        r.holdings ? bar(r.probabilities) : el('td', {}, ''))
    )
  );
  const rows = q.hands.filter((h) => h.bucket === null || h.holdings > 0);
  const buckets = el('table', { id: 'buckets' },
    el('caption', {}, 'by bucket (the rows the file stores; marked: never reached in the solve)'),
    el('tr', {}, el('th', {}, 'bucket'), el('th', {}, 'holds'), el('th', {}, 'e.g.'), el('th', {}, 'EHS'), el('th', {}, 'hand classes'), head()),
    rows.map((h) =>
      el('tr', { 'data-bucket': h.bucket === null ? 'all' : h.bucket },
        el('td', {}, h.bucket === null ? 'all' : String(h.bucket)),
        el('td', {}, h.holdings === undefined ? '' : String(h.holdings)),
        el('td', { class: 'name' }, (h.examples || []).join(', ')),
        el('td', {}, h.ehs === undefined ? '' : h.ehs.toFixed(3)),
        el('td', { class: 'desc' }, (h.description || '') + (h.unreached ? ' (unreached)' : '')),
        probCells(h.probabilities))
    )
  );
  const ranges = q.ranges.map(v.seats > 2 ? drawTableRange : drawRange);
  $('charts').replaceChildren(chart, ...(v.diff ? [drawDiff(v, codes)] : []), ...ranges, buckets);
}

// Whom a table's buckets are measured against: the seat's best showing live opponent (and, in
// a file of the table view, beside the other up cards).
function tableWords(q) {
  const against = `p${q.against + 1} (${q.showing[q.against]})`;
  const beside = q.view === 'table' ? ', beside every other up card' : '';
  return `${q.live.length} seats live; each bucket is of p${q.seat + 1}'s cards against ${against}, the best showing live opponent${beside}`;
}

// A live seat's range at a table: by hand class, its holdings the betting leaves possible and
// their part of the range (share, also as a bar); its likeliest holdings below.
function drawTableRange(r) {
  const p = `p${r.seat + 1}`;
  if (r.down_cards === 0) return el('p', { id: `range-${p}` }, `${p} holds no down card yet`);
  const lost = r.lost ? ` ${p} took an action its strategy never takes with any holding: from there every holding counts alike.` : '';
  return el('section', { id: `range-${p}`, 'data-holdings': r.holdings },
    el('table', {},
      el('caption', {}, `${p}'s range reaching this node (showing ${r.showing}): ${r.holdings} holdings of its ${r.down_cards} down cards left possible by the betting.${lost}`),
      el('tr', {}, el('th', {}, 'hand class'), el('th', {}, 'holdings'), el('th', { title: 'their part of the range' }, 'share'), el('th', {}, '')),
      r.classes.map((c) =>
        el('tr', { 'data-range-class': c.class },
          el('td', { class: 'name' }, c.class),
          el('td', {}, String(c.holdings)),
          el('td', { class: 'p', 'data-share': c.share }, pct(c.share)),
          el('td', { class: 'bar' }, el('span', { class: 'k-s', css: { width: `${(100 * c.share).toFixed(1)}%` } }))))),
    el('p', { class: 'top' }, 'likeliest holdings: ',
      r.top.map((h, i) => el('span', { 'data-top': h.cards, 'data-share': h.share }, (i ? ', ' : '') + `${h.cards} ${pct(h.share)}`))));
}

// How the compared file's strategy differs here: by hand class and by bucket, A's row, B's row
// and the probability mass that moved (half the sum of the changes).
function drawDiff(v, codes) {
  const d = v.diff;
  const names = v.query.action_names;
  if (d.capped) return el('p', { id: 'diff' }, `${d.file}: past the raise cap both files call`);
  const head = (what) => el('tr', {}, el('th', {}, what), names.map((n) => el('th', {}, 'A ' + n)), names.map((n) => el('th', {}, 'B ' + n)), el('th', {}, 'moved'));
  const cells = (ps, side) => ps.map((p, i) => el('td', { class: 'p', ['data-' + side]: p, css: { background: `rgba(${RGB[kind(codes[i])]},${p.toFixed(3)})` } }, p.toFixed(3)));
  const row = (label, attrs, r) =>
    el('tr', attrs, el('td', { class: 'name' }, label), cells(r.a, 'a'), cells(r.b, 'b'),
      el('td', { class: 'moved', 'data-moved': r.moved }, r.moved.toFixed(3)));
  return el('section', { id: 'diff' },
    el('table', {},
      el('caption', {}, `B = ${d.file} against A = ${v.file}: p${v.seat + 1}'s strategy by hand class (largest move of any row here: ${d.largest_move.toFixed(3)})`),
      head('hand class'),
      d.classes.map((c) => row(c.class, { 'data-diff-class': c.class }, c))),
    el('details', {},
      el('summary', {}, 'the same by bucket (the rows `stud query --diff` compares)'),
      el('table', {}, head('bucket'), d.buckets.map((b) => row(String(b.bucket), { 'data-diff-bucket': b.bucket }, b)))));
}

// A seat's range reaching the node: by hand class, how likely the betting so far is with it
// (reach) and its part of the range (share, also as a bar); the same by bucket, folded.
function drawRange(r) {
  const p = `p${r.seat + 1}`;
  const row = (label, attrs, x) =>
    el('tr', attrs,
      el('td', { class: 'name' }, label),
      el('td', {}, String(x.holdings)),
      el('td', { class: 'p', 'data-reach': x.reach }, x.reach.toFixed(4)),
      el('td', { class: 'p', 'data-share': x.share }, pct(x.share)),
      el('td', { class: 'bar' }, el('span', { class: 'k-s', css: { width: `${(100 * x.share).toFixed(1)}%` } })));
  const head = (what) => el('tr', {}, el('th', {}, what), el('th', {}, 'holdings'), el('th', { title: 'the probability of the betting so far with these cards' }, 'reach'), el('th', { title: 'their part of the range' }, 'share'), el('th', {}, ''));
  const lost = r.lost ? ` ${p} took an action its strategy never takes with any holding: from there every holding counts alike.` : '';
  return el('section', { id: `range-${p}`, 'data-reach': r.reach },
    el('table', {},
      el('caption', {}, `${p}'s range reaching this node: the betting so far has probability ${r.reach.toFixed(4)} over its ${r.holdings} possible down cards.${lost}`),
      head('hand class'),
      r.classes.filter((c) => c.holdings > 0).map((c) => row(c.class, { 'data-range-class': c.class }, c))),
    el('details', {},
      el('summary', {}, `${p}'s range by bucket`),
      el('table', {}, head('bucket'), r.buckets.map((b) => row(String(b.bucket), { 'data-range-bucket': b.bucket }, b)))));
}

// Asks the server for the value of each action at this decision (for the down cards typed in,
// and by hand class) and draws them; `samples`: the deals of an estimate (the server's default
// for the file's seats unless given).
function askValues(samples) {
  const hand = $('values-hand').value.trim();
  const out = $('values');
  out.replaceChildren(el('p', {}, 'working out the values (an estimate takes some seconds)...'));
  const q = '/api/values?spot=' + encodeURIComponent(spot.join(' ')) + (hand ? '&hand=' + encodeURIComponent(hand) : '') +
    (samples ? '&samples=' + samples : '');
  busy = fetch(q)
    .then((r) => r.json().then((v) => ({ ok: r.ok, v })))
    .then(({ ok, v }) => {
      if (!ok) throw new Error(v.error || 'the server refused the values');
      drawValues(v);
    })
    .catch((e) => out.replaceChildren(el('p', { id: 'values-error', class: 'error' }, String(e.message || e))));
  return busy;
}

// The values of the actions in chips from here (a fold 0), the best of each row marked, a
// bar per value; the big bets in each cell's title and in the hand's own row.
function drawValues(v) {
  const signed = (x, d) => (x >= 0 ? '+' : '') + x.toFixed(d);
  const cell = (l, i) => signed(l.chips[i], 2) + (l.plus_minus ? ' ±' + l.plus_minus[i].toFixed(2) : '');
  const best = (l) => l.chips.indexOf(Math.max(...l.chips));
  const how = v.method === 'exact'
    ? 'exact: every holding of both seats and every card to come, both seats playing the file to the end'
    : v.seats > 2
      ? `estimated from ${v.samples} deals of every seat's down cards from its range and of the cards to come, every seat playing the file to the end; ± a 95% interval`
      : `estimated from ${v.samples} deals of the unknown cards, both seats playing the file to the end; ± a 95% interval`;
  const row = (label, attrs, l, share) =>
    el('tr', attrs,
      el('td', { class: 'name' }, label),
      el('td', {}, share),
      l.chips.map((c, i) => el('td', { class: 'v' + (i === best(l) ? ' best' : ''), 'data-chips': c, title: signed(l.big_bets[i], 3) + ' big bets' }, cell(l, i))));
  const rows = [];
  if (v.hand) {
    rows.push(row(`with ${v.hand.cards}`, { 'data-values-hand': v.hand.cards }, v.hand, ''));
    rows.push(el('tr', { class: 'bb' }, el('td', { class: 'name' }, '  in big bets'), el('td', {}, ''),
      v.hand.big_bets.map((x, i) => el('td', { 'data-big-bets': x }, signed(x, 3) + (v.hand.plus_minus_big_bets ? ' ±' + v.hand.plus_minus_big_bets[i].toFixed(3) : '')))));
  }
  if (v.range) rows.push(row('the whole range', { 'data-values-range': 'all' }, v.range, '100%'));
  for (const c of v.classes) rows.push(row(c.class + (c.reached ? '' : ' (unreached)'), { 'data-values-class': c.class }, c, pct(c.share)));
  const more = v.classes_unsampled ? ` (${v.classes_unsampled} more classes met in fewer than 2 deals)` : '';
  // An estimate can be sharpened: four times the deals halve the interval, in four times the time.
  const sharper = v.method === 'estimate' && v.samples * 4 <= v.max_samples
    ? el('button', { id: 'values-sharper', onclick: () => askValues(v.samples * 4) },
      `${v.samples * 4} deals: half the interval, four times the wait`)
    : '';
  $('values').dataset.method = v.method;
  $('values').replaceChildren(el('table', { id: 'values-table' },
    el('caption', {}, `values of p${v.seat + 1}'s actions from here, in chips (a fold is worth 0; a big bet is ${v.big_bet} chips); ${how}${more}`),
    el('tr', {}, el('th', {}, 'holding'), el('th', {}, 'share'), v.action_names.map((n) => el('th', {}, n))),
    rows), sharper);
}

function drawOver(v) {
  // A fold settles the pot; a showdown's winner depends on the down cards, which are unknown.
  const text = v.payoffs.length
    ? 'The hand is over: ' + v.payoffs.map((x, s) => `p${s + 1} ${x > 0 ? '+' : ''}${x}`).join(', ')
    : `The hand goes to a showdown for a pot of ${v.pot}`;
  $('panel').replaceChildren(el('h2', { id: 'over' }, text),
    el('p', { class: 'actions' }, el('button', { onclick: () => go([]) }, 'new hand')));
  $('charts').replaceChildren();
}

function draw(v) {
  $('title').textContent = `stud explore: ${v.game}`;
  $('where').textContent = v.seats > 2 ? `${v.file} (${v.seats} seats)` : v.file;
  // Drills are dealt heads-up: a table's file has no Train tab.
  $('tab-train').hidden = v.seats > 2;
  drawHistory(v);
  drawBoard(v);
  if (v.state === 'deal') drawDeal(v);
  else if (v.state === 'decision') drawDecision(v);
  else drawOver(v);
  document.body.dataset.spot = v.spot;
}

// Clicks the button of each step in turn, as a user would; stops at the first missing one.
async function play(steps) {
  for (const s of steps) {
    const b = document.querySelector(`[data-step="${CSS.escape(s)}"]`);
    if (!b || b.disabled) {
      $('error').hidden = false;
      $('error').textContent = `no button for ${s} here`;
      return;
    }
    b.click();
    await busy;
  }
}

// The Train tab: a spot dealt from a seed, the user's pick judged, the score kept here.
const score = { decisions: 0, lost: 0, agreed: 0, worst: [], bigBet: 0 };
// A choice counts as the coach's own when it plays it at least this often.
const AGREE_AT = 0.1;

function tab(which) {
  $('browse').hidden = which !== 'browse';
  $('train').hidden = which !== 'train';
  $('history').hidden = which !== 'browse';
  $('tab-browse').className = which === 'browse' ? 'on' : '';
  $('tab-train').className = which === 'train' ? 'on' : '';
}

function askDrill(q) {
  return fetch('/api/drill?' + q)
    .then((r) => r.json().then((v) => ({ ok: r.ok, v })))
    .then(({ ok, v }) => {
      if (!ok) throw new Error(v.error || 'the server refused the drill');
      $('error').hidden = true;
      return v;
    });
}

function showError(e) {
  $('error').hidden = false;
  $('error').textContent = String(e.message || e);
}

// Deals the spot of `seed` and draws it with a button per action.
function train(seed) {
  tab('train');
  history.replaceState(null, '', '#train=' + seed);
  busy = askDrill('seed=' + seed).then(drawDrill).catch(showError);
  return busy;
}

function drawDrill(v) {
  const me = v.seat;
  const other = 1 - me;
  const buttons = v.action_names.map((name, i) =>
    el('button', { class: kind(v.actions[i]), 'data-pick': v.actions[i], onclick: () => pick(v, i) }, name));
  $('train').replaceChildren(
    el('h2', { id: 'drill', 'data-seed': v.seed, 'data-spot': v.spot }, `${v.street_name}: you are p${me + 1}, to act`),
    el('p', {}, 'your cards: (', v.down.flatMap((c) => [card(c), ' ']), ') ', v.up[me].flatMap((c) => [card(c), ' '])),
    el('p', {}, `p${other + 1} shows: `, v.up[other].flatMap((c) => [card(c), ' '])),
    el('p', {}, 'the hand so far: ', el('code', {}, v.spot), ` · pot ${v.pot} (a big bet is ${v.big_bet} chips)`),
    el('p', { class: 'actions', id: 'drill-actions' }, buttons),
    el('section', { id: 'drill-result' }),
    el('p', { class: 'actions' }, el('button', { id: 'drill-next', onclick: () => train(v.seed + 1) }, 'next spot')),
    el('section', { id: 'drill-score' }));
  drawScore();
}

// Asks the judgement of action `i`, adds it to the score and draws both.
function pick(v, i) {
  for (const b of document.querySelectorAll('#drill-actions button')) b.disabled = true;
  $('drill-result').replaceChildren(el('p', {}, 'working out the values (an estimate takes some seconds)...'));
  busy = askDrill(`seed=${v.seed}&pick=${encodeURIComponent(v.actions[i])}`)
    .then((r) => {
      score.decisions += 1;
      score.lost += r.loss;
      score.bigBet = r.big_bet;
      score.agreed += r.frequencies[r.chosen] >= AGREE_AT ? 1 : 0;
      if (r.loss > 0) {
        score.worst.push({ loss: r.loss, pm: r.loss_plus_minus, text: `${r.street_name}, (${r.down.join(' ')}) ${r.up[r.seat].join(' ')} after ${r.spot}: ${r.action_names[r.chosen]} (the best: ${r.action_names[r.best]})` });
        score.worst.sort((a, b) => b.loss - a.loss);
        score.worst.length = Math.min(score.worst.length, 5);
      }
      drawResult(r);
      drawScore();
    })
    .catch(showError);
  return busy;
}

function drawResult(r) {
  const signed = (x) => (x >= 0 ? '+' : '') + x.toFixed(2);
  const pm = (x) => (x === null || x === undefined ? '' : ' ±' + x.toFixed(2));
  const how = r.method === 'exact' ? 'exact' : `estimated from ${r.samples} deals, ± a 95% interval`;
  const verdict = r.chosen === r.best
    ? `you chose ${r.action_names[r.chosen]}: the best action, nothing lost`
    : `you chose ${r.action_names[r.chosen]}: lost ${r.loss.toFixed(2)}${pm(r.loss_plus_minus)} chips (${r.loss_big_bets.toFixed(3)} big bets) against ${r.action_names[r.best]}, the best`;
  $('drill-result').dataset.method = r.method;
  $('drill-result').replaceChildren(
    el('p', { id: 'drill-verdict', 'data-loss': r.loss }, verdict),
    el('table', { id: 'drill-table' },
      el('caption', {}, `the strategy's frequencies with your cards, and each action's value from here in chips (${how}; a fold is worth 0)`),
      el('tr', {}, el('th', {}, 'action'), el('th', {}, 'strategy'), el('th', {}, 'value')),
      r.action_names.map((n, i) =>
        el('tr', { 'data-action': r.actions[i], class: (i === r.chosen ? 'chosen' : '') + (i === r.best ? ' best' : '') },
          el('td', { class: 'name' }, n),
          el('td', { class: 'p', 'data-frequency': r.frequencies[i] }, pct(r.frequencies[i])),
          el('td', { class: 'v', 'data-value': r.values[i] }, signed(r.values[i]) + pm(r.plus_minus ? r.plus_minus[i] : null))))));
}

function drawScore() {
  const n = score.decisions;
  const mean = n ? score.lost / n : 0;
  const mbb = score.bigBet ? ` (${(1000 * mean / score.bigBet).toFixed(1)} mbb: thousandths of a big bet)` : '';
  $('drill-score').replaceChildren(
    el('h3', {}, 'score'),
    el('p', { id: 'score', 'data-decisions': n, 'data-lost': score.lost, 'data-agreed': score.agreed },
      n === 0 ? 'no decision yet' : `${n} decisions, ${score.lost.toFixed(2)} chips lost in all, ${mean.toFixed(2)} chips per decision${mbb}; ${score.agreed} of ${n} chose an action the strategy plays at least ${100 * AGREE_AT}% of the time`),
    score.worst.length ? el('ol', { id: 'worst' }, score.worst.map((w) => el('li', {}, `${w.loss.toFixed(2)}${w.pm ? ' ±' + w.pm.toFixed(2) : ''} chips: ${w.text}`))) : '');
}

async function start() {
  $('tab-browse').addEventListener('click', () => { tab('browse'); go(spot); });
  $('tab-train').addEventListener('click', () => train(Math.floor(Math.random() * 1e9)));
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has('train')) {
    await train(Number(hash.get('train')) || 0);
    const want = hash.get('pick');
    const b = want && document.querySelector(`[data-pick="${CSS.escape(want)}"]`);
    if (b) {
      b.click();
      await busy;
    }
    document.body.dataset.ready = 'yes';
    return;
  }
  const words = (k) => (hash.get(k) || '').split(/\s+/).filter((x) => x);
  await go(words('spot'));
  await play(words('play'));
  if (hash.has('values') && $('values-hand')) {
    $('values-hand').value = hash.get('values') === '-' ? '' : hash.get('values');
    await askValues();
  }
  document.body.dataset.ready = 'yes';
}

start();

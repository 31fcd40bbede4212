// The page: the editor, the URL fragment, and the answers the worker (worker.js) sends back.
// Every number shown comes from the library; this file only lays them out.

const $ = (id) => document.getElementById(id);
const RULES = ['start', 'overshoot', 'die', 'roll-again', 'chain'];
let boards = [];          // the built-in boards: {name, summary, text}
let worker = null;
let busy = false;         // the worker has not finished the latest request
let requestId = 0;
let picked = null;        // the square clicked first, for a new snake or ladder

let spare = null;          // a worker started ahead, its WebAssembly loaded, for the next restart

function newWorker() {
  const w = new Worker('worker.js', { type: 'module' });
  w.onmessage = (event) => { if (w === worker) onAnswer(event.data); };
  return w;
}

// The worker in use becomes the spare (or a new one), and a new spare starts loading.
function startWorker() {
  worker = spare ?? newWorker();
  spare = newWorker();
}

// The fragment: #builtin=NAME or #board=TEXT, then &RULE=VALUE for each switch set.
function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const name = params.get('builtin');
  const board = boards.find((b) => b.name === name);
  if (board) {
    $('builtin').value = board.name;
    $('board-text').value = board.text;
  } else if (params.has('board')) {
    $('builtin').value = '';
    $('board-text').value = params.get('board');
  } else {
    $('builtin').value = 'milton-bradley';
    $('board-text').value = boards.find((b) => b.name === 'milton-bradley').text;
  }
  for (const rule of RULES) $('rule-' + rule).value = params.get(rule) ?? '';
}

function writeFragment() {
  const parts = [];
  const name = $('builtin').value;
  if (name) parts.push('builtin=' + encodeURIComponent(name));
  else parts.push('board=' + encodeURIComponent($('board-text').value));
  for (const rule of RULES) {
    const value = $('rule-' + rule).value.trim();
    if (value) parts.push(rule + '=' + encodeURIComponent(value));
  }
  history.replaceState(null, '', '#' + parts.join('&'));
}

function rulesJson() {
  const rules = {};
  const start = $('rule-start').value.trim();
  if (start) rules.start = Number(start);
  for (const [id, key] of [['overshoot', 'overshoot'], ['die', 'die'], ['roll-again', 'roll_again']]) {
    const value = $('rule-' + id).value.trim();
    if (value) rules[key] = value;
  }
  const chain = $('rule-chain').value;
  if (chain) rules.chain = chain === 'true';
  return JSON.stringify(rules);
}

const ANSWER_IDS = ['expected-turns', 'standard-deviation', 'median', 'quantiles',
  'shortest-turns', 'first-player-wins'];

function request() {
  if (busy) {
    // Still on an older board (a large one, maybe): drop that work at once.
    worker.terminate();
    startWorker();
  }
  busy = true;
  requestId += 1;
  for (const id of ANSWER_IDS) setText(id, '…');
  $('expected-turns').removeAttribute('data-exact');
  $('expected-exact').textContent = '';
  $('shortest-rolls').textContent = '';
  $('status').textContent = 'computing…';
  worker.postMessage({ id: requestId, text: $('board-text').value, rules: rulesJson() });
}

let timer = null;
function edited() {
  writeFragment();
  clearTimeout(timer);
  timer = setTimeout(request, 30);
}

function setText(id, text, refused = false) {
  $(id).textContent = text;
  $(id).classList.toggle('refused', refused);
}

// A question the library refused or could not answer: its message (over a limit, with the
// estimate) in the answer's place.
function refusal(error) {
  return error.kind === 'too_large'
    ? `over the limits: ${error.message}`
    : error.message;
}

const SHOW = {
  board(ok) {
    setText('board-error', '');
    showPicture(ok.svg, ok.size);
  },
  heat(ok) { showPicture(ok.svg, ok.size); },
  expect(ok) {
    if (!ok.finite) {
      setText('expected-turns', 'infinite: the game can go on for ever');
      setText('standard-deviation', 'infinite');
      return;
    }
    const turns = ok.finite.turns;
    setText('expected-turns', turns.decimal);
    $('expected-turns').dataset.exact = `${turns.numerator}/${turns.denominator}`;
    $('expected-exact').textContent = `= ${turns.numerator}/${turns.denominator}`;
    setText('standard-deviation', ok.standard_deviation);
  },
  shortest(ok) {
    if (!ok.shortest) { setText('shortest-turns', 'never finishes'); return; }
    setText('shortest-turns', String(ok.shortest.turns));
    const rolls = ok.shortest.rolls.map((turn) => turn.join('+')).join(', ');
    $('shortest-rolls').textContent =
      `(probability ${ok.shortest.probability.decimal}; rolls ${rolls})`;
  },
  moments() {},
  distribution(ok) {
    // The quantiles by level: {"0.5": turns, "0.9": turns, ...} (null beyond the turns computed).
    const median = ok.quantiles['0.5'];
    setText('median', median != null ? `${median} turns` : '…');
    setText('quantiles', Object.entries(ok.quantiles)
      .map(([level, turns]) => `${level}: ${turns}`).join(', ') +
      ` (mode ${ok.mode})`);
    drawChart(ok.distribution);
  },
  race(ok) {
    const win = ok.seats[0].win;
    setText('first-player-wins', ok.first_wins);
    $('first-player-wins').title = `between ${win.lo.decimal} and ${win.hi.decimal}`;
  },
};

const SHOWS_ERROR = {
  expect: 'expected-turns', shortest: 'shortest-turns', distribution: 'median',
  race: 'first-player-wins',
};

function onAnswer(message) {
  if (message.kind === 'builtins') { onBuiltins(message.boards); return; }
  if (message.id !== requestId) return;
  if (message.done) {
    busy = false;
    $('status').textContent = '';
    return;
  }
  show(message.question, message.answer);
}

function show(question, answer) {
  if (answer.ok !== undefined) {
    if (SHOW[question]) SHOW[question](answer.ok);
    return;
  }
  const error = answer.error;
  if (error.kind === 'usage') return;  // a question this build does not know: left at …
  if (question === 'board') {
    const lines = error.problems
      ? error.problems.map((p) => (p.line ? `line ${p.line}: ` : '') + p.message)
      : [error.message];
    setText('board-error', lines.join('\n'));
    $('picture').innerHTML = '';
    for (const id of ANSWER_IDS) setText(id, '');
    $('chart').innerHTML = '';
  } else if (SHOWS_ERROR[question]) {
    setText(SHOWS_ERROR[question], refusal(error), true);
    if (error.too_large) $(SHOWS_ERROR[question]).dataset.estimate = error.too_large.estimate;
  }
}

// Above this many squares the picture waits for a click: parsing it would hold the page up
// for a second or more.
const PICTURE_ON_DEMAND_ABOVE = 2500;

function showPicture(svg, size) {
  if (size > PICTURE_ON_DEMAND_ABOVE) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = `Draw the board (${size.toLocaleString('en')} squares: slow)`;
    button.addEventListener('click', () => { $('picture').innerHTML = svg; });
    $('picture').replaceChildren(button);
  } else {
    $('picture').innerHTML = svg;
  }
  listJumps();
}

// A distribution chart: one bar per turn count, P(T = n) as the library gave it.
function drawChart(terms) {
  const ps = terms.map((t) => Number(t.p.decimal));
  const top = Math.max(...ps) || 1;
  const w = 600 / Math.max(terms.length, 1);
  $('chart').innerHTML = terms.map((t, i) => {
    const h = (ps[i] / top) * 170;
    return `<rect x="${(i * w).toFixed(2)}" y="${(178 - h).toFixed(2)}" width="${Math.max(w * 0.9, 0.5).toFixed(2)}" height="${h.toFixed(2)}" fill="#4a7"><title>n = ${t.n}: ${t.p.decimal}</title></rect>`;
  }).join('');
}

// Editing by clicks: a square, then another, adds a snake (down) or a ladder (up) to the text.
function pick(square, cell) {
  if (picked === null) {
    picked = square;
    cell.classList.add('picked');
    return;
  }
  const [from, to] = [picked, square];
  picked = null;
  if (from === to) { listJumps(); return; }
  editJumps((jumps) => jumps[to < from ? 'snakes' : 'ladders'].push([from, to]));
}

// The jumps written as `snakes = [[a, b], ...]` / `ladders = [...]` in the text (one line or
// several): where each list is, and its pairs (null when not plain pairs, e.g. with comments).
function findJumps(text, kind) {
  const key = new RegExp(`^${kind}\\s*=\\s*\\[`, 'm').exec(text);
  if (!key) return { start: -1, end: -1, pairs: [] };
  const open = key.index + key[0].length - 1;
  let depth = 0;
  let end = open;
  for (; end < text.length; end += 1) {
    if (text[end] === '[') depth += 1;
    if (text[end] === ']' && (depth -= 1) === 0) break;
  }
  let pairs = null;
  try { pairs = JSON.parse(text.slice(open, end + 1).replace(/,(\s*\])/g, '$1')); } catch { /* as written */ }
  return { start: key.index, end: end + 1, pairs };
}

function readJumps(text) {
  return { snakes: findJumps(text, 'snakes').pairs, ladders: findJumps(text, 'ladders').pairs };
}

function editJumps(change) {
  let text = $('board-text').value;
  const jumps = readJumps(text);
  if (!jumps.snakes || !jumps.ladders) {
    setText('board-error', 'the snakes and ladders lists are not plain pairs: edit the text');
    return;
  }
  change(jumps);
  for (const kind of ['snakes', 'ladders']) {
    const line = `${kind} = [${jumps[kind].map(([a, b]) => `[${a}, ${b}]`).join(', ')}]`;
    const found = findJumps(text, kind);
    if (found.start >= 0) text = text.slice(0, found.start) + line + text.slice(found.end);
    else {
      // Before the first table ([rules], ...), where top-level keys belong.
      const table = text.search(/^\[/m);
      text = table < 0 ? `${text.replace(/\n?$/, '\n')}${line}\n` : `${text.slice(0, table)}${line}\n${text.slice(table)}`;
    }
  }
  $('board-text').value = text;
  $('builtin').value = '';
  edited();
}

// A drag from square `from` to `to`: the jump end on `from` moves to `to`, or a new jump.
function dragged(from, to) {
  picked = null;
  editJumps((jumps) => {
    for (const kind of ['snakes', 'ladders']) {
      for (const jump of jumps[kind]) {
        const end = jump.indexOf(from);
        if (end >= 0) { jump[end] = to; return; }
      }
    }
    jumps[to < from ? 'snakes' : 'ladders'].push([from, to]);
  });
}

function listJumps() {
  const jumps = readJumps($('board-text').value);
  const items = [];
  for (const kind of ['snakes', 'ladders']) {
    (jumps[kind] ?? []).forEach(([from, to], i) => {
      items.push(`<li>${kind.slice(0, -1)} ${from} → ${to} <button type="button" data-kind="${kind}" data-index="${i}">delete</button></li>`);
    });
  }
  $('jumps').innerHTML = items.join('');
  for (const button of $('jumps').querySelectorAll('button')) {
    button.addEventListener('click', () =>
      editJumps((j) => j[button.dataset.kind].splice(Number(button.dataset.index), 1)));
  }
}

function onBuiltins(list) {
  boards = list;
  for (const b of boards) {
    const option = document.createElement('option');
    option.value = b.name;
    option.textContent = b.name;
    option.title = b.summary;
    $('builtin').append(option);
  }
  readFragment();
  request();
  $('builtin').addEventListener('change', () => {
    const board = boards.find((b) => b.name === $('builtin').value);
    if (board) $('board-text').value = board.text;
    edited();
  });
  $('board-text').addEventListener('input', () => { $('builtin').value = ''; edited(); });
  for (const rule of RULES) $('rule-' + rule).addEventListener('input', edited);
  window.addEventListener('hashchange', () => { readFragment(); request(); });
  $('copy-exact').addEventListener('click', () =>
    navigator.clipboard?.writeText($('expected-turns').dataset.exact ?? ''));
}

// One pair of listeners for every square of the picture (a board may have thousands): a click
// picks a square (see pick), a drag from a jump's end moves that end, a drag from another
// square draws a new snake or ladder.
let pressed = null;
const cellAt = (event) =>
  document.elementFromPoint(event.clientX, event.clientY)?.closest('#picture rect.cell');
$('picture').addEventListener('pointerdown', (event) => {
  const cell = cellAt(event);
  pressed = cell ? Number(cell.dataset.square) : null;
  if (cell) event.preventDefault();
});
$('picture').addEventListener('pointerup', (event) => {
  const cell = cellAt(event);
  const from = pressed;
  pressed = null;
  if (!cell || from === null) return;
  const to = Number(cell.dataset.square);
  if (from === to) pick(to, cell);
  else dragged(from, to);
});
startWorker();
worker.postMessage({ kind: 'builtins' });

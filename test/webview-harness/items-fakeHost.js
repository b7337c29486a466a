// Fake extension host for the item-view harness (dev only). Defines window.acquireVsCodeApi and
// answers the protocol of src/shared/itemProtocol.ts from window.__ITEM_FIXTURE__ (computed by the
// real host-side builders, see items-fixtures.ts). Every webview post is recorded in
// window.__posted and every host message in window.__sent. ?blind=1 starts in blind mode,
// ?reviewer=name sets the reviewer.
/* global window */

const fixture = window.__ITEM_FIXTURE__;
if (!fixture) throw new Error('item harness: no fixture loaded');
const params = new URLSearchParams(window.location.search);

const host = {
  blind: params.get('blind') === '1',
  reviewer: params.get('reviewer') ?? 'annotator-1',
  itemId: fixture.items?.[0]?.id,
  reviews: new Map(), // itemId -> review
  state: fixture.state ? JSON.parse(JSON.stringify(fixture.state)) : undefined,
};
if (params.get('reviewer') === '') host.reviewer = undefined;

window.__posted = [];
window.__sent = [];
window.__itemHarness = { host, send };

function send(message) {
  window.__sent.push(JSON.parse(JSON.stringify(message)));
  setTimeout(() => window.postMessage(message, '*'), 3);
}

const item = () => fixture.items.find((i) => i.id === host.itemId) ?? fixture.items[0];

function progress(it) {
  const r = host.reviews.get(it.id);
  if (!r) return 'none';
  const done = typeof r.answerability === 'boolean' && typeof r.shortcut_free === 'boolean'
    && it.irrelevant.every((d) => typeof r.irrelevant_labels?.[d] === 'boolean')
    && it.distractors.every((d) => typeof r.distractor_validity?.[d] === 'boolean');
  return done ? 'complete' : 'partial';
}

function items() {
  return fixture.items.map((it) => {
    const e = { id: it.id, label: it.label, review: host.reviewer ? progress(it) : 'none' };
    if (!host.blind) e.reviews = host.reviews.has(it.id) ? 1 : 0;
    return e;
  });
}

function delegationState() {
  const it = item();
  const s = { items: items(), itemId: it.id, blind: host.blind, view: host.blind ? it.blind : it.full, sidecar: fixture.sidecar };
  if (host.reviewer) s.reviewer = host.reviewer;
  const mine = host.reviews.get(it.id);
  if (mine) s.myReview = mine;
  if (!host.blind) s.reviews = mine ? [mine] : [];
  return s;
}

function reviewMessage() {
  const m = { type: 'review', itemId: item().id, items: items() };
  const mine = host.reviews.get(item().id);
  if (mine) m.myReview = mine;
  if (!host.blind) m.reviews = mine ? [mine] : [];
  return m;
}

function applyPatch(r, patch) {
  const next = { ...(r ?? {}), annotator: host.reviewer };
  const setOrDelete = (key, v) => {
    if (v === null) delete next[key];
    else next[key] = v;
  };
  if (patch.answerability !== undefined) setOrDelete('answerability', patch.answerability);
  if (patch.shortcut_free !== undefined) setOrDelete('shortcut_free', patch.shortcut_free);
  for (const [p, key] of [['irrelevant', 'irrelevant_labels'], ['distractor', 'distractor_validity']]) {
    if (!patch[p]) continue;
    const map = { ...(next[key] ?? {}) };
    if (patch[p].value === null) delete map[patch[p].docId];
    else map[patch[p].docId] = patch[p].value;
    if (Object.keys(map).length) next[key] = map;
    else delete next[key];
  }
  if (patch.notes !== undefined) setOrDelete('notes', patch.notes || null);
  const judged = typeof next.answerability === 'boolean' || typeof next.shortcut_free === 'boolean' || next.irrelevant_labels || next.distractor_validity;
  if (!judged) return undefined;
  next.blind = true;
  return next;
}

function scoreOf(set, results) {
  const scores = {};
  for (const s of set.scenarios) {
    const r = results[s.id];
    if (!r) {
      scores[s.id] = { a: null, b: null, veto_failed: false };
      continue;
    }
    const hit = (c) => r.criteria[c.id] === true;
    const a = s.criteria.filter((c) => c.track === 'A' && typeof c.points === 'number');
    const aTotal = a.reduce((n, c) => n + c.points, 0);
    const veto = s.criteria.filter((c) => c.points === 'veto').some((c) => !hit(c));
    const b = s.criteria.filter((c) => c.track === 'B' && typeof c.points === 'number');
    const bTotal = b.reduce((n, c) => n + c.points, 0);
    scores[s.id] = {
      a: aTotal ? (100 * a.filter(hit).reduce((n, c) => n + c.points, 0)) / aTotal : null,
      b: veto ? 0 : b.length ? (100 * b.filter(hit).reduce((n, c) => n + c.points, 0)) / bTotal : 100,
      veto_failed: veto,
    };
  }
  return scores;
}

function onPost(msg) {
  window.__posted.push(JSON.parse(JSON.stringify(msg)));
  switch (msg.type) {
    case 'ready': {
      const payload = fixture.kind === 'delegation' ? { kind: 'delegation', state: delegationState() }
        : fixture.kind === 'scenarios' ? { kind: 'scenarios', set: fixture.set, state: host.state }
          : fixture.kind === 'deepsearchqa' ? { kind: 'deepsearchqa', rows: fixture.rows }
            : { kind: 'clarify', instances: fixture.instances };
      send({ type: 'init', info: fixture.info, payload });
      break;
    }
    case 'selectItem':
      host.itemId = msg.itemId;
      send({ type: 'delegation', state: delegationState() });
      break;
    case 'setBlind':
      host.blind = msg.blind;
      send({ type: 'delegation', state: delegationState() });
      break;
    case 'askReviewer':
      host.reviewer = 'annotator-2';
      send({ type: 'delegation', state: delegationState() });
      break;
    case 'editReview': {
      if (!host.blind) {
        send({ type: 'error', message: 'Judgments are recorded in blind review only: turn on "Blind review" first.' });
        break;
      }
      const next = applyPatch(host.reviews.get(msg.itemId), msg.patch);
      if (next) host.reviews.set(msg.itemId, next);
      else host.reviews.delete(msg.itemId);
      send(reviewMessage());
      break;
    }
    case 'markCriterion':
    case 'setSilentCitations': {
      const st = host.state;
      const line = st.results[msg.scenarioId] ?? { criteria: {} };
      if (msg.type === 'markCriterion') {
        if (msg.value === null) delete line.criteria[msg.criterionId];
        else line.criteria[msg.criterionId] = msg.value;
      } else if (msg.value === null) delete line.silent_citations;
      else line.silent_citations = msg.value;
      st.results[msg.scenarioId] = line;
      if (!st.changed.includes(msg.scenarioId)) st.changed.push(msg.scenarioId);
      st.scores = scoreOf(fixture.set, st.results);
      send({ type: 'scenarioState', state: st });
      break;
    }
    case 'chooseRunFolder':
    case 'openAsText':
    case 'log':
      break;
  }
}

let uiState = JSON.parse(window.sessionStorage.getItem('item-harness-state') ?? 'null');
window.acquireVsCodeApi = () => ({
  postMessage: (m) => setTimeout(() => onPost(m), 3),
  getState: () => uiState,
  setState: (s) => {
    uiState = s;
    window.sessionStorage.setItem('item-harness-state', JSON.stringify(s));
  },
});

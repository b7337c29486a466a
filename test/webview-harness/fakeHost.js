// Fake extension host for the webview harness (dev only). Defines window.acquireVsCodeApi and
// answers the protocol of src/shared/protocol.ts from window.__FIXTURE__ (plain JSON, see
// gen-fixtures.mjs). Everything the webview posts is recorded in window.__posted; timings in
// window.__harness.timings.
/* global window, document, performance, sessionStorage, MutationObserver */


const fixture = window.__FIXTURE__;
if (!fixture) throw new Error('harness: no fixture loaded');

const LATENCY_MS = 5;
const params = new URLSearchParams(window.location.search);
if (params.get('readonly')) fixture.readOnlyReason = params.get('readonly');
const state = {
  currentId: fixture.records[0].id,
  undo: [],
  redo: [],
};
const records = new Map(fixture.records.map((r) => [r.id, r]));

window.__posted = [];
window.__harness = {
  timings: {},
  state,
  send,
  /** Simulates the host's reveal (maybe after a record switch). */
  reveal(position, recordId = state.currentId) {
    if (recordId !== state.currentId) {
      state.currentId = recordId;
      send({ type: 'record', view: viewOf(records.get(recordId)), records: recordList() });
    }
    send({ type: 'reveal', recordId, position });
  },
  undo() {
    const entry = state.undo.pop();
    if (!entry) return;
    const rec = records.get(entry.recordId);
    state.redo.push({ recordId: entry.recordId, before: rec.annotation });
    rec.annotation = entry.before;
    send({ type: 'annotation', recordId: entry.recordId, annotation: rec.annotation, records: recordList() });
  },
  error(message) {
    send({ type: 'error', message });
  },
  setReadOnly(reason) {
    fixture.readOnlyReason = reason;
  },
  annotationOf(id = state.currentId) {
    return records.get(id).annotation;
  },
};

// ── derived data (what src/core would compute) ────────────────────────────────────────────

function summarizeCall(call) {
  let args;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    return `${call.name}(⚠ invalid JSON)`;
  }
  const parts = Object.entries(args).map(([k, v]) => {
    let s = JSON.stringify(v);
    if (s.length > 90) s = s.slice(0, 87) + '…';
    return `${k}=${s}`;
  });
  return `${call.name}(${parts.join(', ')})`;
}

function atomicOps(call) {
  try {
    const args = JSON.parse(call.arguments);
    const v = args.query ?? args.url;
    if (Array.isArray(v)) return v.length;
    return 1;
  } catch {
    return 1;
  }
}

const squeeze = (s) => s.replace(/\s+/g, ' ').trim();
const approxTokens = (m) => Math.ceil(((m.content?.length ?? 0) + (m.reasoning?.length ?? 0)) / 4);

const derivedCache = new Map();
function derived(rec) {
  let d = derivedCache.get(rec.id);
  if (d) return d;
  const issuer = new Map();
  let lastAssistant = -1;
  rec.messages.forEach((m, p) => {
    if (m.role === 'assistant') lastAssistant = p;
    for (const c of m.toolCalls ?? []) issuer.set(c.id, { position: p, name: c.name });
  });
  const rows = rec.messages.map((m, position) => {
    const from = m.toolCallId ? issuer.get(m.toolCallId) : undefined;
    const isDecision = m.role === 'assistant';
    const row = {
      position,
      role: m.role,
      calls: (m.toolCalls ?? []).map(summarizeCall),
      preview: squeeze((m.content || m.reasoning || '').slice(0, 400)).slice(0, 200),
      chars: (m.content?.length ?? 0) + (m.reasoning?.length ?? 0),
      hasReasoning: !!m.reasoning,
      isDecision,
      isFinalAnswer: isDecision && position === lastAssistant && !(m.toolCalls ?? []).length,
    };
    if (m.agent) row.agent = m.agent;
    if (from) {
      row.toolName = from.name;
      row.issuedBy = from.position;
    }
    if (m.role === 'tool' && /^error/i.test(m.content)) row.isError = true;
    return row;
  });
  const calls = rec.messages.flatMap((m) => m.toolCalls ?? []);
  const header = {
    file: fixture.file,
    format: fixture.format,
    detectionReason: fixture.detectionReason,
    recordId: rec.id,
    query: rec.query,
    predictedAnswer: rec.predictedAnswer,
    messages: rows.length,
    decisionSteps: rows.filter((r) => r.isDecision).length,
    toolCalls: calls.length,
    atomicOps: calls.reduce((n, c) => n + atomicOps(c), 0),
    searchCalls: calls.filter((c) => c.name === 'search').length,
    visitCalls: calls.filter((c) => c.name === 'visit').length,
  };
  if (rec.goldAnswer !== undefined) header.goldAnswer = rec.goldAnswer;
  d = { rows, header, issuer };
  derivedCache.set(rec.id, d);
  return d;
}

function viewOf(rec) {
  const { rows, header } = derived(rec);
  const view = {
    recordId: rec.id,
    header: { ...header },
    rows: rows.map((r) => ({ ...r })),
    decisionSteps: rows.filter((r) => r.isDecision).map((r) => r.position),
    finalAnswerStep: rows.find((r) => r.isFinalAnswer)?.position ?? null,
    audits: rec.audits ?? [],
  };
  if (rec.gold) view.gold = rec.gold;
  if (rec.annotation) view.annotation = rec.annotation;
  return view;
}

function disagreeing(rec) {
  const a = rec.annotation;
  const audits = rec.audits ?? [];
  const d = audits[audits.length - 1]?.diagnosis;
  if (!a || !d) return false;
  const span = a.toleranceSpan;
  const inSpan = span ? d.criticalStep >= span[0] && d.criticalStep <= span[1] : d.criticalStep === a.criticalStep;
  return !inSpan || (a.rootCause && d.rootCause && a.rootCause !== d.rootCause);
}

function recordList() {
  return fixture.records.map((rec, i) => ({
    id: rec.id,
    line: fixture.container === 'jsonl' ? i + 1 : undefined,
    label: rec.label ?? rec.id,
    annotated: !!(rec.annotation && (rec.annotation.criticalStep !== undefined && rec.annotation.criticalStep !== null || rec.annotation.rootCause)),
    audited: (rec.audits ?? []).length > 0,
    disagreeing: !!disagreeing(rec),
  }));
}

function tokensOf(rec) {
  const tokens = rec.messages.map(approxTokens);
  const total = tokens.reduce((a, b) => a + b, 0);
  const toolReturns = rec.messages.reduce((n, m, i) => n + (m.role === 'tool' ? tokens[i] : 0), 0);
  const reasoning = rec.messages.reduce((n, m) => n + Math.ceil((m.reasoning?.length ?? 0) / 4), 0);
  const last = rec.messages[rec.messages.length - 1];
  return { type: 'tokens', recordId: rec.id, tokens, totals: { total, toolReturns, reasoning, predictedAnswer: Math.ceil((rec.predictedAnswer?.length ?? 0) / 4) || approxTokens(last) } };
}

function searchRecord(rec, q) {
  const { rows } = derived(rec);
  let re;
  try {
    re = new RegExp(q.regex ? q.text : q.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), q.caseSensitive ? '' : 'i');
  } catch (err) {
    return { error: `Invalid regular expression: ${err.message}` };
  }
  const positions = [];
  rec.messages.forEach((m, p) => {
    const row = rows[p];
    if (q.roles && !q.roles.includes(m.role)) return;
    if (q.tools) {
      const names = (m.toolCalls ?? []).map((c) => c.name);
      if (row.toolName) names.push(row.toolName);
      if (!names.some((n) => q.tools.includes(n))) return;
    }
    const hay = [m.content ?? '', m.reasoning ?? '', ...(m.toolCalls ?? []).map((c) => c.arguments)];
    if (hay.some((h) => re.test(h))) positions.push(p);
  });
  return { positions };
}

function sourceOf(rec, p, inReasoning) {
  const m = rec.messages[p];
  const row = derived(rec).rows[p];
  if (m.role === 'user') return 'user';
  if (m.role === 'tool') return row.toolName === 'search' ? 'search snippet' : row.toolName === 'visit' ? 'visited page' : 'tool return';
  if (inReasoning) return 'reasoning';
  return 'answer';
}

function answerTrace(rec) {
  const trace = {};
  const find = (text) => {
    const needle = text.toLowerCase();
    const occurrences = [];
    rec.messages.forEach((m, p) => {
      if ((m.content ?? '').toLowerCase().includes(needle)) occurrences.push({ position: p, source: sourceOf(rec, p, false) });
      else if ((m.reasoning ?? '').toLowerCase().includes(needle)) occurrences.push({ position: p, source: sourceOf(rec, p, true) });
    });
    const first = occurrences.find((o) => o.source !== 'answer');
    return { text, occurrences, ...(first ? { first } : {}) };
  };
  if (rec.predictedAnswer) trace.predicted = find(rec.predictedAnswer);
  if (rec.goldAnswer) trace.gold = find(rec.goldAnswer);
  return trace;
}

function bodyOf(rec, position) {
  const m = rec.messages[position];
  if (!m) return { error: `no message ${position}` };
  const body = {
    position,
    content: m.content ?? '',
    toolCalls: (m.toolCalls ?? []).map((c) => {
      let argumentsValid = true;
      try {
        JSON.parse(c.arguments);
      } catch {
        argumentsValid = false;
      }
      return { id: c.id, name: c.name, rawArguments: c.arguments, argumentsValid };
    }),
  };
  if (m.reasoning) body.reasoning = m.reasoning;
  if (m.toolCallId) body.toolCallId = m.toolCallId;
  return body;
}

// ── transport ────────────────────────────────────────────────────────────────────────────

function send(msg) {
  if (msg.type === 'init') window.__harness.timings.initSentAt = performance.now();
  window.postMessage(msg, window.location.origin);
}

function reply(requestId, body) {
  send({ type: 'reply', requestId, body });
}

function handle(msg) {
  const rec = records.get(msg.recordId ?? state.currentId);
  switch (msg.type) {
    case 'ready': {
      const current = records.get(state.currentId);
      // ?initAfter=ms: a view that comes late, as a big one does (the real host sends it by
      // message); ?initAfter=manual: only when the test calls window.__harness.sendInit().
      const init = () => send({ type: 'init', file: fixture.file, container: fixture.container, records: recordList(), readOnlyReason: fixture.readOnlyReason, view: viewOf(current) });
      const after = params.get('initAfter');
      if (after === 'manual') window.__harness.sendInit = init;
      else if (after) setTimeout(init, Number(after));
      else init();
      // ?tokensAfter=ms: when the token counts follow the init (the real host counts after 'rendered').
      setTimeout(() => send(tokensOf(current)), Number(params.get('tokensAfter') ?? 300));
      break;
    }
    case 'selectRecord': {
      if (!records.has(msg.recordId)) return;
      state.currentId = msg.recordId;
      const current = records.get(msg.recordId);
      send({ type: 'record', view: viewOf(current), records: recordList() });
      setTimeout(() => send(tokensOf(current)), 150);
      break;
    }
    case 'getMessage':
      reply(msg.requestId, bodyOf(rec, msg.position));
      break;
    case 'search':
      reply(msg.requestId, searchRecord(rec, msg.query));
      break;
    case 'answerTrace':
      reply(msg.requestId, answerTrace(rec));
      break;
    case 'editAnnotation':
      state.undo.push({ recordId: rec.id, before: rec.annotation, label: msg.label });
      state.redo = [];
      rec.annotation = msg.annotation;
      send({ type: 'annotation', recordId: rec.id, annotation: rec.annotation, records: recordList() });
      break;
    case 'log':
      (msg.level === 'error' ? console.error : console.log)('[webview]', msg.message);
      break;
  }
}

let acquired = false;
window.acquireVsCodeApi = () => {
  if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
  acquired = true;
  return {
    postMessage(message) {
      window.__posted.push(JSON.parse(JSON.stringify(message)));
      setTimeout(() => handle(message), LATENCY_MS);
    },
    getState() {
      const raw = sessionStorage.getItem('trajaudit-harness-state');
      return raw ? JSON.parse(raw) : undefined;
    },
    setState(value) {
      sessionStorage.setItem('trajaudit-harness-state', JSON.stringify(value));
      return value;
    },
  };
};

// First-rows timing: when the first timeline row appears after init was sent.
new MutationObserver((_, obs) => {
  if (document.querySelector('.tl-row') && window.__harness.timings.initSentAt !== undefined) {
    window.__harness.timings.firstRowAt = performance.now();
    obs.disconnect();
  }
}).observe(document.documentElement, { childList: true, subtree: true });

// CSP violations are recorded (the check fails on any).
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspViolations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
});


// A local mock model server for tests: a real HTTP server on 127.0.0.1 that
// speaks the OpenAI chat-completions wire format (POST …/chat/completions) and
// the Anthropic messages format (POST …/messages), non-streaming.
//
// - scripted replies: a queue (reply(...)) or a function of the request (script(fn)),
//   or a JSON script file (scriptFromJson) with routes matched on system/user text;
// - injected faults: status errors with proper error bodies and retry-after,
//   hangs, connection resets, broken and non-JSON bodies (failNext or per reply);
// - a log of every request: parsed body, headers minus credentials, start/end times;
// - a prompt-cache simulation, so cached-token accounting can be tested end to end;
// - both providers' batch APIs (OpenAI files + batches, Anthropic message batches), each
//   item answered by the same script as the sync endpoint, with scriptable batch outcomes
//   (batchOutcome: K polls to finish, expired, failed, per-item errors).
//
// Only node: imports, so unit tests (tsx) and the esbuild-bundled integration
// tests can both import it. No network beyond 127.0.0.1.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export type MockProtocol = 'openai' | 'anthropic';

export interface MockUsage {
  /** Total input tokens, cached ones included (mapped to each wire format). */
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  cacheWriteInputTokens?: number;
}

export type MockFault =
  /** An HTTP error with the protocol's error JSON body. */
  | {
      type: 'status';
      status: number;
      message?: string;
      errorType?: string;
      retryAfterSeconds?: number;
      retryAfterMs?: number;
      headers?: Record<string, string>;
    }
  /** Accept the request and never answer (until the client disconnects or close()). */
  | { type: 'hang' }
  /** Destroy the connection without any response. */
  | { type: 'reset' }
  /** 200, headers and half of a JSON body, then destroy the connection. */
  | { type: 'broken-body' }
  /** 200, headers and half of a JSON body, then nothing (until the client gives up). */
  | { type: 'stalled-body' }
  /** 200 application/json whose body is not JSON. */
  | { type: 'invalid-json-body' }
  /** 200 text/html, like a web UI answering on a wrong base URL. */
  | { type: 'html-body' };

export interface MockReply {
  /** The assistant text (for "malformed JSON in the content", just put malformed JSON here). */
  text?: string;
  /** Overrides the simulated token counts. */
  usage?: MockUsage;
  /** Wire value; default 'stop' (OpenAI) / 'end_turn' (Anthropic). */
  finishReason?: string;
  /** OpenAI message.refusal. */
  refusal?: string;
  /** Wait this long before answering (cancelled when the client disconnects). */
  delayMs?: number;
  /** Answer with a fault instead of a completion. */
  fault?: MockFault;
  /** Model name in the response; default: the requested one. */
  model?: string;
  /**
   * Tool calls of the reply (OpenAI `message.tool_calls` with finish_reason 'tool_calls';
   * Anthropic `tool_use` blocks with stop_reason 'tool_use'). `arguments` is the raw JSON text.
   */
  toolCalls?: Array<{ id?: string; name: string; arguments: string }>;
}

export type MockHandler = (request: MockRequest) => MockReply | Promise<MockReply>;

/** How one submitted batch plays out (queued with batchOutcome; default: ends at the first retrieve). */
export interface MockBatchOutcome {
  /** Retrieves that still report the batch in progress before it ends (default 0). */
  pollsUntilDone?: number;
  /**
   * How it ends. 'completed' (default; Anthropic: processing_status 'ended'). 'expired': the
   * completion window closed; items after the first `answeredBeforeExpiry` expire (OpenAI:
   * error-file lines with code batch_expired; Anthropic: results of type 'expired').
   * 'failed' (OpenAI): the batch fails as a whole, no output file.
   */
  end?: 'completed' | 'expired' | 'failed';
  answeredBeforeExpiry?: number;
  /** Per-item outcome by custom id, instead of the scripted reply. */
  items?: Record<string, 'errored' | 'expired' | 'canceled'>;
  /** The error message of a failed batch. */
  message?: string;
}

/** One batch the mock accepted: a submission. */
export interface MockBatchSubmission {
  protocol: MockProtocol;
  id: string;
  customIds: string[];
}

interface MockBatch extends MockBatchSubmission {
  outcome: MockBatchOutcome;
  polls: number;
  items: Array<{ customId: string; body: any }>;
  createdAt: number;
  endedAt?: number;
  inputFileId?: string;
  endpoint?: string;
  /** OpenAI status or Anthropic processing_status. */
  status: string;
  outputFileId?: string;
  errorFileId?: string;
  resultsJsonl?: string;
  counts: { succeeded: number; errored: number; expired: number; canceled: number };
}

interface MockFile {
  id: string;
  filename: string;
  purpose: string;
  content: string;
  createdAt: number;
}

export interface MockRequest {
  /** 1-based arrival order. */
  seq: number;
  protocol: MockProtocol | 'other';
  method: string;
  path: string;
  /** Lower-case header names; authorization, x-api-key, api-key, cookie removed. */
  headers: Record<string, string>;
  /** Which credential header the client sent (its value is never logged). */
  auth: 'bearer' | 'x-api-key' | 'none';
  /** Parsed JSON body (undefined when it did not parse). */
  body: any;
  rawBody: string;
  model: string;
  /** System prompt text (OpenAI system/developer messages, Anthropic `system`). */
  system: string;
  /** Text of all user messages, joined with blank lines. */
  userText: string;
  lastUserText: string;
  /** performance.timeOrigin + performance.now(), in ms: comparable with Date.now(). */
  startedAt: number;
  endedAt?: number;
  status?: number;
  outcome: 'pending' | 'replied' | 'fault' | 'client-closed' | 'server-closed';
  fault?: MockFault['type'];
}

export interface MockServerOptions {
  /** Default 0: a random free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Initial script: one reply (repeated), a queue, or a handler. */
  script?: MockReply | MockReply[] | MockHandler;
  /** Used when the queue is empty; without it an empty queue answers 400 "no scripted reply left". */
  defaultReply?: MockReply;
  /** When set, requests with another key get 401. */
  apiKey?: string;
  /** Put the received key verbatim into 401 messages (to test that clients scrub it). */
  echoKeyInAuthErrors?: boolean;
  /** Simulated prompt caching (default true). */
  simulateCache?: boolean;
  /** Smallest cacheable prefix in (chars/4) tokens; default 1024, like both providers. */
  cacheMinTokens?: number;
}

interface CacheState {
  /** Estimated prompt tokens. */
  total: number;
  read: number;
  write: number;
  /** Makes what this request wrote readable (called once its response is sent). */
  commit: () => void;
}

export const now = (): number => performance.timeOrigin + performance.now();

/** Rough token count used by the simulation: 4 characters per token. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** Fault shorthands. */
export const faults = {
  status: (status: number, extra: Omit<Extract<MockFault, { type: 'status' }>, 'type' | 'status'> = {}): MockFault => ({ type: 'status', status, ...extra }),
  rateLimit: (retryAfterSeconds = 0): MockFault => ({ type: 'status', status: 429, retryAfterSeconds, message: 'Rate limit reached (mock)' }),
  serverError: (status = 500): MockFault => ({ type: 'status', status, message: 'The server had an error (mock)' }),
  overloaded: (): MockFault => ({ type: 'status', status: 529, message: 'Overloaded (mock)', errorType: 'overloaded_error' }),
  hang: (): MockFault => ({ type: 'hang' }),
  reset: (): MockFault => ({ type: 'reset' }),
  brokenBody: (): MockFault => ({ type: 'broken-body' }),
  stalledBody: (): MockFault => ({ type: 'stalled-body' }),
  invalidJsonBody: (): MockFault => ({ type: 'invalid-json-body' }),
  htmlBody: (): MockFault => ({ type: 'html-body' }),
};

export class MockModelServer {
  readonly requests: MockRequest[] = [];
  readonly #server: Server;
  readonly #options: MockServerOptions;
  readonly #sockets = new Set<Socket>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #waiters = new Set<() => void>();
  #queue: MockReply[] = [];
  #repeat: MockReply | undefined;
  #handler: MockHandler | undefined;
  #faults: MockFault[] = [];
  #cachedPrompts: string[] = [];
  #cachedPrefixes = new Set<string>();
  #port = 0;
  #closed = false;
  readonly #files = new Map<string, MockFile>();
  readonly #batches = new Map<string, MockBatch>();
  #batchOutcomes: MockBatchOutcome[] = [];
  /** Every batch accepted (OpenAI POST /v1/batches, Anthropic POST /v1/messages/batches), in order. */
  readonly batchSubmissions: MockBatchSubmission[] = [];
  /** The batch items as answered, in the shape of sync requests (for assertions on bodies). */
  readonly batchItemRequests: MockRequest[] = [];

  private constructor(options: MockServerOptions) {
    this.#options = options;
    this.#server = createServer((req, res) => void this.#handle(req, res));
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    const script = options.script;
    if (typeof script === 'function') this.#handler = script;
    else if (Array.isArray(script)) this.#queue = [...script];
    else if (script) this.#repeat = script;
  }

  static async start(options: MockServerOptions = {}): Promise<MockModelServer> {
    const server = new MockModelServer(options);
    await new Promise<void>((resolve, reject) => {
      server.#server.once('error', reject);
      server.#server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
        server.#server.off('error', reject);
        resolve();
      });
    });
    server.#port = (server.#server.address() as AddressInfo).port;
    return server;
  }

  get port(): number {
    return this.#port;
  }
  /** http://127.0.0.1:PORT — the Anthropic base URL. */
  get url(): string {
    return `http://${this.#options.host ?? '127.0.0.1'}:${this.#port}`;
  }
  /** http://127.0.0.1:PORT/v1 — the OpenAI base URL. */
  get openaiBaseUrl(): string {
    return `${this.url}/v1`;
  }
  get anthropicBaseUrl(): string {
    return this.url;
  }

  /** Appends replies to the queue (used when no handler is set). */
  reply(...replies: MockReply[]): this {
    this.#queue.push(...replies);
    return this;
  }

  /** Routes every request through `handler` (e.g. by request.system content). */
  script(handler: MockHandler): this {
    this.#handler = handler;
    return this;
  }

  /** The next `times` requests fail with `fault`, before any scripted reply is used. */
  failNext(fault: MockFault, times = 1): this {
    for (let i = 0; i < times; i++) this.#faults.push(fault);
    return this;
  }

  /** The next batches created play out as `outcomes`, in order; later ones end at their first retrieve. */
  batchOutcome(...outcomes: MockBatchOutcome[]): this {
    this.#batchOutcomes.push(...outcomes);
    return this;
  }

  /** Every batch still in progress ends at its next retrieve, as it would once the provider finished it (e.g. while a job was stopped). */
  endBatchesAtNextRetrieve(): this {
    for (const batch of this.#batches.values()) if (batch.endedAt === undefined) batch.outcome = { ...batch.outcome, pollsUntilDone: batch.polls };
    return this;
  }

  /** Forgets the log, the queues, the handler, the simulated cache and the batches. */
  reset(): this {
    this.requests.length = 0;
    this.batchSubmissions.length = 0;
    this.batchItemRequests.length = 0;
    this.#files.clear();
    this.#batches.clear();
    this.#batchOutcomes = [];
    this.#queue = [];
    this.#repeat = undefined;
    this.#handler = undefined;
    this.#faults = [];
    this.#cachedPrompts = [];
    this.#cachedPrefixes.clear();
    return this;
  }

  /** Resolves once `count` requests have arrived (their bodies read). */
  waitForRequests(count: number, timeoutMs = 5_000): Promise<MockRequest[]> {
    return this.#waitFor(() => this.requests.length >= count, timeoutMs, `${count} request(s)`);
  }

  /** Resolves once `count` requests have ended (replied, failed or disconnected). */
  waitForEnded(count: number, timeoutMs = 5_000): Promise<MockRequest[]> {
    return this.#waitFor(() => this.requests.filter((r) => r.endedAt !== undefined).length >= count, timeoutMs, `${count} ended request(s)`);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const r of this.requests) {
      if (r.outcome === 'pending') this.#end(r, 'server-closed');
    }
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }

  #waitFor(done: () => boolean, timeoutMs: number, what: string): Promise<MockRequest[]> {
    if (done()) return Promise.resolve(this.requests.slice());
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve(this.requests.slice());
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`mock server: timed out after ${timeoutMs} ms waiting for ${what}; saw ${this.requests.length}`));
      }, timeoutMs);
      this.#waiters.add(check);
    });
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }

  #end(entry: MockRequest, outcome: MockRequest['outcome'], status?: number): void {
    if (entry.endedAt !== undefined) return;
    entry.endedAt = now();
    entry.outcome = outcome;
    if (status !== undefined) entry.status = status;
    this.#notify();
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const startedAt = now();
    const rawBody = await readBody(req).catch(() => '');
    const path = (req.url ?? '/').split('?')[0];
    const protocol: MockRequest['protocol'] =
      req.method === 'POST' && /\/chat\/completions$/.test(path) ? 'openai' : req.method === 'POST' && /\/messages$/.test(path) ? 'anthropic' : 'other';
    let body: any;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const text = protocol === 'anthropic' ? anthropicText(body) : openaiText(body);
    const entry: MockRequest = {
      seq: this.requests.length + 1,
      protocol,
      method: req.method ?? 'GET',
      path,
      headers: safeHeaders(req),
      auth: req.headers.authorization ? 'bearer' : req.headers['x-api-key'] ? 'x-api-key' : 'none',
      body,
      rawBody,
      model: typeof body?.model === 'string' ? body.model : '',
      system: text.system,
      userText: text.user.join('\n\n'),
      lastUserText: text.user[text.user.length - 1] ?? '',
      startedAt,
      outcome: 'pending',
    };
    this.requests.push(entry);
    res.on('close', () => {
      if (entry.endedAt === undefined) this.#end(entry, res.writableFinished ? 'replied' : 'client-closed');
    });
    this.#notify();

    if (protocol === 'other' && batchRoute(path)) {
      return this.#handleBatchRoute(entry, req, res, body);
    }
    if (protocol === 'other') {
      if (req.method === 'GET' && /\/models$/.test(path)) {
        return this.#sendJson(entry, res, 200, { object: 'list', data: [{ id: 'mock-model', object: 'model', created: 0, owned_by: 'mock' }] }, {}, 'replied');
      }
      return this.#sendJson(
        entry,
        res,
        404,
        { error: { message: `mock server: no route for ${req.method} ${path}`, type: 'not_found_error', param: null, code: null } },
        {},
        'fault',
      );
    }
    if (body === undefined || typeof body !== 'object') {
      return this.#sendError(entry, res, protocol, { type: 'status', status: 400, message: 'mock server: request body is not JSON' });
    }

    const key = req.headers.authorization?.replace(/^Bearer\s+/i, '') ?? (req.headers['x-api-key'] as string | undefined) ?? '';
    if (this.#options.apiKey !== undefined && key !== this.#options.apiKey) {
      const message = this.#options.echoKeyInAuthErrors ? `Incorrect API key provided: ${key}. Authorization: Bearer ${key}` : 'Incorrect API key provided.';
      return this.#sendError(entry, res, protocol, { type: 'status', status: 401, message });
    }

    // The prompt cache is looked up on arrival, like a real server reading the prompt;
    // an entry this request writes becomes readable once its response has been sent.
    const cache = this.#cacheLookup(protocol, body);

    let reply: MockReply;
    const queuedFault = this.#faults.shift();
    if (queuedFault) reply = { fault: queuedFault };
    else {
      try {
        reply = await this.#nextReply(entry);
      } catch (error) {
        return this.#sendError(entry, res, protocol, {
          type: 'status',
          status: 500,
          message: `mock server: script failed: ${(error as Error).message}`,
          headers: { 'x-should-retry': 'false' },
        });
      }
    }

    if (reply.delayMs && reply.delayMs > 0) {
      const go = await this.#sleep(reply.delayMs, res);
      if (!go) return;
    }
    if (reply.fault) return this.#sendFault(entry, req, res, protocol, reply.fault);
    const json = protocol === 'openai' ? this.#openaiCompletion(body, reply, cache) : this.#anthropicMessage(body, reply, cache);
    this.#sendJson(
      entry,
      res,
      200,
      json,
      protocol === 'openai' ? { 'x-request-id': `req_mock_${entry.seq}` } : { 'request-id': `req_mock_${entry.seq}` },
      'replied',
      cache.commit,
    );
  }

  // ---- batch APIs ------------------------------------------------------------------

  async #handleBatchRoute(entry: MockRequest, req: IncomingMessage, res: ServerResponse, body: any): Promise<void> {
    const method = req.method ?? 'GET';
    const path = entry.path;
    const protocol: MockProtocol = path.startsWith('/v1/messages/batches') ? 'anthropic' : 'openai';
    const fail = (status: number, message: string) => this.#sendError(entry, res, protocol, { type: 'status', status, message });
    const key = req.headers.authorization?.replace(/^Bearer\s+/i, '') ?? (req.headers['x-api-key'] as string | undefined) ?? '';
    if (this.#options.apiKey !== undefined && key !== this.#options.apiKey) return fail(401, 'Incorrect API key provided.');
    const queuedFault = this.#faults.shift();
    if (queuedFault) return this.#sendFault(entry, req, res, protocol, queuedFault);
    const ok = (json: unknown) =>
      this.#sendJson(entry, res, 200, json, { [protocol === 'anthropic' ? 'request-id' : 'x-request-id']: `req_mock_${entry.seq}` }, 'replied');
    let m: RegExpExecArray | null;

    if (method === 'POST' && path === '/v1/files') {
      const form = await new Response(entry.rawBody, { headers: { 'content-type': String(req.headers['content-type'] ?? '') } })
        .formData()
        .catch(() => undefined);
      const file = form?.get('file');
      const purpose = form?.get('purpose');
      if (!form || typeof file === 'string' || !file) return fail(400, 'mock server: expected multipart/form-data with a "file" part');
      if (typeof purpose !== 'string' || !purpose) return fail(400, "mock server: missing required parameter 'purpose'");
      const record: MockFile = { id: `file-mock${this.#files.size + 1}`, filename: file.name, purpose, content: await file.text(), createdAt: nowSeconds() };
      this.#files.set(record.id, record);
      return ok(openaiFileObject(record));
    }
    if (method === 'GET' && (m = /^\/v1\/files\/([^/]+)\/content$/.exec(path))) {
      const file = this.#files.get(m[1]);
      if (!file) return fail(404, `No such File object: ${m[1]}`);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(Buffer.byteLength(file.content)) });
      res.end(file.content, () => this.#end(entry, 'replied', 200));
      return;
    }
    if (method === 'GET' && (m = /^\/v1\/files\/([^/]+)$/.exec(path))) {
      const file = this.#files.get(m[1]);
      return file ? ok(openaiFileObject(file)) : fail(404, `No such File object: ${m[1]}`);
    }
    if (method === 'POST' && path === '/v1/batches') {
      const file = this.#files.get(String(body?.input_file_id ?? ''));
      if (!file) return fail(400, `No such File object: ${String(body?.input_file_id)}`);
      if (file.purpose !== 'batch') return fail(400, `file ${file.id} has purpose "${file.purpose}", expected "batch"`);
      if (body.endpoint !== '/v1/chat/completions') return fail(400, `mock server: unsupported endpoint ${JSON.stringify(body.endpoint)}`);
      if (body.completion_window !== '24h') return fail(400, "completion_window must be '24h'");
      const items: MockBatch['items'] = [];
      const problems: string[] = [];
      file.content.split('\n').forEach((line, index) => {
        if (!line.trim()) return;
        let item: any;
        try {
          item = JSON.parse(line);
        } catch {
          problems.push(`line ${index + 1}: not JSON`);
          return;
        }
        if (typeof item?.custom_id !== 'string' || item.method !== 'POST' || item.url !== body.endpoint || typeof item.body !== 'object') {
          problems.push(`line ${index + 1}: expected {custom_id, method: "POST", url: "${body.endpoint}", body}`);
        } else if (items.some((i) => i.customId === item.custom_id)) problems.push(`line ${index + 1}: duplicate custom_id ${item.custom_id}`);
        else items.push({ customId: item.custom_id, body: item.body });
      });
      const batch = this.#newBatch('openai', `batch_mock${this.#batches.size + 1}`, items);
      batch.inputFileId = file.id;
      batch.endpoint = body.endpoint;
      batch.status = 'validating';
      // An invalid input file fails the batch at validation, as the real API does.
      if (problems.length) batch.outcome = { end: 'failed', message: problems.join('; ') };
      return ok(this.#openaiBatchObject(batch));
    }
    if (method === 'GET' && (m = /^\/v1\/batches\/([^/]+)$/.exec(path))) {
      const batch = this.#batches.get(m[1]);
      if (!batch || batch.protocol !== 'openai') return fail(404, `No batch found with id '${m[1]}'.`);
      await this.#advance(batch);
      return ok(this.#openaiBatchObject(batch));
    }
    if (method === 'POST' && path === '/v1/messages/batches') {
      const requests: any[] = Array.isArray(body?.requests) ? body.requests : [];
      if (!requests.length) return fail(400, 'requests: expected a non-empty list');
      const seen = new Set<string>();
      for (const [i, r] of requests.entries()) {
        if (typeof r?.custom_id !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(r.custom_id))
          return fail(400, `requests.${i}.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
        if (seen.has(r.custom_id)) return fail(400, `requests.${i}.custom_id: duplicate custom_id ${r.custom_id}`);
        if (typeof r.params !== 'object' || r.params === null) return fail(400, `requests.${i}.params: Field required`);
        seen.add(r.custom_id);
      }
      const batch = this.#newBatch(
        'anthropic',
        `msgbatch_mock${this.#batches.size + 1}`,
        requests.map((r) => ({ customId: r.custom_id as string, body: r.params })),
      );
      batch.status = 'in_progress';
      return ok(this.#anthropicBatchObject(batch));
    }
    if (method === 'GET' && (m = /^\/v1\/messages\/batches\/([^/]+)\/results$/.exec(path))) {
      const batch = this.#batches.get(m[1]);
      if (!batch || batch.protocol !== 'anthropic') return fail(404, `No batch found with id '${m[1]}'.`);
      if (batch.resultsJsonl === undefined) return fail(400, `Batch ${batch.id} has not ended yet`);
      res.writeHead(200, { 'content-type': 'application/binary', 'content-length': String(Buffer.byteLength(batch.resultsJsonl)) });
      res.end(batch.resultsJsonl, () => this.#end(entry, 'replied', 200));
      return;
    }
    if (method === 'GET' && (m = /^\/v1\/messages\/batches\/([^/]+)$/.exec(path))) {
      const batch = this.#batches.get(m[1]);
      if (!batch || batch.protocol !== 'anthropic') return fail(404, `No batch found with id '${m[1]}'.`);
      await this.#advance(batch);
      return ok(this.#anthropicBatchObject(batch));
    }
    return fail(404, `mock server: no route for ${method} ${path}`);
  }

  #newBatch(protocol: MockProtocol, id: string, items: MockBatch['items']): MockBatch {
    const batch: MockBatch = {
      protocol,
      id,
      customIds: items.map((i) => i.customId),
      outcome: this.#batchOutcomes.shift() ?? {},
      polls: 0,
      items,
      createdAt: nowSeconds(),
      status: 'in_progress',
      counts: { succeeded: 0, errored: 0, expired: 0, canceled: 0 },
    };
    this.#batches.set(id, batch);
    this.batchSubmissions.push({ protocol, id, customIds: [...batch.customIds] });
    return batch;
  }

  /** One retrieve: counts the poll; when the outcome's polls are used up, answers every item and ends the batch. */
  async #advance(batch: MockBatch): Promise<void> {
    if (batch.endedAt !== undefined) return;
    batch.polls++;
    if (batch.polls <= (batch.outcome.pollsUntilDone ?? 0)) {
      batch.status = 'in_progress';
      return;
    }
    const outcome = batch.outcome;
    const end = outcome.end ?? 'completed';
    batch.endedAt = nowSeconds();
    if (end === 'failed' && batch.protocol === 'openai') {
      batch.status = 'failed';
      return;
    }
    const output: string[] = [];
    const errors: string[] = [];
    for (const [index, item] of batch.items.entries()) {
      const forced = outcome.items?.[item.customId] ?? (end === 'expired' && index >= (outcome.answeredBeforeExpiry ?? 0) ? 'expired' : undefined);
      const lineId = `batch_req_mock_${batch.id}_${index + 1}`;
      if (forced === 'expired' || forced === 'canceled') {
        batch.counts[forced]++;
        if (batch.protocol === 'anthropic') output.push(JSON.stringify({ custom_id: item.customId, result: { type: forced } }));
        else {
          const error =
            forced === 'expired'
              ? { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' }
              : { code: 'batch_cancelled', message: 'This request was not executed because the batch was cancelled.' };
          errors.push(JSON.stringify({ id: lineId, custom_id: item.customId, response: null, error }));
        }
        continue;
      }
      const answer =
        forced === 'errored'
          ? { fault: { type: 'status' as const, status: 500, message: 'The server had an error processing this request (mock)' } }
          : await this.#answerItem(batch.protocol, item.body);
      if ('json' in answer) {
        batch.counts.succeeded++;
        output.push(
          JSON.stringify(
            batch.protocol === 'anthropic'
              ? { custom_id: item.customId, result: { type: 'succeeded', message: answer.json } }
              : { id: lineId, custom_id: item.customId, response: { status_code: 200, request_id: `req_mock_${lineId}`, body: answer.json }, error: null },
          ),
        );
        continue;
      }
      batch.counts.errored++;
      const fault =
        answer.fault.type === 'status'
          ? answer.fault
          : { type: 'status' as const, status: 500, message: `mock server: fault ${answer.fault.type} in a batch item` };
      const message = fault.message ?? `mock error ${fault.status}`;
      if (batch.protocol === 'anthropic') {
        output.push(
          JSON.stringify({
            custom_id: item.customId,
            result: { type: 'errored', error: { type: 'error', error: { type: fault.errorType ?? anthropicErrorType(fault.status), message } } },
          }),
        );
      } else {
        errors.push(
          JSON.stringify({
            id: lineId,
            custom_id: item.customId,
            response: {
              status_code: fault.status,
              request_id: `req_mock_${lineId}`,
              body: { error: { message, type: fault.errorType ?? openaiErrorType(fault.status), param: null, code: null } },
            },
            error: null,
          }),
        );
      }
    }
    const jsonl = (lines: string[]) => (lines.length ? `${lines.join('\n')}\n` : '');
    if (batch.protocol === 'anthropic') {
      batch.status = 'ended';
      batch.resultsJsonl = jsonl(output);
      return;
    }
    batch.status = end === 'expired' ? 'expired' : 'completed';
    const addFile = (content: string): string => {
      const file: MockFile = {
        id: `file-mock${this.#files.size + 1}`,
        filename: 'batch_output.jsonl',
        purpose: 'batch_output',
        content,
        createdAt: nowSeconds(),
      };
      this.#files.set(file.id, file);
      return file.id;
    };
    if (output.length) batch.outputFileId = addFile(jsonl(output));
    if (errors.length) batch.errorFileId = addFile(jsonl(errors));
  }

  /** A batch item answered as the sync endpoint would answer its body (same script, faults, usage and cache simulation). */
  async #answerItem(protocol: MockProtocol, body: any): Promise<{ json: unknown } | { fault: MockFault }> {
    const text = protocol === 'anthropic' ? anthropicText(body) : openaiText(body);
    const entry: MockRequest = {
      seq: this.requests.length + this.batchItemRequests.length + 1,
      protocol,
      method: 'POST',
      path: protocol === 'anthropic' ? '/v1/messages' : '/v1/chat/completions',
      headers: {},
      auth: 'none',
      body,
      rawBody: JSON.stringify(body),
      model: typeof body?.model === 'string' ? body.model : '',
      system: text.system,
      userText: text.user.join('\n\n'),
      lastUserText: text.user[text.user.length - 1] ?? '',
      startedAt: now(),
      outcome: 'pending',
    };
    this.batchItemRequests.push(entry);
    const cache = this.#cacheLookup(protocol, body);
    let reply: MockReply;
    try {
      reply = await this.#nextReply(entry);
    } catch (error) {
      reply = { fault: { type: 'status', status: 500, message: `mock server: script failed: ${(error as Error).message}` } };
    }
    entry.endedAt = now();
    if (reply.fault) {
      entry.outcome = 'fault';
      entry.fault = reply.fault.type;
      return { fault: reply.fault };
    }
    entry.outcome = 'replied';
    entry.status = 200;
    const json = protocol === 'openai' ? this.#openaiCompletion(body, reply, cache) : this.#anthropicMessage(body, reply, cache);
    cache.commit();
    return { json };
  }

  #openaiBatchObject(batch: MockBatch): unknown {
    const ended = batch.endedAt ?? null;
    const failed = batch.status === 'failed';
    return {
      id: batch.id,
      object: 'batch',
      endpoint: batch.endpoint,
      errors: failed
        ? { object: 'list', data: [{ code: 'invalid_request', message: batch.outcome.message ?? 'The batch failed (mock)', param: null, line: null }] }
        : null,
      input_file_id: batch.inputFileId,
      completion_window: '24h',
      status: batch.status,
      output_file_id: batch.outputFileId ?? null,
      error_file_id: batch.errorFileId ?? null,
      created_at: batch.createdAt,
      in_progress_at: batch.polls > 0 ? batch.createdAt : null,
      expires_at: batch.createdAt + 86_400,
      finalizing_at: ended !== null && !failed ? ended : null,
      completed_at: batch.status === 'completed' ? ended : null,
      failed_at: failed ? ended : null,
      expired_at: batch.status === 'expired' ? ended : null,
      cancelling_at: null,
      cancelled_at: null,
      request_counts: {
        total: batch.items.length,
        completed: batch.counts.succeeded,
        failed: batch.counts.errored + batch.counts.expired + batch.counts.canceled,
      },
      metadata: null,
    };
  }

  #anthropicBatchObject(batch: MockBatch): unknown {
    const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
    const ended = batch.endedAt !== undefined;
    return {
      id: batch.id,
      type: 'message_batch',
      processing_status: batch.status,
      request_counts: { processing: ended ? 0 : batch.items.length, ...batch.counts },
      ended_at: ended ? iso(batch.endedAt!) : null,
      created_at: iso(batch.createdAt),
      expires_at: iso(batch.createdAt + 86_400),
      archived_at: null,
      cancel_initiated_at: null,
      results_url: ended ? `${this.url}/v1/messages/batches/${batch.id}/results` : null,
    };
  }

  #cacheLookup(protocol: MockProtocol, body: any): CacheState {
    const minTokens = this.#options.cacheMinTokens ?? 1024;
    const simulate = this.#options.simulateCache !== false;
    if (protocol === 'openai') {
      // Automatic prefix caching: the longest common prefix with any earlier prompt.
      const prompt = openaiPromptString(body);
      const longest = simulate ? this.#cachedPrompts.reduce((best, p) => Math.max(best, commonPrefixLength(p, prompt)), 0) : 0;
      const tokens = Math.floor(longest / 4);
      return {
        total: estimateTokens(prompt),
        read: tokens >= minTokens ? tokens : 0,
        write: 0,
        commit: () => {
          if (!simulate) return;
          this.#cachedPrompts.push(prompt);
          if (this.#cachedPrompts.length > 200) this.#cachedPrompts.shift();
        },
      };
    }
    // Anthropic: explicit breakpoints; the prefix up to the last cache_control block.
    const { prompt, cachePrefix } = anthropicPromptString(body);
    const state: CacheState = { total: estimateTokens(prompt), read: 0, write: 0, commit: () => {} };
    if (simulate && cachePrefix !== undefined && estimateTokens(cachePrefix) >= minTokens) {
      if (this.#cachedPrefixes.has(cachePrefix)) state.read = estimateTokens(cachePrefix);
      else {
        state.write = estimateTokens(cachePrefix);
        state.commit = () => this.#cachedPrefixes.add(cachePrefix);
      }
    }
    return state;
  }

  async #nextReply(entry: MockRequest): Promise<MockReply> {
    if (this.#handler) return await this.#handler(entry);
    const queued = this.#queue.shift();
    if (queued) return queued;
    if (this.#repeat) return this.#repeat;
    if (this.#options.defaultReply) return this.#options.defaultReply;
    return {
      fault: { type: 'status', status: 400, message: `mock server: no scripted reply left for request #${entry.seq}`, errorType: 'mock_script_exhausted' },
    };
  }

  /** Resolves true after ms, or false if the client went away / the server closed first. */
  #sleep(ms: number, res: ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        res.off('close', onClose);
        resolve(!res.destroyed && !this.#closed);
      }, ms);
      const onClose = () => {
        clearTimeout(timer);
        this.#timers.delete(timer);
        resolve(false);
      };
      this.#timers.add(timer);
      res.once('close', onClose);
    });
  }

  #sendFault(entry: MockRequest, req: IncomingMessage, res: ServerResponse, protocol: MockProtocol, fault: MockFault): void {
    entry.fault = fault.type;
    switch (fault.type) {
      case 'status':
        return this.#sendError(entry, res, protocol, fault);
      case 'hang':
        return; // the 'close' listener records the end
      case 'reset':
        this.#end(entry, 'fault');
        req.socket.destroy();
        return;
      case 'broken-body':
      case 'stalled-body': {
        const noCache: CacheState = { total: 10, read: 0, write: 0, commit: () => {} };
        const full = JSON.stringify(
          protocol === 'openai'
            ? this.#openaiCompletion(entry.body, { text: 'x'.repeat(200) }, noCache)
            : this.#anthropicMessage(entry.body, { text: 'x'.repeat(200) }, noCache),
        );
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(full)) });
        res.write(full.slice(0, Math.floor(full.length / 2)));
        entry.status = 200;
        if (fault.type === 'broken-body') {
          this.#end(entry, 'fault', 200);
          setTimeout(() => res.socket?.destroy(), 10);
        }
        return; // stalled: the 'close' listener records the end
      }
      case 'invalid-json-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id": "chatcmpl-mock", "choices": [ oops this is not JSON');
        this.#end(entry, 'fault', 200);
        return;
      case 'html-body':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><title>Mock web UI</title><p>not an API</p>');
        this.#end(entry, 'fault', 200);
        return;
    }
  }

  #sendError(entry: MockRequest, res: ServerResponse, protocol: MockProtocol, fault: Extract<MockFault, { type: 'status' }>): void {
    entry.fault = 'status';
    const headers: Record<string, string> = { ...(fault.headers ?? {}) };
    if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
    if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
    const message = fault.message ?? `mock error ${fault.status}`;
    const requestId = `req_mock_${entry.seq}`;
    const body =
      protocol === 'anthropic'
        ? { type: 'error', error: { type: fault.errorType ?? anthropicErrorType(fault.status), message }, request_id: requestId }
        : {
            error: {
              message,
              type: fault.errorType ?? openaiErrorType(fault.status),
              param: null,
              code: fault.status === 401 ? 'invalid_api_key' : fault.status === 429 ? 'rate_limit_exceeded' : null,
            },
          };
    headers[protocol === 'anthropic' ? 'request-id' : 'x-request-id'] = requestId;
    this.#sendJson(entry, res, fault.status, body, headers, 'fault');
  }

  #sendJson(
    entry: MockRequest,
    res: ServerResponse,
    status: number,
    json: unknown,
    headers: Record<string, string>,
    outcome: MockRequest['outcome'],
    onSent?: () => void,
  ): void {
    const text = JSON.stringify(json);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
    res.end(text, () => {
      onSent?.();
      this.#end(entry, outcome, status);
    });
  }

  #openaiCompletion(body: any, reply: MockReply, cache: CacheState): unknown {
    const text = reply.text ?? '';
    const u = reply.usage ?? {};
    const input = u.inputTokens ?? cache.total;
    const output = u.outputTokens ?? estimateTokens(text);
    return {
      id: `chatcmpl-mock-${this.requests.length}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: reply.model ?? body.model ?? 'mock-model',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: reply.refusal || (reply.toolCalls?.length && !text) ? null : text,
            refusal: reply.refusal ?? null,
            ...(reply.toolCalls?.length
              ? {
                  tool_calls: reply.toolCalls.map((c, i) => ({
                    id: c.id ?? `call_mock_${this.requests.length}_${i}`,
                    type: 'function',
                    function: { name: c.name, arguments: c.arguments },
                  })),
                }
              : {}),
          },
          logprobs: null,
          finish_reason: reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop'),
        },
      ],
      usage: {
        prompt_tokens: input,
        completion_tokens: output,
        total_tokens: input + output,
        prompt_tokens_details: {
          cached_tokens: u.cachedInputTokens ?? Math.min(cache.read, input),
          audio_tokens: 0,
          ...(u.cacheWriteInputTokens !== undefined ? { cache_write_tokens: u.cacheWriteInputTokens } : {}),
        },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
    };
  }

  #anthropicMessage(body: any, reply: MockReply, cache: CacheState): unknown {
    const text = reply.text ?? '';
    const u = reply.usage ?? {};
    const cacheRead = u.cachedInputTokens ?? cache.read;
    const cacheWrite = u.cacheWriteInputTokens ?? cache.write;
    return {
      id: `msg_mock_${this.requests.length}`,
      type: 'message',
      role: 'assistant',
      model: reply.model ?? body.model ?? 'mock-model',
      content: [
        ...(text ? [{ type: 'text', text }] : []),
        ...(reply.toolCalls ?? []).map((c, i) => ({
          type: 'tool_use',
          id: c.id ?? `toolu_mock_${this.requests.length}_${i}`,
          name: c.name,
          input: safeJsonObject(c.arguments),
        })),
      ],
      stop_reason: reply.finishReason ?? (reply.toolCalls?.length ? 'tool_use' : 'end_turn'),
      stop_sequence: null,
      usage: {
        input_tokens: Math.max(0, (u.inputTokens ?? cache.total) - cacheRead - cacheWrite),
        output_tokens: u.outputTokens ?? estimateTokens(text),
        cache_creation_input_tokens: cacheWrite,
        cache_read_input_tokens: cacheRead,
      },
    };
  }
}

/** Starts a mock server on 127.0.0.1 and a random port. Remember to close() it. */
export function startMockModelServer(options: MockServerOptions = {}): Promise<MockModelServer> {
  return MockModelServer.start(options);
}

// ---- JSON script files (test/mock/serve.ts) -------------------------------------

export interface MockRouteMatch {
  protocol?: MockProtocol;
  model?: string;
  systemIncludes?: string;
  userIncludes?: string;
  lastUserIncludes?: string;
}

export interface MockScriptFile {
  /** Checked in order; the first route that matches and still has a reply answers. */
  routes?: Array<{ match?: MockRouteMatch; reply?: MockReply; replies?: MockReply[]; cycle?: boolean }>;
  /** Fallback queue. */
  replies?: MockReply[];
  /** Answer when nothing else does. */
  default?: MockReply;
}

/** A handler for a JSON script: an array (a queue) or a MockScriptFile. */
export function scriptFromJson(script: MockReply[] | MockScriptFile): MockHandler {
  const file: MockScriptFile = Array.isArray(script) ? { replies: script } : script;
  const routes = (file.routes ?? []).map((route) => ({ ...route, next: 0 }));
  const queue = [...(file.replies ?? [])];
  return (request) => {
    for (const route of routes) {
      if (!routeMatches(route.match ?? {}, request)) continue;
      if (route.reply) return route.reply;
      const replies = route.replies ?? [];
      if (route.next < replies.length) return replies[route.next++];
      if (route.cycle && replies.length) {
        route.next = 1;
        return replies[0];
      }
    }
    const queued = queue.shift();
    if (queued) return queued;
    if (file.default) return file.default;
    return {
      fault: { type: 'status', status: 400, message: `mock server: no scripted reply for request #${request.seq}`, errorType: 'mock_script_exhausted' },
    };
  };
}

export function routeMatches(match: MockRouteMatch, request: MockRequest): boolean {
  return (
    (match.protocol === undefined || match.protocol === request.protocol) &&
    (match.model === undefined || match.model === request.model) &&
    (match.systemIncludes === undefined || request.system.includes(match.systemIncludes)) &&
    (match.userIncludes === undefined || request.userText.includes(match.userIncludes)) &&
    (match.lastUserIncludes === undefined || request.lastUserText.includes(match.lastUserIncludes))
  );
}

// ---- helpers ---------------------------------------------------------------------

function batchRoute(path: string): boolean {
  return /^\/v1\/(files|batches)(\/|$)/.test(path) || /^\/v1\/messages\/batches(\/|$)/.test(path);
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

function openaiFileObject(file: MockFile): unknown {
  return {
    id: file.id,
    object: 'file',
    bytes: Buffer.byteLength(file.content),
    created_at: file.createdAt,
    filename: file.filename,
    purpose: file.purpose,
    status: 'processed',
    expires_at: null,
    status_details: null,
  };
}

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'api-key', 'proxy-authorization', 'cookie']);

function safeHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (SECRET_HEADERS.has(name.toLowerCase()) || value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : ''))
      .join('');
  }
  return '';
}

function openaiText(body: any): { system: string; user: string[] } {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  return {
    system: messages
      .filter((m) => m?.role === 'system' || m?.role === 'developer')
      .map((m) => contentText(m.content))
      .join('\n\n'),
    user: messages.filter((m) => m?.role === 'user').map((m) => contentText(m.content)),
  };
}

function anthropicText(body: any): { system: string; user: string[] } {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  return {
    system: contentText(body?.system),
    user: messages.filter((m) => m?.role === 'user').map((m) => contentText(m.content)),
  };
}

/**
 * What OpenAI's automatic prefix cache keys on, flattened: tools and the response_format schema,
 * then messages in order. OpenAI's prompt-caching guide: "The structured output schema serves as a
 * prefix to the system message and can be cached", and tools "must be identical between requests".
 */
function openaiPromptString(body: any): string {
  const parts: string[] = [];
  if (body?.tools) parts.push(`<tools>${JSON.stringify(body.tools)}`);
  if (body?.response_format) parts.push(JSON.stringify(body.response_format));
  for (const m of Array.isArray(body?.messages) ? body.messages : []) parts.push(`<${m?.role}>${contentText(m?.content)}`);
  return parts.join('\n');
}

/**
 * The flattened prompt and the prefix up to the last cache_control breakpoint. Anthropic's
 * prompt-caching guide: the prefix is built in the order tools, system, messages, and a change at
 * one level invalidates it and everything after. A changed structured-output schema
 * (output_config.format) has been observed to miss the cache too (public Bedrock reports; the
 * docs do not place it), so it is modelled conservatively as leading the prefix with the tools.
 */
function anthropicPromptString(body: any): { prompt: string; cachePrefix?: string } {
  const blocks: Array<{ text: string; cache: boolean }> = [];
  if (body?.tools) blocks.push({ text: `<tools>${JSON.stringify(body.tools)}`, cache: false });
  if (body?.output_config?.format) blocks.push({ text: `<format>${JSON.stringify(body.output_config.format)}`, cache: false });
  const system = body?.system;
  if (typeof system === 'string') blocks.push({ text: `<system>${system}`, cache: false });
  else if (Array.isArray(system)) for (const b of system) blocks.push({ text: `<system>${b?.text ?? ''}`, cache: !!b?.cache_control });
  for (const m of Array.isArray(body?.messages) ? body.messages : []) {
    if (typeof m?.content === 'string') blocks.push({ text: `<${m.role}>${m.content}`, cache: false });
    else if (Array.isArray(m?.content)) for (const b of m.content) blocks.push({ text: `<${m.role}>${b?.text ?? ''}`, cache: !!b?.cache_control });
  }
  const prompt = blocks.map((b) => b.text).join('\n');
  let last = -1;
  blocks.forEach((b, i) => {
    if (b.cache) last = i;
  });
  return last === -1
    ? { prompt }
    : {
        prompt,
        cachePrefix: blocks
          .slice(0, last + 1)
          .map((b) => b.text)
          .join('\n'),
      };
}

function safeJsonObject(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function openaiErrorType(status: number): string {
  if (status === 401) return 'invalid_request_error';
  if (status === 429) return 'requests';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

// The one link between a webview and the extension host, for all three UIs (editor, items,
// report): typed posts, typed requests answered by `{type: 'reply', requestId, body}`, listeners
// for host messages, and the page's saved UI state. Generic over each UI's message unions and its
// request → reply map (e.g. EditorReplies in src/shared/protocol.ts: getMessage → MessageBody).

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

let pageApi: VsCodeApi | undefined;
/** The page's VS Code API: VS Code lets a page acquire it only once. */
export function vsCodeApi(): VsCodeApi {
  return (pageApi ??= acquireVsCodeApi());
}

/** Ends a switch over a union: a case left out fails to compile. */
export function assertNever(value: never): never {
  throw new Error(`unexpected message ${JSON.stringify(value)}`);
}

type Message = { type: string };
type Reply = { type: 'reply'; requestId: number; body: unknown };

export class HostLink<ToHost extends Message, FromHost extends Message, Replies extends object = Record<never, never>> {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(body: unknown): void; reject(err: Error): void; timer: number }>();
  private readonly listeners: ((msg: FromHost) => void)[] = [];

  /** `label` names the UI in errors it reports to the host's log. */
  constructor(
    private readonly label: string,
    private readonly api: VsCodeApi = vsCodeApi(),
  ) {
    window.addEventListener('message', (ev: MessageEvent) => this.receive(ev.data));
  }

  post(message: ToHost): void {
    this.api.postMessage(message);
  }

  /** Sends request `type` and resolves with its reply's body; rejects on `{error}` or after `timeoutMs`. */
  request<K extends keyof Replies & ToHost['type']>(
    type: K,
    fields: Omit<Extract<ToHost, { type: K }>, 'type' | 'requestId'>,
    timeoutMs = 60_000,
  ): Promise<Replies[K]> {
    const requestId = this.nextId++;
    return new Promise<Replies[K]>((resolve, reject) => {
      const timer = window.setTimeout(() => {
        this.pending.delete(requestId);
        reject(new Error(`The extension did not answer ${String(type)} in ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      this.pending.set(requestId, { resolve: (body) => resolve(body as Replies[K]), reject, timer });
      this.api.postMessage({ ...fields, type, requestId });
    });
  }

  onMessage(listener: (msg: FromHost) => void): void {
    this.listeners.push(listener);
  }

  /** UI state only (scroll position, selection, filters): never trajectory content or annotations. */
  getState<T>(): T | undefined {
    return (this.api.getState() as T | undefined) ?? undefined;
  }

  setState<T>(state: T): void {
    this.api.setState(state);
  }

  private receive(data: unknown): void {
    if (!data || typeof data !== 'object' || typeof (data as { type?: unknown }).type !== 'string') return;
    if ((data as Message).type === 'reply' && typeof (data as Reply).requestId === 'number') {
      this.settle(data as Reply);
      return;
    }
    for (const listener of this.listeners) {
      try {
        listener(data as FromHost);
      } catch (err) {
        console.error(err);
        this.api.postMessage({ type: 'log', level: 'error', message: `${this.label}: ${String((err as Error)?.stack ?? err)}` });
      }
    }
  }

  private settle(reply: Reply): void {
    const entry = this.pending.get(reply.requestId);
    if (!entry) return;
    this.pending.delete(reply.requestId);
    window.clearTimeout(entry.timer);
    const body = reply.body as { error?: unknown } | null;
    if (body && typeof body === 'object' && typeof body.error === 'string') entry.reject(new Error(body.error));
    else entry.resolve(reply.body);
  }
}

// Typed link to the extension host: fire-and-forget posts, request/reply with requestId
// promises, and a listener for host messages.
import type { FromWebview, ToWebview } from '../../src/shared/protocol';
interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

type Requests = Extract<FromWebview, { requestId: number }>;
type RequestWithoutId = Requests extends infer R ? (R extends { requestId: number } ? Omit<R, 'requestId'> : never) : never;
type ReplyBody = Extract<ToWebview, { type: 'reply' }>['body'];

export class HostConnection {
  private readonly api: VsCodeApi;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(body: ReplyBody): void; reject(err: Error): void; timer: number }>();
  private readonly listeners: ((msg: ToWebview) => void)[] = [];

  constructor() {
    this.api = acquireVsCodeApi();
    window.addEventListener('message', (ev: MessageEvent) => this.onMessage(ev.data));
  }

  post(message: FromWebview): void {
    this.api.postMessage(message);
  }

  /** Sends a request and resolves with the reply body; rejects on `{error}` or after `timeoutMs`. */
  request<T extends ReplyBody>(message: RequestWithoutId, timeoutMs = 60_000): Promise<T> {
    const requestId = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = window.setTimeout(() => {
        this.pending.delete(requestId);
        reject(new Error(`The extension did not answer ${message.type} in ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      this.pending.set(requestId, {
        resolve: (body) => resolve(body as T),
        reject,
        timer,
      });
      this.api.postMessage({ ...message, requestId } as FromWebview);
    });
  }

  onHostMessage(listener: (msg: ToWebview) => void): void {
    this.listeners.push(listener);
  }

  getState<T>(): T | undefined {
    return (this.api.getState() as T | undefined) ?? undefined;
  }

  setState<T>(state: T): void {
    this.api.setState(state);
  }

  log(level: 'info' | 'error', message: string): void {
    this.post({ type: 'log', level, message });
  }

  private onMessage(data: unknown): void {
    if (!data || typeof data !== 'object' || typeof (data as { type?: unknown }).type !== 'string') return;
    const msg = data as ToWebview;
    if (msg.type === 'reply') {
      const entry = this.pending.get(msg.requestId);
      if (!entry) return;
      this.pending.delete(msg.requestId);
      window.clearTimeout(entry.timer);
      const body = msg.body as { error?: unknown };
      if (body && typeof body === 'object' && typeof body.error === 'string') entry.reject(new Error(body.error));
      else entry.resolve(msg.body);
      return;
    }
    for (const listener of this.listeners) {
      try {
        listener(msg);
      } catch (err) {
        console.error(err);
        this.log('error', `webview: ${String((err as Error)?.stack ?? err)}`);
      }
    }
  }
}

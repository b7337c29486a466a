// A tiny typed event emitter for the webview store, with gates for handlers that may wait.

/**
 * Holds back work until opened, then runs what was held, in order. The editor opens its side
 * panels' gate once the first timeline rows are on screen, so those panels (their Lit widgets,
 * layout and first render) do not delay the first paint.
 */
export class Gate {
  private held: (() => void)[] | null = [];

  get isOpen(): boolean {
    return this.held === null;
  }

  run(work: () => void): void {
    if (this.held) this.held.push(work);
    else work();
  }

  open(): void {
    const held = this.held;
    if (!held) return;
    this.held = null;
    for (const work of held) work();
  }
}

export class Emitter<Events extends Record<string, unknown>> {
  private readonly handlers = new Map<keyof Events, Set<(payload: never) => void>>();
  private gate: Gate | null = null;

  on<K extends keyof Events>(type: K, handler: (payload: Events[K]) => void): () => void {
    let set = this.handlers.get(type);
    if (!set) this.handlers.set(type, (set = new Set()));
    const gate = this.gate;
    const registered = (gate ? (payload: Events[K]) => gate.run(() => handler(payload)) : handler) as (payload: never) => void;
    set.add(registered);
    return () => set!.delete(registered);
  }

  /** Runs `register`; the handlers it registers receive their events only once `gate` is open. */
  behind<T>(gate: Gate, register: () => T): T {
    const outer = this.gate;
    this.gate = gate;
    try {
      return register();
    } finally {
      this.gate = outer;
    }
  }

  emit<K extends keyof Events>(type: K, payload: Events[K]): void {
    const set = this.handlers.get(type);
    if (!set) return;
    for (const handler of [...set]) (handler as (p: Events[K]) => void)(payload);
  }
}

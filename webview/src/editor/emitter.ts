// A tiny typed event emitter for the webview store, and a gate for work that must wait.

/**
 * Holds back work until opened, then runs what was held, in order. The editor opens its side
 * panels' gate once they are mounted, after the first rows are on screen: a shortcut that needs
 * them (an annotation key pressed during the start) waits for it.
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

  on<K extends keyof Events>(type: K, handler: (payload: Events[K]) => void): () => void {
    let set = this.handlers.get(type);
    if (!set) this.handlers.set(type, (set = new Set()));
    const registered = handler as (payload: never) => void;
    set.add(registered);
    return () => set!.delete(registered);
  }

  emit<K extends keyof Events>(type: K, payload: Events[K]): void {
    const set = this.handlers.get(type);
    if (!set) return;
    for (const handler of [...set]) (handler as (p: Events[K]) => void)(payload);
  }
}

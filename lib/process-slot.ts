// One value per process, kept on globalThis under a registered symbol. Next.js may load a module more than once
// (a bundle per route, a fresh copy on hot reload), so a plain module-level variable would not be shared: the
// studio's services (database, event bus, run manager…) are set once by `colbench serve` and found here.

export interface ProcessSlot<T> {
  /** The value, or undefined while none is set. */
  get(): T | undefined;
  /** The value, or an error with `missing` as its message while none is set. */
  need(missing: string): T;
  /** Sets (or, with undefined, empties) the slot. */
  set(value: T | undefined): void;
  /** The value, made by `make` and kept the first time it is asked for. */
  getOrCreate(make: () => T): T;
}

/** The slot named `name` (a `Symbol.for` key, e.g. "colbench.eventBus"): every copy of a module shares it. */
export function processSlot<T>(name: string): ProcessSlot<T> {
  const key = Symbol.for(name);
  const holder = globalThis as { [key]?: T };
  return {
    get: () => holder[key],
    need(missing) {
      const value = holder[key];
      if (value === undefined) throw new Error(missing);
      return value;
    },
    set(value) {
      if (value === undefined) delete holder[key];
      else holder[key] = value;
    },
    getOrCreate: (make) => (holder[key] ??= make()),
  };
}

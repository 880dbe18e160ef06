/**
 * Releases an RPC resource (a stub, an entrypoint, or the result of a call that was passed a stub,
 * which holds that stub until disposed); does nothing for anything else and never throws. Left to
 * the garbage collector, workerd logs "An RPC result was not disposed properly".
 */
export function disposeQuietly(resource: unknown): void {
  const dispose = (resource as Partial<Disposable> | null)?.[Symbol.dispose];
  if (typeof dispose !== "function") return;
  try {
    dispose.call(resource);
  } catch {}
}

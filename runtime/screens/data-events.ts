/**
 * "Records of resource R changed": a write anywhere (a drawer form, a routed form, a
 * delete) tells every table, detail and option list bound to R to read again, so that
 * a list kept alive in its tab shows the record added on another route without losing
 * its query, page or scroll.
 */
type Listener = (resource: string) => void;

const listeners = new Set<Listener>();

export function notifyResourceChanged(resource: string | undefined): void {
  if (!resource) return;
  for (const l of [...listeners]) l(resource);
}

export function onResourceChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

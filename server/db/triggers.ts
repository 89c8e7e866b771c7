/**
 * What the database's own guards raise, for services that map them to their stable error codes. The frozen-version
 * triggers (migration runtime_and_eval) refuse any change to a frozen evaluation set version or its samples, also
 * when a cascade (deleting an agent or a set) reaches them.
 */
export function isFrozenViolation(e: unknown): boolean {
  const msg = e instanceof Error ? e.message : String(e);
  return /frozen and immutable|samples of a frozen evaluation set version/.test(msg);
}

/**
 * Size limits for a workflow. The HTTP layer enforces `maxBodyBytes` (answering 413);
 * the validator turns the others into findings, never exceptions.
 */
export const WORKFLOW_LIMITS = {
  /** Largest accepted request body, in bytes (5 MiB). Enforced by the HTTP layer. */
  maxBodyBytes: 5 * 1024 * 1024,
  /** Most nodes in one workflow. */
  maxNodes: 10_000,
  /** Most edges in one workflow. */
  maxEdges: 20_000,
  /** Longest string anywhere in a node config or edge, in UTF-16 code units. */
  maxStringLength: 100_000,
  /** Longest node id. */
  maxIdLength: 128,
  /** Most findings returned; the rest are summarised by one FINDINGS_TRUNCATED warning. */
  maxFindings: 1000,
} as const;

export type WorkflowLimits = typeof WORKFLOW_LIMITS;

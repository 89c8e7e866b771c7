/**
 * Stable validation finding codes. A code never changes meaning and is never renamed once
 * released; new rules get new codes. This table also renders the docs.
 */
export type Severity = "error" | "warning";

export interface FindingCodeInfo {
  readonly severity: Severity;
  readonly description: string;
}

export const FINDING_CODES = {
  // Body shape
  BODY_INVALID_TYPE: {
    severity: "error",
    description:
      "A value in the request body has the wrong JSON type (for example `nodes` is not an array or a node `id` is not a string).",
  },
  BODY_REQUIRED_FIELD: {
    severity: "error",
    description:
      "A required field of the request body, workflow, node or edge is missing (`workflow`, `nodes`, `edges`, `id`, `type`, `source`, `target`).",
  },
  // Workflow
  WORKFLOW_NO_START: { severity: "error", description: "The workflow has no node of type `start`." },
  WORKFLOW_NO_END: { severity: "error", description: "The workflow has no node of type `end`." },
  // Nodes
  NODE_ID_DUPLICATE: {
    severity: "error",
    description: "Two nodes share the same `id`; ids must be unique across the workflow.",
  },
  NODE_ID_INVALID: {
    severity: "error",
    description: "A node `id` is empty, only whitespace, or longer than the id length limit.",
  },
  NODE_ID_NOT_REFERENCEABLE: {
    severity: "warning",
    description:
      "A node `id` contains characters other than letters, digits, `_` and `-`, so templates cannot refer to it.",
  },
  NODE_TYPE_UNKNOWN: {
    severity: "error",
    description: "A node `type` is not one of start, end, llm, http, condition, code, memory_load, memory_save.",
  },
  NODE_CONFIG_MISSING_REQUIRED: {
    severity: "error",
    description:
      "A node lacks its required config: none of the keys of a required group (for example userPrompt, user_prompt or prompt_template for llm) is present and non-empty.",
  },
  NODE_CONFIG_INVALID: {
    severity: "error",
    description:
      "A config value has the wrong type or is out of range (for example an llm `temperature` above 2), or `config` is not an object.",
  },
  NODE_CONFIG_UNKNOWN_KEY: {
    severity: "warning",
    description: "A config key is not part of the node type's contract and will be ignored.",
  },
  NODE_POSITION_INVALID: {
    severity: "error",
    description: "A node `position` is missing or is not an object `{x, y}` of finite numbers.",
  },
  // Edges
  EDGE_SOURCE_UNKNOWN: { severity: "error", description: "An edge `source` is not the id of an existing node." },
  EDGE_TARGET_UNKNOWN: { severity: "error", description: "An edge `target` is not the id of an existing node." },
  EDGE_SELF_LOOP: { severity: "error", description: "An edge connects a node to itself." },
  EDGE_DUPLICATE: {
    severity: "warning",
    description: "Two edges have the same source, target and condition; the second one is ignored.",
  },
  EDGE_CONDITION_INVALID: {
    severity: "error",
    description:
      'An edge `condition` is not "true", "false" or a boolean, is set on an edge whose source is not a condition node, or contradicts the source\'s trueTarget/falseTarget.',
  },
  EDGE_CONDITION_MISSING: {
    severity: "error",
    description:
      "An outgoing edge of a condition node carries no `condition` label and is not named by the node's trueTarget or falseTarget, so its branch is unknown.",
  },
  // Start node
  START_OUTPUT_INVALID: {
    severity: "error",
    description:
      "A declared start output is malformed: `name` must be an identifier, `type` one of string, number, integer, boolean, object, array, `required` a boolean.",
  },
  START_OUTPUT_DUPLICATE: {
    severity: "error",
    description: "Two start outputs (or an output and a start variable) share the same name.",
  },
  START_OUTPUT_DEFAULT_TYPE: {
    severity: "error",
    description: "A start output's `default` is not a value of its declared `type`.",
  },
  START_HAS_INCOMING: {
    severity: "error",
    description: "An edge points into a start node; start nodes are entry points only.",
  },
  // Templates
  TEMPLATE_MALFORMED: {
    severity: "error",
    description:
      "A `{{...}}` template is malformed: unclosed, empty, without a `.field`, or with characters outside letters, digits, `_` and `-`.",
  },
  TEMPLATE_UNKNOWN_NODE: {
    severity: "error",
    description: "A template (or memory_save `extractFrom`) names a node id that does not exist.",
  },
  TEMPLATE_NOT_UPSTREAM: {
    severity: "error",
    description:
      "A template (or `extractFrom`) names a node that is not upstream of (an ancestor of) the node using it.",
  },
  TEMPLATE_UNKNOWN_FIELD: {
    severity: "error",
    description: "A template (or `extractFrom`) names a field the referenced node does not output.",
  },
  // Condition nodes
  CONDITION_EXPRESSION_INVALID: {
    severity: "error",
    description: "A condition `expression` is not a valid CEL expression.",
  },
  CONDITION_UNKNOWN_VARIABLE: {
    severity: "error",
    description: "A condition expression uses a variable that is not the id of a node.",
  },
  CONDITION_NOT_UPSTREAM: {
    severity: "error",
    description: "A condition expression uses a node that is not upstream of the condition node.",
  },
  CONDITION_UNKNOWN_FIELD: {
    severity: "error",
    description: "A condition expression selects a field the referenced node does not output.",
  },
  CONDITION_TARGET_INVALID: {
    severity: "error",
    description: "A condition node's trueTarget or falseTarget is not the target of one of its outgoing edges.",
  },
  CONDITION_BRANCH_MISSING: {
    severity: "error",
    description:
      "A condition node has no true branch or no false branch (neither trueTarget/falseTarget nor a labelled outgoing edge).",
  },
  // Graph
  GRAPH_CYCLE: { severity: "error", description: "The edges form a cycle; workflows must be acyclic." },
  NODE_UNREACHABLE: { severity: "error", description: "A node cannot be reached from any start node." },
  END_UNREACHABLE: { severity: "error", description: "No end node can be reached from a start node." },
  NODE_DEAD_END: {
    severity: "warning",
    description: "A node other than an end node has no outgoing edge, so a run stops there.",
  },
  END_HAS_OUTGOING: { severity: "warning", description: "An end node has an outgoing edge, which is never followed." },
  // HTTP nodes
  HTTP_URL_INVALID: {
    severity: "error",
    description:
      "An http `url` is neither an absolute http(s) URL nor a relative path starting with `/` (templates allowed).",
  },
  HTTP_BASE_URL_UNSET: {
    severity: "warning",
    description: "An http `url` is relative but WEBHOOK_BASE_URL is not set, so the call cannot be made.",
  },
  // Code nodes: reported by the async validator (server/runtime/validate-code.ts), which compiles each code node's Python in the sandbox without running it
  CODE_SYNTAX_ERROR: {
    severity: "error",
    description:
      "A code node's Python does not compile; the message gives the line, column and Python's message. Reported by validate, provisioning and test runs (not by the pure, synchronous validator).",
  },
  CODE_SYNTAX_UNCHECKED: {
    severity: "warning",
    description:
      "A code node's Python could not be syntax-checked because the sandbox is unavailable or slow; a syntax error would then surface when the node runs.",
  },
  // Judges (body `{ workflow, kind: "judge" }`: the judge contract, server/workflow/judge.ts)
  AGENT_KIND_UNKNOWN: {
    severity: "error",
    description: 'The request body\'s `kind` is not "agent" or "judge".',
  },
  JUDGE_INPUT_MISSING: {
    severity: "error",
    description:
      "The start node of a judge does not declare one of the inputs the evaluation center fills in: `question` (string), `expected_points` (array), `answer` (string).",
  },
  JUDGE_INPUT_TYPE: {
    severity: "error",
    description:
      "A judge input is declared with another type than the contract's: `question`, `answer`, `scenario` string; `expected_points`, `script` array; `payload` object.",
  },
  JUDGE_INPUT_UNEXPECTED: {
    severity: "error",
    description:
      "The start node of a judge requires an input outside the contract without a default; nobody fills it in, so every judging would fail.",
  },
  JUDGE_OUTPUT_MISSING: {
    severity: "error",
    description:
      'The end node of a judge has no `output`; it must output the judge\'s JSON answer `{ "verdict": "pass"|"fail"|"unknown", "rationale"?, "points"? }`.',
  },
  JUDGE_OUTPUT_INVALID: {
    severity: "error",
    description:
      "The end node of a judge outputs fixed text (no template) that is not a judge answer, so every judging would be unknown.",
  },
  JUDGE_OUTPUT_NOT_SINGLE_VALUE: {
    severity: "warning",
    description:
      "The end node of a judge mixes text and templates; its output is read as JSON, so it should be exactly one template naming a node that outputs the judge answer object.",
  },
  // Limits
  LIMIT_NODES: {
    severity: "error",
    description: "The workflow has more nodes than allowed; the graph is not checked further.",
  },
  LIMIT_EDGES: {
    severity: "error",
    description: "The workflow has more edges than allowed; the graph is not checked further.",
  },
  LIMIT_STRING_LENGTH: {
    severity: "error",
    description: "A string in the workflow is longer than the string length limit.",
  },
  FINDINGS_TRUNCATED: {
    severity: "warning",
    description: "There were more findings than the findings limit; only the first ones are returned.",
  },
  VALIDATOR_INTERNAL_ERROR: {
    severity: "error",
    description:
      "The validator failed on an unexpected input (for example a JavaScript object whose getter throws); the workflow could not be checked.",
  },
} as const satisfies Record<string, FindingCodeInfo>;

export type FindingCode = keyof typeof FINDING_CODES;

export const FINDING_CODE_LIST = Object.keys(FINDING_CODES) as FindingCode[];

export function severityOf(code: FindingCode): Severity {
  return FINDING_CODES[code].severity;
}

import { ApiError } from "../core/errors";
import type { ValidationResult } from "./schema";

/**
 * The 400 a refused workflow answers everywhere (validate, provision, test run): the one error shape
 * (code WORKFLOW_INVALID, the findings as details) plus the validation result beside it (`valid`, `errors`, `warnings`).
 */
export function workflowInvalid(result: ValidationResult): ApiError {
  const n = result.errors.length;
  return new ApiError(400, "WORKFLOW_INVALID", `The workflow has ${n} error${n === 1 ? "" : "s"}`, result.errors, {
    valid: false,
    errors: result.errors,
    warnings: result.warnings,
  });
}

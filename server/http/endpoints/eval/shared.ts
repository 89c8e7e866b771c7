import { z } from "zod";
import { ErrorOut } from "../../../core/errors";
import { EVAL_LIMITS } from "../../../eval";

/**
 * What the evaluation center's REST endpoints share: a session or a bearer token, one tag, the common error
 * responses. Runs are addressed by internal id or short Run ID (R-7K2F9) wherever `{id}` names a run.
 */
export const base = { tag: "Evaluation center", auth: "token-or-session" } as const;
export const notFound = { 404: { description: "Not found", schema: ErrorOut } };
export const conflict = (description: string) => ({ 409: { description, schema: ErrorOut } });
export const invalid = (description = "Invalid request") => ({ 400: { description, schema: ErrorOut } });
export const uploadLimit = EVAL_LIMITS.maxUploadBodyBytes;
/** A delete's answer over REST: 204 without a body (tRPC answers `{ deleted: true }`). */
export const noContent = () => new Response(null, { status: 204 });

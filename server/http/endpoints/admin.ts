import { rest } from "../rest";
import * as op from "../../auth/operations";
import { ErrorOut } from "../../core/errors";

/** Users and tokens over REST (/api/admin/*): only creating a token; the rest is tRPC and Settings alone. */

const base = { tag: "Settings", auth: "token-or-session" } as const;

export const adminCreateToken = rest(op.adminCreateToken, {
  ...base,
  method: "POST",
  path: "/api/admin/tokens",
  summary: "Create an API token for any user (admins); the token is shown once",
  status: () => 201,
  responses: {
    201: "The token, with its plain value (shown once)",
    400: { description: "REQUEST_INVALID: a role above the owner's", schema: ErrorOut },
    404: { description: "NOT_FOUND: no enabled user with this id", schema: ErrorOut },
  },
});
